// Serve a Node framing to framecheck over its JSON-lines protocol.
//
// Write `wrap` (and `read` if the framing has a reader), then call
// `serve({ wrap, read })`. The same loop serves persistent and one-shot mode.
// `wrap(content, { kind, attributes, provenance })` returns the framed text
// (or a promise of it); `read(text)` returns the body or null, or an array of
// `{ role, field, text }` segments for a reader that parses frames into
// messages or fields (sent as `{"segments": [...]}`); `wrap` may return an
// array of `{ role, text }` parts for a framing that answers a list of
// messages (`wrap.returns: parts`, sent as `{"parts": [...]}`). Throw a
// `Refusal` to reject an input on purpose. Any other throw from `wrap` is a bug:
// the process exits with the stack on stderr, which framecheck reports as a
// failure. A throw from `read` rejects the text (null), stack on stderr:
// readers throw on a malformed frame, and one that throws on the framing's own
// output is still reported, as a reader rejecting it.
//
// Raw bytes (the protocol's `bytes` extension, for profiles declaring the
// `bytes` capability): `serve({ wrap, read, bytes: true })` passes `wrap` a
// Buffer of the raw content whenever the request carries `content_b64`, and a
// Buffer (or Uint8Array) returned by `wrap` goes back as `framed_b64`.
//
// Several frames per call (profiles declaring `frame: { count: several }`):
// `serve({ wrap, wrapMany })` answers the `wrap-many` op by calling
// `wrapMany(items)` with an array of `{ content, kind, attributes,
// provenance }` (content a Buffer when the item carries `content_b64` and
// `bytes` is on) and sends back the one framed text it returns (or, as for
// `wrap`, the array of parts: one message per item, say). Without
// `wrapMany` the op gets an `error` reply.
import { createInterface } from 'node:readline'

/** The framing rejects this input on purpose; the message says why. */
export class Refusal extends Error {}

const framedReply = (id, framed) =>
	Array.isArray(framed)
		? { id, parts: framed.map(({ role = null, text }) => ({ role, text })) }
		: framed instanceof Uint8Array
			? { id, framed_b64: Buffer.from(framed).toString('base64') }
			: { id, framed }

async function answerMany(request, wrapMany, bytes) {
	const { id = null, items } = request
	if (!wrapMany) return { id, error: 'unsupported op "wrap-many"' }
	const valid = (item) => item !== null && typeof item === 'object' && typeof item.content === 'string'
	if (!Array.isArray(items) || !items.every(valid))
		return { id, error: 'invalid request: items must be an array of objects with a string content' }
	const decoded = items.map(({ content, content_b64, kind = '', attributes = {}, provenance = '' }) => ({
		content: bytes && typeof content_b64 === 'string' ? Buffer.from(content_b64, 'base64') : content,
		kind,
		attributes: attributes ?? {},
		provenance,
	}))
	try {
		return framedReply(id, await wrapMany(decoded))
	} catch (e) {
		if (e instanceof Refusal) return { id, error: e.message || 'refused' }
		throw e
	}
}

async function readOrReject(read, text) {
	try {
		return (await read(text)) ?? null
	} catch (e) {
		if (e instanceof Refusal) throw e
		console.error(e)
		return null
	}
}

async function answer(request, wrap, read, bytes, wrapMany) {
	if (request === null || typeof request !== 'object' || Array.isArray(request))
		return { id: null, error: 'invalid request: not a JSON object' }
	const { id = null, op } = request
	if (op === 'wrap-many') return answerMany(request, wrapMany, bytes)
	const field = { wrap: 'content', read: 'text' }[op]
	if (!Object.hasOwn({ wrap: 1, read: 1 }, op) || (op === 'read' && !read))
		return { id, error: `unsupported op ${JSON.stringify(op)}` }
	if (typeof request[field] !== 'string') return { id, error: `invalid request: ${field} must be a string` }
	try {
		if (op === 'read') {
			const body = await readOrReject(read, request.text)
			// A reader that parses frames into messages or fields answers with
			// segments (reader.returns: segments).
			if (Array.isArray(body))
				return { id, segments: body.map(({ role, field = null, text }) => ({ role, field, text })) }
			return { id, body }
		}
		const { kind = '', attributes = {}, provenance = '' } = request
		const raw = bytes && typeof request.content_b64 === 'string'
		const content = raw ? Buffer.from(request.content_b64, 'base64') : request.content
		const framed = await wrap(content, { kind, attributes: attributes ?? {}, provenance })
		return framedReply(id, framed)
	} catch (e) {
		if (e instanceof Refusal) return { id, error: e.message || 'refused' }
		throw e
	}
}

/** Answer requests from stdin on stdout until stdin closes. */
export async function serve({ wrap, read = null, bytes = false, wrapMany = null }) {
	// readline splits at \n (and \r, which JSON never leaves raw), not at U+2028.
	const lines = createInterface({ input: process.stdin, crlfDelay: Infinity })
	for await (const line of lines) {
		if (line.trim() === '') continue
		let request
		try {
			request = JSON.parse(line)
		} catch (e) {
			process.stdout.write(JSON.stringify({ id: null, error: `invalid request: ${e.message}` }) + '\n')
			continue
		}
		// JSON.stringify escapes lone surrogates, so every reply is valid UTF-8.
		process.stdout.write(JSON.stringify(await answer(request, wrap, read, bytes, wrapMany)) + '\n')
	}
}
