// A target using the Node helper: refuses long content, crashes on "bug".
import { Refusal, serve } from '../../adapters/node/framecheck-adapter.mjs'

serve({
	wrap(content, { kind, attributes, provenance }) {
		if (content === 'bug') throw new TypeError('a bug, not a refusal')
		if (content.length > 10) throw new Refusal('content longer than 10 characters')
		const attrs = Object.keys(attributes).sort().map((k) => `${k}=${attributes[k]}`).join(',')
		return `[${kind}|${attrs}|${provenance}|${content}]`
	},
	read: (text) => (text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : null),
})
