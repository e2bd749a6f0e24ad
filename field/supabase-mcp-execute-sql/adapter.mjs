// Field adapter: the `execute_sql` result wrapper of @supabase/mcp-server-supabase
// 0.13.0 (npm, Apache-2.0).
//
// Supabase's MCP server returns SQL results to the model inside
// `<untrusted-data-<uuid>>` tags with a fresh random UUID per call, a
// sentence before the frame naming the tag and one after it, and the rows
// as `JSON.stringify(rows)` between the tags. The wrapper is an internal,
// unexported function of the package, so it is reached the way a client
// reaches it: the package's own `createSupabaseMcpServer` with a stand-in
// platform whose `database.executeSql` returns the request's content as the
// query result, connected to an MCP client over the SDK's in-memory
// transport, and the `execute_sql` tool called. The framed text is the
// tool's `result` field, as the server writes it; on the wire MCP then
// JSON-encodes that object once more, which this audit does not model.
// No attributes, provenance, kind or reader.
import { join } from 'node:path'
import { serve } from '../../adapters/node/framecheck-adapter.mjs'
import { importFrom, pinnedPackage } from '../fieldpin.mjs'

const supabase = pinnedPackage('@supabase/mcp-server-supabase', '0.13.0')
const modules = join(supabase, '..', '..')
const { createSupabaseMcpServer } = await importFrom(supabase, 'dist/index.js')
const { InMemoryTransport } = await importFrom(join(modules, '@modelcontextprotocol', 'server'), 'dist/index.mjs')
const { Client } = await importFrom(join(modules, '@modelcontextprotocol', 'client'), 'dist/index.mjs')

let rows = null
const unused = async () => {
	throw new Error('not used by execute_sql')
}
const platform = {
	database: {
		executeSql: async () => rows,
		listTables: unused,
		listExtensions: unused,
		listMigrations: unused,
		applyMigration: unused,
	},
}
const server = createSupabaseMcpServer({ platform, projectId: 'framecheck', features: ['database'], readOnly: true })
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
await server.connect(serverSide)
const client = new Client({ name: 'framecheck-field', version: '1' })
await client.connect(clientSide)

async function wrap(content) {
	rows = content
	const reply = await client.callTool({ name: 'execute_sql', arguments: { query: 'select content' } })
	if (reply.isError) throw new Error(`execute_sql failed: ${JSON.stringify(reply.content)}`)
	return JSON.parse(reply.content[0].text).result
}

serve({ wrap })
