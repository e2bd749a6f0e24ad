// Spotlighting by encoding, correct: the content as base64 of its UTF-8.
//
// <encoded-data kind="…" key="…">
// BASE64
// </encoded-data>
//
// The base64 alphabet has no bracket, so nothing in the body can read as a
// tag at any level. The reader decodes strictly (canonical padding, valid
// UTF-8) and returns the original content.
import { Buffer } from 'node:buffer'
import { Refusal, attributeKeysProblem, serve, tagAttributes } from '../lib/fcshape.mjs'

const TOKEN = 'encoded-data'
const SAFE = 'encoded_data'
const CLOSE = `\n</${TOKEN}>`
const OPEN = /^<encoded-data kind="[^"<>\r\n]*"(?: [A-Za-z_][A-Za-z0-9_.-]*="[^"<>\r\n]*")*>\n/

function wrap({ content, kind, attributes }) {
	const problem = attributeKeysProblem(attributes, TOKEN)
	if (problem) throw new Refusal(problem)
	const body = Buffer.from(content, 'utf8').toString('base64')
	return `<${TOKEN}${tagAttributes(kind, attributes, TOKEN, SAFE)}>\n${body}${CLOSE}`
}

function read(text) {
	const head = OPEN.exec(text)
	if (!head || !text.endsWith(CLOSE) || text.length < head[0].length + CLOSE.length) return null
	const body = text.slice(head[0].length, text.length - CLOSE.length)
	if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(body)) return null
	const bytes = Buffer.from(body, 'base64')
	if (bytes.toString('base64') !== body) return null
	try {
		return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
	} catch {
		return null
	}
}

serve({ wrap, read })
