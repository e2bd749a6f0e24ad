// Field adapter: `wrapExternalContent` from openclaw 2026.9.6 (npm, MIT).
//
// OpenClaw wraps email, webhook and web content for its agents with
// `wrapExternalContent(content, { source, sender, subject, taskName,
// includeWarning })`: a fixed security notice, then
// `<<<EXTERNAL_UNTRUSTED_CONTENT id="<16 hex>">>>`, metadata lines
// (`Source:`, `From:`, `Subject:`), a `---` line, the sanitised content, and
// `<<<END_EXTERNAL_UNTRUSTED_CONTENT id="<same>">>>`. Called with
// `source: "email"` (its documented example), the request's provenance as
// `sender` and its `subject` attribute as `subject`; `includeWarning` at its
// default. The function writes the `From:` and `Subject:` lines only for a
// non-empty value, which framecheck's layout allows for empty fields. No
// reader exists.
//
// The package exports the function as `openclaw/plugin-sdk/security-runtime`,
// a barrel that also loads file-system, SQLite and proxy modules with about
// fifty dependencies. The function itself lives in the bundle chunk the barrel
// re-exports it from, which imports only two sibling chunks; that chunk is
// loaded directly, and its export is checked to be the function by name.
import { serve } from '../../adapters/node/framecheck-adapter.mjs'
import { importFrom, pinnedPackage } from '../fieldpin.mjs'

const dir = pinnedPackage('openclaw', '2026.9.6')
const chunk = await importFrom(dir, 'dist/external-content-CLufk6dK.mjs')
const wrapExternalContent = chunk.a
if (typeof wrapExternalContent !== 'function' || wrapExternalContent.name !== 'wrapExternalContent') {
	process.stderr.write('openclaw 2026.9.6: dist/external-content-CLufk6dK.mjs export `a` is not wrapExternalContent\n')
	process.exit(3)
}

serve({
	wrap: (content, { provenance, attributes }) =>
		wrapExternalContent(content, { source: 'email', sender: provenance, subject: attributes.subject }),
})
