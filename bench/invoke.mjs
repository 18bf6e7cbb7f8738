// CPU cost of one invoke (in-memory transport, the 8-action macro tool) next to the floor: what any
// client must do — serialise the request, read the Response, parse and validate the arguments.
// The baseline build (the commit this branch left main at, see _baseline.mjs) runs in the same rounds.
// Budget: ≤ 1.2 × the floor.
import * as sdk from '../packages/sdk/dist/index.js'
import { browserActions, messages } from './_browser-actions.mjs'
import { loadBaseline } from './_baseline.mjs'
import { compareToFloor, describeBase, describeRounds } from './_compare.mjs'

const BUDGET = 1.2
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

/** One clean step of a build, and the body it sends (captured once). */
async function stepOf({ createClient, createMacroTool, defineTool }) {
  const AgentOutput = createMacroTool(browserActions(defineTool))
  const tools = { AgentOutput }
  const client = createClient({ baseURL: 'http://127.0.0.1:1/v1', model: 'gpt-4.1-mini', apiKey: 'sk-bench', customFetch })
  let sentBody
  client.events.on('request', ({ body }) => (sentBody ??= body))
  const first = await client.invoke(messages, tools, { toolChoiceName: 'AgentOutput' })
  if (first.toolCall.args.action.click_element_by_index.index !== 3) throw new Error('bench sanity check failed')
  client.events.all.clear()
  return { AgentOutput, sentBody, step: () => client.invoke(messages, tools, { toolChoiceName: 'AgentOutput' }) }
}

const ours = await stepOf(sdk)
const baseline = await loadBaseline()
const base = baseline && (await stepOf(baseline.sdk))

// The floor sends the very body our client sends, so both serialise the same bytes.
const { AgentOutput, sentBody } = ours
async function floor() {
  const payload = JSON.stringify(sentBody)
  const response = await customFetch('http://127.0.0.1:1/v1/chat/completions', { method: 'POST', body: payload })
  const body = JSON.parse(await response.text())
  const parsed = JSON.parse(body.choices[0].message.tool_calls[0].function.arguments)
  const result = AgentOutput.inputSchema['~standard'].validate(parsed)
  if (result.issues) throw new Error('invalid')
}

const compared = await compareToFloor(floor, ours.step, { base: base?.step })
const { floorMs, oursMs, ratio, ratios } = compared
console.log(`floor  (serialise + read + parse + validate): ${(floorMs * 1000).toFixed(1)} µs/op`)
console.log(`invoke (whole pipeline, in-memory transport):  ${(oursMs * 1000).toFixed(1)} µs/op`)
console.log(`ratio invoke/floor: ${ratio.toFixed(2)}× ${describeRounds(ratios)} (budget ≤ ${BUDGET}×) ${ratio <= BUDGET ? 'OK' : 'OVER BUDGET'}`)
console.log(describeBase(baseline?.label, compared))
if (ratio > BUDGET) process.exitCode = 1
