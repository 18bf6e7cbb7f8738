// A real MCP server, written with @modelcontextprotocol/sdk: a small notebook with three tools.
// Run directly (`node src/notes-server.js`) it serves over stdio, which is how main.js starts it.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { z } from 'zod'

/** The notebook server: `add_note`, `search_notes` and `delete_note`. */
export function createNotesServer() {
  const notes = []
  const server = new McpServer({ name: 'notes', version: '1.0.0' })
  server.registerTool(
    'add_note',
    {
      description: 'Save a note with a title, a body and tags',
      inputSchema: { title: z.string().min(1), body: z.string(), tags: z.array(z.string()).default([]) },
    },
    async ({ title, body, tags }) => {
      const note = { id: notes.length + 1, title, body, tags }
      notes.push(note)
      return { content: [{ type: 'text', text: `Saved note ${note.id}: "${title}"` }] }
    },
  )
  server.registerTool(
    'search_notes',
    {
      description: 'Find notes whose title, body or tags contain the query',
      inputSchema: { query: z.string(), limit: z.number().int().min(1).max(20).default(5) },
      outputSchema: { matches: z.array(z.object({ id: z.number(), title: z.string() })) },
    },
    async ({ query, limit }) => {
      const needle = query.toLowerCase()
      const matches = notes
        .filter((note) => [note.title, note.body, ...note.tags].some((text) => text.toLowerCase().includes(needle)))
        .slice(0, limit)
        .map(({ id, title }) => ({ id, title }))
      return { content: [{ type: 'text', text: JSON.stringify({ matches }) }], structuredContent: { matches } }
    },
  )
  server.registerTool(
    'delete_note',
    { description: 'Delete the note with this id', inputSchema: { id: z.number().int() } },
    async ({ id }) => {
      const index = notes.findIndex((note) => note.id === id)
      if (index === -1) return { content: [{ type: 'text', text: `There is no note ${id}.` }], isError: true }
      notes.splice(index, 1)
      return { content: [{ type: 'text', text: `Deleted note ${id}.` }] }
    },
  )
  return server
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await createNotesServer().connect(new StdioServerTransport())
}
