// Field adapter: the `open_nodes` tool of @modelcontextprotocol/server-memory
// 2026.8.31 (npm, MIT), the reference knowledge-graph MCP server.
//
// The server is a store: untrusted text enters through its own write tool
// (`create_entities`, an observation of an entity) and comes back to the model
// through a read tool (`open_nodes`), whose one text part is
// `JSON.stringify({ entities, relations }, null, 2)`: the content is a string
// value at `entities[0].observations[0]` of a JSON document. The adapter is an
// MCP client of the published server, started once over stdio with its memory
// file in a fresh temporary directory; each wrap plants one entity, opens it
// and deletes it again, so every case starts from an empty store and reads
// only its own item, and the same content always gives the same output. No attributes, provenance or kind; no reader.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serve } from '../../adapters/node/framecheck-adapter.mjs'
import { importFrom, pinDir, pinnedPackage } from '../fieldpin.mjs'

const dir = pinnedPackage('@modelcontextprotocol/server-memory', '2026.8.31')
const sdk = join(pinDir('@modelcontextprotocol/server-memory', '2026.8.31'), 'node_modules', '@modelcontextprotocol', 'sdk')
const { Client } = await importFrom(sdk, 'dist/esm/client/index.js')
const { StdioClientTransport } = await importFrom(sdk, 'dist/esm/client/stdio.js')

const store = mkdtempSync(join(tmpdir(), 'framecheck-memory-'))
const transport = new StdioClientTransport({
	command: process.execPath,
	args: [join(dir, 'dist', 'index.js')],
	env: { ...process.env, MEMORY_FILE_PATH: join(store, 'memory.jsonl') },
	stderr: 'ignore',
})
const client = new Client({ name: 'framecheck-field-scout', version: '0.0.0' })
await client.connect(transport)

const name = 'document'

/** The one text part of a tool result; anything else is a bug here, not a refusal. */
function onlyText(result, tool) {
	const parts = result.content ?? []
	if (result.isError || parts.length !== 1 || parts[0].type !== 'text') {
		throw new Error(`${tool} answered ${JSON.stringify(result).slice(0, 300)}`)
	}
	return parts[0].text
}

async function wrap(content) {
	const created = await client.callTool({
		name: 'create_entities',
		arguments: { entities: [{ name, entityType: 'document', observations: [content] }] },
	})
	onlyText(created, 'create_entities')
	const opened = await client.callTool({ name: 'open_nodes', arguments: { names: [name] } })
	const framed = onlyText(opened, 'open_nodes')
	onlyText(await client.callTool({ name: 'delete_entities', arguments: { entityNames: [name] } }), 'delete_entities')
	return framed
}

await serve({ wrap })
// The server child keeps the event loop alive: stop it when the harness closes stdin.
await client.close()
rmSync(store, { recursive: true, force: true })
