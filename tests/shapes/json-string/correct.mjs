// JSON-string body, correct: the content as a JSON string literal in tags.
//
// <tool_result kind="…" key="…">
// "CONTENT AS JSON"
// </tool_result>
//
// JSON alone does not escape `<` or `/`, so `</tool_result>` would survive
// JSON.stringify. Here the literal is made ASCII-only: `<`, `>`, `&` and
// every non-ASCII code unit are written as \uXXXX escapes. The model then
// sees no bracket from the content in any spelling (fullwidth and
// lookalike brackets included), and JSON.parse still returns the content
// exactly. The reader json-decodes and returns the original content.
import { Refusal, attributeKeysProblem, serve, tagAttributes } from '../lib/fcshape.mjs'

const TOKEN = 'tool_result'
const SAFE = 'tool-result'
const CLOSE = `\n</${TOKEN}>`
const OPEN = /^<tool_result kind="[^"<>\r\n]*"(?: [A-Za-z_][A-Za-z0-9_.-]*="[^"<>\r\n]*")*>\n/

const unicodeEscape = (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')

export function jsonBody(content) {
	return JSON.stringify(content).replace(/[<>&\u007f-\uffff]/g, unicodeEscape)
}

function wrap({ content, kind, attributes }) {
	const problem = attributeKeysProblem(attributes, TOKEN)
	if (problem) throw new Refusal(problem)
	return `<${TOKEN}${tagAttributes(kind, attributes, TOKEN, SAFE)}>\n${jsonBody(content)}${CLOSE}`
}

function read(text) {
	const head = OPEN.exec(text)
	if (!head || !text.endsWith(CLOSE) || text.length < head[0].length + CLOSE.length) return null
	const body = text.slice(head[0].length, text.length - CLOSE.length)
	// One printable-ASCII JSON string with no bracket: nothing in it can be a tag.
	if (!/^"[\x20-\x7e]*"$/.test(body) || /[<>]/.test(body)) return null
	try {
		const value = JSON.parse(body)
		return typeof value === 'string' ? value : null
	} catch {
		return null
	}
}

serve({ wrap, read })
