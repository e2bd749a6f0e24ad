// A Node framing on the `bytes` extension: frames the raw content bytes as
// they are (escaping only `<` and `&`), and answers with framed_b64.
import { serve } from '../../adapters/node/framecheck-adapter.mjs'

serve({
	bytes: true,
	wrap(content) {
		const raw = Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8')
		const escaped = []
		for (const b of raw) {
			if (b === 0x3c) escaped.push(...Buffer.from('&lt;'))
			else if (b === 0x26) escaped.push(...Buffer.from('&amp;'))
			else escaped.push(b)
		}
		return Buffer.concat([
			Buffer.from('<fixture-data>\n'),
			Buffer.from(escaped),
			Buffer.from('\n</fixture-data>'),
		])
	},
})
