// Several frames per call, broken: tags in content escaped in exact case only.
//
// `</search-result>` and `<search-result` are entity-escaped as written. One
// source's content holding `</SEARCH-RESULT>`, or a fullwidth or zero-width
// spelling, still closes its element, and what follows reads as the start of
// the next sibling's.
import { Refusal, attributeKeysProblem, serve, tagAttributes } from '../lib/fcshape.mjs'

const TOKEN = 'search-result'
const SAFE = 'search_result'

const escapeTags = (text) => // the defect: byte-exact matching only
	text.replaceAll(`</${TOKEN}>`, `&lt;/${TOKEN}&gt;`).replaceAll(`<${TOKEN}`, `&lt;${TOKEN}`)

function frame({ content, kind, attributes }, index) {
	const problem = attributeKeysProblem(attributes, TOKEN, ['kind', 'index'])
	if (problem) throw new Refusal(problem)
	const attrs = tagAttributes(kind, attributes, TOKEN, SAFE)
	return `<${TOKEN} index="${index}"${attrs}>\n${escapeTags(content)}\n</${TOKEN}>`
}

serve({
	wrap: (item) => frame(item, 1),
	wrapMany: (items) => items.map((item, i) => frame(item, i + 1)).join('\n'),
})
