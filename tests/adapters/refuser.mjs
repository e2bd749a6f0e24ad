// A target using the Node helper: refuses long content, crashes on "bug";
// frames a list of items one after the other (wrap-many); its reader throws on
// text that starts with "{", as readers in the field do on a malformed frame.
import { Refusal, serve } from '../../adapters/node/framecheck-adapter.mjs'

function wrap(content, { kind, attributes, provenance }) {
	if (content === 'bug') throw new TypeError('a bug, not a refusal')
	if (content.length > 10) throw new Refusal('content longer than 10 characters')
	const attrs = Object.keys(attributes).sort().map((k) => `${k}=${attributes[k]}`).join(',')
	return `[${kind}|${attrs}|${provenance}|${content}]`
}

serve({
	wrap,
	wrapMany: (items) => items.map(({ content, ...fields }) => wrap(content, fields)).join(''),
	read: (text) => {
		if (text.startsWith('{')) throw new SyntaxError('malformed frame')
		return text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : null
	},
})
