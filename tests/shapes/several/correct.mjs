// Several frames per call, correct: one element per retrieved source.
//
// <search-result index="1" kind="…" key="…">
// CONTENT 1
// </search-result>
// <search-result index="2" kind="…">
// CONTENT 2
// </search-result>
//
// Answers `wrap` (one source) and `wrap-many` (a list). Every reading of the
// token in each content, kind and attribute value is defanged at the Unicode
// level, so no source can close its own element or open a sibling's; values
// are escaped and keys validated. The index is the framing's own attribute.
import { Refusal, attributeKeysProblem, defang, serve, tagAttributes } from '../lib/fcshape.mjs'

const TOKEN = 'search-result'
const SAFE = 'search_result'

function frame({ content, kind, attributes }, index) {
	const problem = attributeKeysProblem(attributes, TOKEN, ['kind', 'index'])
	if (problem) throw new Refusal(problem)
	const attrs = tagAttributes(kind, attributes, TOKEN, SAFE)
	return `<${TOKEN} index="${index}"${attrs}>\n${defang(content, TOKEN, SAFE)}\n</${TOKEN}>`
}

serve({
	wrap: (item) => frame(item, 1),
	wrapMany: (items) => items.map((item, i) => frame(item, i + 1)).join('\n'),
})
