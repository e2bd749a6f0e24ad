// JSON-string body, broken: plain JSON.stringify.
//
// "JSON-encoding makes it safe" is the assumption. But JSON escapes quotes,
// backslashes and control characters, not `<` or `/`: content holding
// `</tool_result>` comes out of JSON.stringify unchanged and closes the tag.
import { Refusal, attributeKeysProblem, serve, tagAttributes } from '../lib/fcshape.mjs'

const TOKEN = 'tool_result'
const SAFE = 'tool-result'

function wrap({ content, kind, attributes }) {
	const problem = attributeKeysProblem(attributes, TOKEN)
	if (problem) throw new Refusal(problem)
	const body = JSON.stringify(content) // the defect: `<` stays raw
	return `<${TOKEN}${tagAttributes(kind, attributes, TOKEN, SAFE)}>\n${body}\n</${TOKEN}>`
}

serve({ wrap })
