// JSON-string body, broken: escapes the ASCII `<` only.
//
// The HTML-safe JSON trick (`<` as \u003c) stops `</tool_result>`, and a
// byte or case-insensitive reader sees no tag. But non-ASCII stays raw, and
// a fullwidth `＜／tool_result＞` or a lookalike `‹/tool_result›` reads as
// the closing tag once NFKC and the lookalike table are applied.
import { Refusal, attributeKeysProblem, serve, tagAttributes } from '../lib/fcshape.mjs'

const TOKEN = 'tool_result'
const SAFE = 'tool-result'

function wrap({ content, kind, attributes }) {
	const problem = attributeKeysProblem(attributes, TOKEN)
	if (problem) throw new Refusal(problem)
	const body = JSON.stringify(content).replace(/</g, '\\u003c') // the defect: ASCII only
	return `<${TOKEN}${tagAttributes(kind, attributes, TOKEN, SAFE)}>\n${body}\n</${TOKEN}>`
}

serve({ wrap })
