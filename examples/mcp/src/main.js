// The MCP example (`npm start` in this folder): an agent whose actions are the tools of a real MCP
// server (src/notes-server.js, started over stdio), chosen through wildcall's macro tool.
//
// The "model" is a SCRIPTED local server on 127.0.0.1 that replays replies written by hand in the
// shapes real models send. It is not a model. Set WILDCALL_BASE_URL and WILDCALL_MODEL (and
// WILDCALL_API_KEY) to drive a real OpenAI-compatible endpoint instead.
import { createClient } from '@wildcall/sdk'
import { startScriptedServer } from '@wildcall/sdk/testing'
import { runNotesAgent } from './run-notes-agent.js'
import { script, scriptedReplies } from './scripted-model.js'

const TASK = 'Save a note about the planning meeting (ship the MCP bridge on Friday), check it can be found, then tidy up note 42.'

let server
let client
if (process.env.WILDCALL_BASE_URL && process.env.WILDCALL_MODEL) {
  client = createClient({ baseURL: process.env.WILDCALL_BASE_URL, model: process.env.WILDCALL_MODEL, apiKey: process.env.WILDCALL_API_KEY })
  console.log(`Endpoint: ${process.env.WILDCALL_BASE_URL} (model ${process.env.WILDCALL_MODEL})`)
} else {
  server = await startScriptedServer({ script })
  client = createClient({ baseURL: server.url, model: 'scripted-demo', retry: 0 })
  console.log(`Endpoint: ${server.url} — a SCRIPTED local server (NOT a model) replaying:`)
  for (const [index, entry] of scriptedReplies.entries()) console.log(`  reply ${index + 1}: ${entry.note}`)
}
console.log('')
try {
  const { answer, steps } = await runNotesAgent({ client, task: TASK, log: (line) => console.log(line) })
  console.log(`\nanswer: ${answer ?? '(none)'}\nsteps: ${steps.length}`)
  process.exitCode = answer === undefined ? 1 : 0
} finally {
  await server?.close()
}
