// Tokens (o200k, gpt-tokenizer) of the tools block prompt mode writes into the system message, next to
// the `tools` JSON native mode sends for the same tools: the 8-action macro tool, and the same 8
// actions as plain tools. Budget: the block ≤ 1.1 × the native `tools` JSON (issue 20).
// Both are captured from real request bodies (createClient with an injected fetch), not rebuilt here.
import { encode } from 'gpt-tokenizer/encoding/o200k_base'
import { createClient, createMacroTool, defineTool } from '../packages/sdk/dist/index.js'
import { browserActions } from './_browser-actions.mjs'

const BUDGET = 1.1
const actions = browserActions(defineTool)
const sets = [
  ['macro tool, 8 browser actions', { AgentOutput: createMacroTool(actions) }, 'AgentOutput'],
  ['plain tools, the same 8 actions', actions, undefined],
]

/** The body `toolMode` sends for `tools` (the answer is a call written as text, which both modes read). */
async function sentBody(toolMode, tools, toolChoiceName) {
  let sent
  const client = createClient({
    baseURL: 'http://127.0.0.1:9/v1',
    model: 'gemma-2-2b-it',
    toolMode,
    maxRetries: 0,
    customFetch: async (_url, init) => {
      sent = JSON.parse(init.body)
      const name = toolChoiceName ?? 'wait'
      const args = toolChoiceName ? { action: { wait: {} } } : {}
      const content = `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`
      const body = { choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }] }
      return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })
    },
  })
  await client.invoke([{ role: 'user', content: 'go' }], tools, toolChoiceName ? { toolChoiceName } : {})
  return sent
}

let over = false
console.log('tools block of prompt mode vs the `tools` JSON of native mode (o200k tokens)')
for (const [label, tools, toolChoiceName] of sets) {
  const native = encode(JSON.stringify((await sentBody('native', tools, toolChoiceName)).tools)).length
  const prompted = await sentBody('prompt', tools, toolChoiceName)
  const block = encode(prompted.messages[0].content).length
  const ratio = block / native
  over ||= ratio > BUDGET
  console.log(`  ${label}`)
  console.log(`    native tools   ${String(native).padStart(5)} tokens`)
  console.log(`    prompt block   ${String(block).padStart(5)} tokens`)
  console.log(`    ratio          ${ratio.toFixed(3)} (budget ≤ ${BUDGET})  ${ratio <= BUDGET ? 'ok' : 'OVER BUDGET'}`)
  if (process.argv.includes('--print')) console.log(prompted.messages[0].content)
}
if (over) process.exit(1)
