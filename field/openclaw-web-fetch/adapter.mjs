// Field adapter: `wrapWebContent` from openclaw 2026.9.6 (npm, MIT).
//
// OpenClaw's wrapper for the text its web tools return:
// `wrapWebContent(content, source)` calls `wrapExternalContent` with that
// source, and with the security notice only for `web_fetch`. Called with
// `"web_fetch"`: the notice, `<<<EXTERNAL_UNTRUSTED_CONTENT id="<16 hex>">>>`,
// `Source: Web Fetch`, `---`, the sanitised content, and the closing marker
// with the same id. No reader, attributes, provenance or kind.
//
// The function lives in the bundle chunk `dist/external-content-CLufk6dK.mjs`
// (see ../openclaw-external-content/adapter.mjs); its export is checked by name.
import { serve } from '../../adapters/node/framecheck-adapter.mjs'
import { importFrom, pinnedPackage } from '../fieldpin.mjs'

const dir = pinnedPackage('openclaw', '2026.9.6')
const chunk = await importFrom(dir, 'dist/external-content-CLufk6dK.mjs')
const wrapWebContent = chunk.o
if (typeof wrapWebContent !== 'function' || wrapWebContent.name !== 'wrapWebContent') {
	process.stderr.write('openclaw 2026.9.6: dist/external-content-CLufk6dK.mjs export `o` is not wrapWebContent\n')
	process.exit(3)
}

serve({ wrap: (content) => wrapWebContent(content, 'web_fetch') })
