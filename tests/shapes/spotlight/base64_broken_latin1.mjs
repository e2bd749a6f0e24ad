// Spotlighting by encoding, broken: base64 of the content as Latin-1.
//
// `Buffer.from(content, 'latin1')` (like `btoa`) keeps only the low byte of
// each UTF-16 code unit. ASCII survives, so the author's tests passed; any
// other script, accents or emoji decode to different characters.
import { Buffer } from 'node:buffer'
import { Refusal, attributeKeysProblem, serve, tagAttributes } from '../lib/fcshape.mjs'

const TOKEN = 'encoded-data'
const SAFE = 'encoded_data'

function wrap({ content, kind, attributes }) {
	const problem = attributeKeysProblem(attributes, TOKEN)
	if (problem) throw new Refusal(problem)
	const body = Buffer.from(content, 'latin1').toString('base64') // the defect
	return `<${TOKEN}${tagAttributes(kind, attributes, TOKEN, SAFE)}>\n${body}\n</${TOKEN}>`
}

serve({ wrap })
