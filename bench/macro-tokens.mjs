// Tokens (o200k, gpt-tokenizer) of the `tools` array a macro tool of 8 browser actions puts in every
// request, next to the seed's packing of the same actions. Budget: ours ≤ 0.75 × the seed's.
// Ours is captured from a real request body (createClient with an injected fetch), not rebuilt here.
import { encode } from 'gpt-tokenizer/encoding/o200k_base'
import { z } from 'zod'
import { createClient, createMacroTool, defineTool } from '../packages/sdk/dist/index.js'

const BUDGET = 0.75
const index = () => z.number().int().min(0).describe('Element index from the page state')
const actions = {
  done: ['Finish the task and report the result to the user', z.object({ text: z.string().describe('Final answer for the user'), success: z.boolean().default(true) })],
  wait: ['Wait for the page to settle before the next action', z.object({ seconds: z.number().int().min(0).max(60).default(3) })],
  ask_user: ['Ask the user a question when the task is ambiguous', z.object({ question: z.string() })],
  click_element_by_index: ['Click the element with this index', z.object({ index: index(), while_holding_ctrl: z.boolean().default(false) })],
  input_text: ['Type text into the input element with this index', z.object({ index: index(), text: z.string(), clear: z.boolean().default(true) })],
  select_dropdown_option: ['Select the option with this text in the dropdown with this index', z.object({ index: index(), text: z.string() })],
  scroll: ['Scroll the page, or the element with this index, vertically', z.object({ down: z.boolean().default(true), num_pages: z.number().min(0.1).max(10).default(1), index: z.number().int().min(0).optional() })],
  scroll_horizontally: ['Scroll the page, or the element with this index, horizontally', z.object({ right: z.boolean().default(true), pixels: z.number().int().min(1).max(5000).default(300), index: z.number().int().min(0).optional() })],
}

// The seed's packing: one wrapper object per action, a union, three optional reflection strings.
const seedSchema = z.object({
  evaluation_previous_goal: z.string().optional(),
  memory: z.string().optional(),
  next_goal: z.string().optional(),
  action: z.union(Object.entries(actions).map(([name, [description, schema]]) => z.object({ [name]: schema }).describe(description))),
})
const seedTools = [{ type: 'function', function: { name: 'AgentOutput', parameters: z.toJSONSchema(seedSchema, { target: 'openapi-3.0' }) } }]

const tools = Object.fromEntries(Object.entries(actions).map(([name, [description, inputSchema]]) => [name, defineTool({ description, inputSchema })]))
const AgentOutput = createMacroTool(tools)
let sent
const client = createClient({
  baseURL: 'http://127.0.0.1:9/v1',
  model: 'gpt-4.1-mini',
  maxRetries: 0,
  customFetch: async (_url, init) => {
    sent = JSON.parse(init.body)
    const args = JSON.stringify({ action: { wait: {} } })
    const body = { choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'AgentOutput', arguments: args } }] } }] }
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })
  },
})
await client.invoke([{ role: 'user', content: 'go' }], { AgentOutput }, { toolChoiceName: 'AgentOutput' })

const ours = encode(JSON.stringify(sent.tools)).length
const seed = encode(JSON.stringify(seedTools)).length
const ratio = ours / seed
console.log(`macro tool schema, 8 browser actions (o200k tokens of the tools array)`)
console.log(`  seed packing   ${String(seed).padStart(5)} tokens`)
console.log(`  wildcall       ${String(ours).padStart(5)} tokens`)
console.log(`  ratio          ${ratio.toFixed(3)} (budget ≤ ${BUDGET})  ${ratio <= BUDGET ? 'ok' : 'OVER BUDGET'}`)
if (process.argv.includes('--print')) console.log(JSON.stringify(sent.tools))
if (ratio > BUDGET) process.exit(1)
