// Field adapter: `buildSafeExternalPrompt` from openclaw 2026.9.6 (npm, MIT).
//
// OpenClaw builds the prompt for a scheduled job or hook triggered by
// external content with `buildSafeExternalPrompt({ content, source, sender,
// subject, jobName, jobId, timestamp })`: a `Job ID: … | Received: …` line,
// a blank line, then `wrapExternalContent` with the warning (notice,
// `<<<EXTERNAL_UNTRUSTED_CONTENT id="…">>>`, `Source:`, `Task:`, `From:`,
// `Subject:` lines, `---`, the content, the closing marker). Called with
// `source: "webhook"`, fixed job name, id and timestamp, the request's
// provenance as `sender` and its `subject` attribute as `subject`. No reader
// or kind.
//
// The function lives in the bundle chunk `dist/external-content-CLufk6dK.mjs`
// (see ../openclaw-external-content/adapter.mjs); its export is checked by name.
import { serve } from '../../adapters/node/framecheck-adapter.mjs'
import { importFrom, pinnedPackage } from '../fieldpin.mjs'

const dir = pinnedPackage('openclaw', '2026.9.6')
const chunk = await importFrom(dir, 'dist/external-content-CLufk6dK.mjs')
const buildSafeExternalPrompt = chunk.t
if (typeof buildSafeExternalPrompt !== 'function' || buildSafeExternalPrompt.name !== 'buildSafeExternalPrompt') {
	process.stderr.write('openclaw 2026.9.6: dist/external-content-CLufk6dK.mjs export `t` is not buildSafeExternalPrompt\n')
	process.exit(3)
}

serve({
	wrap: (content, { provenance, attributes }) =>
		buildSafeExternalPrompt({
			content,
			source: 'webhook',
			sender: provenance,
			subject: attributes.subject,
			jobName: 'inbox-triage',
			jobId: 'job-1',
			timestamp: '2026-01-01T00:00:00Z',
		}),
})
