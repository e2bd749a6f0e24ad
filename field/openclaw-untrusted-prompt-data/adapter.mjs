// Field adapter: `wrapUntrustedPromptDataBlock` from openclaw 2026.9.6 (npm, MIT).
//
// OpenClaw frames operator- or user-supplied text that it puts into its own
// instructions (for example a custom compaction policy) with
// `wrapUntrustedPromptDataBlock({ label, text })`: a label line saying the
// block is data, `<untrusted-text>`, the text, `</untrusted-text>`. The text
// is trimmed, control and format characters are removed line by line, and
// `<` and `>` become `&lt;` and `&gt;` (`&` stays); text that is empty after
// trimming gives an empty string. Called with a fixed label and no length
// limit. No reader, attributes, provenance or kind.
//
// The function lives in the bundle chunk `dist/sanitize-for-prompt-bzCyHFCH.mjs`
// (which imports one sibling chunk); its export is checked by name.
import { serve } from '../../adapters/node/framecheck-adapter.mjs'
import { importFrom, pinnedPackage } from '../fieldpin.mjs'

const dir = pinnedPackage('openclaw', '2026.9.6')
const chunk = await importFrom(dir, 'dist/sanitize-for-prompt-bzCyHFCH.mjs')
const wrapUntrustedPromptDataBlock = chunk.i
if (typeof wrapUntrustedPromptDataBlock !== 'function' || wrapUntrustedPromptDataBlock.name !== 'wrapUntrustedPromptDataBlock') {
	process.stderr.write('openclaw 2026.9.6: dist/sanitize-for-prompt-bzCyHFCH.mjs export `i` is not wrapUntrustedPromptDataBlock\n')
	process.exit(3)
}

serve({
	wrap: (content) => wrapUntrustedPromptDataBlock({ label: 'Operator note', text: content }),
})
