// Serve a Node framing to framecheck over its JSON-lines protocol.
//
// Write `wrap` (and `read` if the framing has a reader), then call
// `serve({ wrap, read })`. The same loop serves persistent and one-shot mode.
// `wrap(content, { kind, attributes, provenance })` returns the framed text
// (or a promise of it); `read(text)` returns the body or null. Throw a
// `Refusal` to reject an input on purpose. Any other throw is a bug: the
// process exits with the stack on stderr, which framecheck reports as a failure.
//
// Raw bytes (the protocol's `bytes` extension, for profiles declaring the
// `bytes` capability): `serve({ wrap, read, bytes: true })` passes `wrap` a
// Buffer of the raw content whenever the request carries `content_b64`, and a
// Buffer (or Uint8Array) returned by `wrap` goes back as `framed_b64`.
import { createInterface } from 'node:readline'

/** The framing rejects this input on purpose; the message says why. */
export class Refusal extends Error {}

async function answer(request, wrap, read, bytes) {
	if (request === null || typeof request !== 'object' || Array.isArray(request))
		return { id: null, error: 'invalid request: not a JSON object' }
	const { id = null, op } = request
	const field = { wrap: 'content', read: 'text' }[op]
	if (!Object.hasOwn({ wrap: 1, read: 1 }, op) || (op === 'read' && !read))
		return { id, error: `unsupported op ${JSON.stringify(op)}` }
	if (typeof request[field] !== 'string') return { id, error: `invalid request: ${field} must be a string` }
	try {
		if (op === 'read') return { id, body: (await read(request.text)) ?? null }
		const { kind = '', attributes = {}, provenance = '' } = request
		const raw = bytes && typeof request.content_b64 === 'string'
		const content = raw ? Buffer.from(request.content_b64, 'base64') : request.content
		const framed = await wrap(content, { kind, attributes: attributes ?? {}, provenance })
		if (framed instanceof Uint8Array) return { id, framed_b64: Buffer.from(framed).toString('base64') }
		return { id, framed }
	} catch (e) {
		if (e instanceof Refusal) return { id, error: e.message || 'refused' }
		throw e
	}
}

/** Answer requests from stdin on stdout until stdin closes. */
export async function serve({ wrap, read = null, bytes = false }) {
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
		process.stdout.write(JSON.stringify(await answer(request, wrap, read, bytes)) + '\n')
	}
}
