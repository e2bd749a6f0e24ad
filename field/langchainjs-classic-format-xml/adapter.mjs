// Field adapter: `formatXml` from @langchain/classic 1.0.50 (npm, MIT).
//
// `formatXml(intermediateSteps)` renders an XML agent's scratchpad: per step
// `<tool>…</tool><tool_input>…\n</tool_input><observation>…</observation>`,
// with nothing escaped. The untrusted part is the observation (the tool's
// output), so one step is passed with the content as its observation and a
// fixed tool name and input; the function has no attributes, provenance or
// kind, and no reader. The module is the package's own export
// `@langchain/classic/agents/format_scratchpad/xml` (import condition),
// loaded by its path in the unpacked registry tarball.
import { serve } from '../../adapters/node/framecheck-adapter.mjs'
import { importFrom, pinnedPackage } from '../fieldpin.mjs'

const dir = pinnedPackage('@langchain/classic', '1.0.50')
const { formatXml } = await importFrom(dir, 'dist/agents/format_scratchpad/xml.js')

const action = { tool: 'search', toolInput: 'framecheck query', log: '' }

serve({ wrap: (content) => formatXml([{ action, observation: content }]) })
