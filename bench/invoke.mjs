// CPU cost of one invoke (in-memory transport, the 8-action macro tool) next to the floor: what any
// client must do — serialise the request, read the Response, parse and validate the arguments.
import { createClient, createMacroTool, defineTool } from '../packages/sdk/dist/index.js'
import { browserActions, messages } from './_browser-actions.mjs'
import { compareToFloor } from './_compare.mjs'

const BUDGET = 1.5
const AgentOutput = createMacroTool(browserActions(defineTool))
const tools = { AgentOutput }
const args = {
  evaluation_previous_goal: 'Typed the query into the search box.',
  memory: 'Looking for the blue kettle price.',
  next_goal: 'Click the search button.',
  action: { click_element_by_index: { index: 3 } },
}
const responseText = JSON.stringify({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  model: 'gpt-4.1-mini',
  choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'AgentOutput', arguments: JSON.stringify(args) } }] } }],
  usage: { prompt_tokens: 900, completion_tokens: 60, total_tokens: 960 },
})
const customFetch = async () => new Response(responseText, { status: 200, headers: { 'content-type': 'application/json' } })
const client = createClient({ baseURL: 'http://127.0.0.1:1/v1', model: 'gpt-4.1-mini', apiKey: 'sk-bench', customFetch })

// The floor sends the very body our client sends (captured once), so both serialise the same bytes.
let sentBody
client.events.on('request', ({ body }) => (sentBody ??= body))
const first = await client.invoke(messages, tools, { toolChoiceName: 'AgentOutput' })
if (first.toolCall.args.action.click_element_by_index.index !== 3) throw new Error('bench sanity check failed')
client.events.all.clear()

async function floor() {
  const payload = JSON.stringify(sentBody)
  const response = await customFetch('http://127.0.0.1:1/v1/chat/completions', { method: 'POST', body: payload })
  const body = JSON.parse(await response.text())
  const parsed = JSON.parse(body.choices[0].message.tool_calls[0].function.arguments)
  const result = AgentOutput.inputSchema['~standard'].validate(parsed)
  if (result.issues) throw new Error('invalid')
}
async function ours() {
  await client.invoke(messages, tools, { toolChoiceName: 'AgentOutput' })
}

const { floorMs, oursMs, ratio, ratios } = await compareToFloor(floor, ours)
console.log(`floor  (serialise + read + parse + validate): ${(floorMs * 1000).toFixed(1)} µs/op`)
console.log(`invoke (whole pipeline, in-memory transport):  ${(oursMs * 1000).toFixed(1)} µs/op`)
console.log(`ratio invoke/floor: ${ratio.toFixed(2)}× median of ${ratios.length} rounds [${ratios.map((r) => r.toFixed(2)).join(' ')}] (budget ≤ ${BUDGET}×) ${ratio <= BUDGET ? 'OK' : 'OVER BUDGET'}`)
if (ratio > BUDGET) process.exitCode = 1
