// What streaming buys an agent UI: a server streams one macro-tool call slowly (150 small chunks,
// 10 ms apart, over real HTTP on 127.0.0.1); we measure the time to the first `partial` event that
// carries reflection text, next to the time to the final, validated and executed result.
// Then the CPU side: one 1,000-chunk stream (in memory) next to the floor of any streaming client,
// to show the events, previews and assembly cost little (previews are throttled, not re-parsed per chunk).
// Budgets: first reflection ≤ 0.25 × the final result; the 1,000-chunk stream ≤ 1.5 × the floor, the
// median of interleaved rounds (1.36–1.44 measured on this 2-core machine; the aim is 1.3).
import { createClient, createMacroTool, defineTool } from '../packages/sdk/dist/index.js'
import { sseChunks, startScriptedServer } from '../packages/sdk/dist/testing/index.js'
import { createParser } from 'eventsource-parser'
import { browserActions, messages } from './_browser-actions.mjs'
import { loadBaseline } from './_baseline.mjs'
import { compareToFloor, describeRounds } from './_compare.mjs'

const REFLECTION_BUDGET = 0.25
const CPU_BUDGET = 1.5
const CHUNKS = 150
const GAP_MS = 10
const RUNS = 3

const AgentOutput = createMacroTool(browserActions(defineTool))
const tools = { AgentOutput }
const options = { toolChoiceName: 'AgentOutput' }
const args = {
  evaluation_previous_goal: 'Typed "blue kettle" into the search box; the suggestions list opened below it.',
  memory: 'Task: report the price of the blue kettle. Searched the shop; results not opened yet. 1 of 3 steps.',
  next_goal: 'Press the search button to list the results, then read the price next to the kettle.',
  action: { click_element_by_index: { index: 3 } },
}
const argsText = JSON.stringify(args)
const usage = { prompt_tokens: 900, completion_tokens: 120, total_tokens: 1020 }
const chunk = (delta, finish = null) => ({ id: 'chatcmpl-b', object: 'chat.completion.chunk', model: 'bench', choices: [{ index: 0, delta, finish_reason: finish }] })

function streamEvents(pieces) {
  const events = [chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'AgentOutput', arguments: '' } }] })]
  const cut = (piece) => Math.round((piece * argsText.length) / pieces)
  for (let piece = 0; piece < pieces; piece++) events.push(chunk({ tool_calls: [{ index: 0, function: { arguments: argsText.slice(cut(piece), cut(piece + 1)) } }] }))
  events.push(chunk({}, 'tool_calls'), { id: 'chatcmpl-b', choices: [], usage })
  return events
}

const hasReflection = (partial) =>
  typeof partial === 'object' && partial !== null && ['evaluation_previous_goal', 'memory', 'next_goal'].some((key) => typeof partial[key] === 'string' && partial[key].length > 0)

// 1. Latency over real HTTP.
const lines = sseChunks(streamEvents(CHUNKS))
const server = await startScriptedServer({ script: [{ chunks: lines.map((text, index) => ({ text, delayMs: index === 0 ? 0 : GAP_MS })) }] })
const client = createClient({ baseURL: server.url, model: 'gpt-4.1-mini' })
const samples = []
for (let run = 0; run < RUNS; run++) {
  const started = performance.now()
  const stream = client.stream(messages, tools, options)
  let firstReflection
  let firstText
  for await (const event of stream) {
    if (event.type === 'partial' && firstReflection === undefined && hasReflection(event.args)) {
      firstReflection = performance.now() - started
      firstText = JSON.stringify(event.args).slice(0, 70)
    }
  }
  const result = await stream.result
  const total = performance.now() - started
  if (result.toolCall.args.action.click_element_by_index?.index !== 3 || result.toolCall.args.memory !== args.memory) throw new Error('bench sanity check failed')
  if (firstReflection === undefined) throw new Error('no partial event carried reflection text')
  samples.push({ firstReflection, total, firstText })
}
await server.close()
samples.sort((a, b) => a.firstReflection / a.total - b.firstReflection / b.total)
const median = samples[Math.floor(samples.length / 2)]
const ratio = median.firstReflection / median.total
console.log(`stream of ${lines.length - 1} SSE events, ${GAP_MS} ms apart, ${argsText.length} bytes of arguments (median of ${RUNS} runs)`)
console.log(`  first partial with reflection text: ${median.firstReflection.toFixed(0)} ms   ${median.firstText}…`)
console.log(`  final result (validated, executed): ${median.total.toFixed(0)} ms`)
console.log(`  ratio: ${ratio.toFixed(3)} (budget ≤ ${REFLECTION_BUDGET})`)

// 2. CPU: a 1,000-chunk stream (in memory) next to the floor any streaming client pays for it —
// decode the bytes, split the SSE events (the same parser), JSON.parse each chunk, join the arguments,
// then parse and validate them once.
const manyLines = sseChunks(streamEvents(1_000))
const encoder = new TextEncoder()
const encodedLines = manyLines.map((line) => encoder.encode(line))
const streamFetch = async () =>
  new Response(
    new ReadableStream({
      start(controller) {
        for (const line of encodedLines) controller.enqueue(line)
        controller.close()
      },
    }),
    { headers: { 'content-type': 'text/event-stream' } },
  )
const streamClient = createClient({ baseURL: 'http://127.0.0.1:1/v1', model: 'gpt-4.1-mini', customFetch: streamFetch })
let partials = 0
async function ours() {
  const run = streamClient.stream(messages, tools, options)
  for await (const event of run) if (event.type === 'partial') partials++
  await run.result
}
// The same stream through the baseline build (the commit this branch left main at: _baseline.mjs).
const baseline = await loadBaseline()
const baseClient = baseline && baseline.sdk.createClient({ baseURL: 'http://127.0.0.1:1/v1', model: 'gpt-4.1-mini', customFetch: streamFetch })
const baseTools = baseline && { AgentOutput: baseline.sdk.createMacroTool(browserActions(baseline.sdk.defineTool)) }
async function base() {
  const run = baseClient.stream(messages, baseTools, options)
  for await (const _event of run);
  await run.result
}
async function floor() {
  const response = await streamFetch()
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  const parser = createParser({
    onEvent: ({ data }) => {
      if (data === '[DONE]') return
      const delta = JSON.parse(data).choices[0]?.delta
      const fragment = delta?.tool_calls?.[0]?.function?.arguments
      if (fragment) text += fragment
    },
  })
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    parser.feed(decoder.decode(value, { stream: true }))
  }
  const result = AgentOutput.inputSchema['~standard'].validate(JSON.parse(text))
  if (result.issues) throw new Error('invalid')
}
// The median of interleaved rounds (the order turning each round, as bench/invoke.mjs does).
const compared = await compareToFloor(floor, ours, { base: baseline ? base : undefined })
const cpuRatio = compared.ratio
partials = 0
await ours()
console.log(`1,000-chunk stream (in memory): ${compared.oursMs.toFixed(2)} ms with ${partials} partial events; floor: ${compared.floorMs.toFixed(2)} ms`)
console.log(`  ratio: ${cpuRatio.toFixed(2)} (budget ≤ ${CPU_BUDGET}), ${describeRounds(compared.ratios)}`)
console.log(baseline ? `  baseline ${baseline.label}: ${compared.baseMs.toFixed(2)} ms, ${compared.baseRatio.toFixed(2)}× the floor; this build / baseline: ${compared.oursToBase.toFixed(2)}×` : '  baseline: none (no git history to build one from)')

if (ratio > REFLECTION_BUDGET || cpuRatio > CPU_BUDGET) {
  console.error('over budget')
  process.exit(1)
}
