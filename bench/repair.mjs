// Cost of the repair layer. (1) A clean response: repairToolCall next to the floor any client pays
// (JSON.parse of the arguments + validation); budget ≤ 1.5×. (2) Messy responses that need repair.
// (3) Large content: 1 MB of prose with one call at the end, and 200,000 `{` (linear, not quadratic).
import { Bench } from 'tinybench'
import { createMacroTool, defineTool, repairToolCall } from '../packages/sdk/dist/index.js'
import { browserActions } from './_browser-actions.mjs'
import { compareToFloor, describeRounds } from './_compare.mjs'

const BUDGET = 1.5
const AgentOutput = createMacroTool(browserActions(defineTool))
const tools = { AgentOutput }
const options = { toolChoiceName: 'AgentOutput' }
const args = JSON.stringify({
  evaluation_previous_goal: 'Typed the query into the search box.',
  memory: 'Looking for the blue kettle price.',
  next_goal: 'Click the search button.',
  action: { click_element_by_index: { index: 3 } },
})
const clean = { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'AgentOutput', arguments: args } }] }
const validate = AgentOutput.inputSchema['~standard'].validate

function floor() {
  const result = validate(JSON.parse(clean.tool_calls[0].function.arguments))
  if (result.issues) throw new Error('invalid')
}
function ours() {
  repairToolCall(clean, tools, options)
}
if (repairToolCall(clean, tools, options).fixes.length !== 0) throw new Error('bench sanity check failed: the clean response needed repair')

const { floorMs, oursMs, ratio, ratios } = await compareToFloor(floor, ours)
console.log(`clean response, floor  (JSON.parse + validate): ${(floorMs * 1000).toFixed(2)} µs/op`)
console.log(`clean response, repairToolCall:                 ${(oursMs * 1000).toFixed(2)} µs/op`)
console.log(`ratio repair/floor: ${ratio.toFixed(2)}× ${describeRounds(ratios)} (budget ≤ ${BUDGET}×) ${ratio <= BUDGET ? 'OK' : 'OVER BUDGET'}`)
if (ratio > BUDGET) process.exitCode = 1

const messy = {
  'hermes markup after </think>': { role: 'assistant', content: `Let me click search.\n</think>\n\n<tool_call>\n{"name": "click_element_by_index", "arguments": {"index": "3"}}\n</tool_call>` },
  'double-encoded native': { role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'AgentOutput', arguments: JSON.stringify(args) } }] },
  'python literals in content': { role: 'assistant', content: `{'action': {'scroll': {'down': True, 'index': None}}}` },
}
const messyBench = new Bench({ time: 400, warmupTime: 100 })
for (const [name, message] of Object.entries(messy)) {
  repairToolCall(message, tools, options)
  messyBench.add(name, () => repairToolCall(message, tools, options))
}
await messyBench.run()
for (const task of messyBench.tasks) console.log(`repair, ${task.name.padEnd(28)} ${(task.result.latency.p50 * 1000).toFixed(1)} µs/op`)

function time(label, run) {
  const started = performance.now()
  let outcome
  try {
    outcome = `action ${Object.keys(run().toolCall.args.action)[0]}`
  } catch (error) {
    outcome = `${error.type ?? error.name}`
  }
  console.log(`${label}: ${(performance.now() - started).toFixed(1)} ms (${outcome})`)
}
const megabyte = `${'The page lists many products and prices. '.repeat(25_600)}`.slice(0, 1_048_576 - 40)
time('1 MB prose + a call at the end', () => repairToolCall({ role: 'assistant', content: `${megabyte}{"action":{"scroll":{"down":true}}}` }, tools, options))
time('1 MB prose, no call', () => repairToolCall({ role: 'assistant', content: `${megabyte}` }, tools, options))
time('200,000 "{"', () => repairToolCall({ role: 'assistant', content: '{'.repeat(200_000) }, tools, options))
time('1 MB JSON-ish noise {"a":[…', () => repairToolCall({ role: 'assistant', content: '{"a":['.repeat(174_762) }, tools, options))
if (ratio > BUDGET) process.exitCode = 1
