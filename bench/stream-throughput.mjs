// Streaming throughput: MB/s of content through `client.stream()` next to a bare read of the very
// same SSE bytes (decode, split the events with eventsource-parser, JSON.parse each, join the
// content): what any streaming client pays. The answers are long: prose, reasoning, or a call's
// arguments, each in small deltas of a few characters as models send them, in network-sized reads.
// Ours also scans every delta for think markers, markup and a call in content, previews the call,
// yields an event per delta to a consumer, and repairs, validates and runs the call at the end.
// Budget: ours ≤ 1.5 × the bare read (best of interleaved rounds, in one run).
import { createParser } from 'eventsource-parser'
import { z } from 'zod'
import * as sdk from '../packages/sdk/dist/index.js'
import { loadBaseline } from './_baseline.mjs'

const BUDGET = 1.5
const CONTENT_BYTES = 1_000_000
const DELTA = 6
const READ_BYTES = 16_384
const ROUNDS = 5

const toolsOf = ({ defineTool }) => ({ done: defineTool({ description: 'Finish', inputSchema: z.object({ text: z.string() }), execute: async ({ text }) => text.length }) })
// The baseline build (the commit this branch left main at: _baseline.mjs) streams the same bytes in the same rounds.
const baseline = await loadBaseline()
const builds = [[sdk, toolsOf(sdk)], ...(baseline ? [[baseline.sdk, toolsOf(baseline.sdk)]] : [])]
const messages = [{ role: 'user', content: 'Write it all down, then call done.' }]
const sentence = 'The kettle costs 12 € in the shop on the corner; the list says 14 €, so it is on sale.\n'
const prose = sentence.repeat(Math.ceil(CONTENT_BYTES / sentence.length)).slice(0, CONTENT_BYTES)

const chunk = (delta, finish = null) => `data: ${JSON.stringify({ id: 'chatcmpl-b', object: 'chat.completion.chunk', model: 'bench', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
const pieces = (text) => Array.from({ length: Math.ceil(text.length / DELTA) }, (_, index) => text.slice(index * DELTA, (index + 1) * DELTA))
const call = (args) => [chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'done', arguments: args } }] })]

const scenarios = {
  // A long answer in content, then the call as tool_calls.
  content: [...pieces(prose).map((content) => chunk({ content })), ...call('{"text": "ok"}')],
  // A reasoning model: long reasoning_content, then the call.
  reasoning: [...pieces(prose).map((reasoning_content) => chunk({ reasoning_content })), ...call('{"text": "ok"}')],
  // The call's own arguments are long (a report in one field), previewed as they come.
  arguments: [
    chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'done', arguments: '' } }] }),
    ...pieces(JSON.stringify({ text: prose })).map((args) => chunk({ tool_calls: [{ index: 0, function: { arguments: args } }] })),
  ],
}

const encoder = new TextEncoder()
function toReads(events) {
  const bytes = encoder.encode([...events, chunk({}, 'tool_calls'), 'data: [DONE]\n\n'].join(''))
  const reads = []
  for (let offset = 0; offset < bytes.length; offset += READ_BYTES) reads.push(bytes.subarray(offset, offset + READ_BYTES))
  return { reads, size: bytes.length }
}
const respond = (reads) =>
  new Response(
    new ReadableStream({
      start(controller) {
        for (const read of reads) controller.enqueue(read)
        controller.close()
      },
    }),
    { headers: { 'content-type': 'text/event-stream' } },
  )

async function bare(reads) {
  const reader = respond(reads).body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  const parser = createParser({
    onEvent: ({ data }) => {
      if (data === '[DONE]') return
      const delta = JSON.parse(data).choices[0]?.delta
      const piece = delta?.content ?? delta?.reasoning_content ?? delta?.tool_calls?.[0]?.function?.arguments
      if (piece) text += piece
    },
  })
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    parser.feed(decoder.decode(value, { stream: true }))
  }
  return text.length
}

async function ours(reads, [{ createClient }, tools] = builds[0]) {
  const client = createClient({ baseURL: 'http://127.0.0.1:1/v1', model: 'gpt-4.1-mini', customFetch: async () => respond(reads) })
  const run = client.stream(messages, tools, { toolChoiceName: 'done' })
  let events = 0
  for await (const _event of run) events++
  const result = await run.result
  return [events, result.toolResult]
}

async function time(task) {
  const started = performance.now()
  await task()
  return performance.now() - started
}

let worst = 0
for (const [name, events] of Object.entries(scenarios)) {
  const { reads, size } = toReads(events)
  const [count, output] = await ours(reads)
  if (count < events.length || output !== (name === 'arguments' ? prose.length : 2)) throw new Error(`bench sanity check failed (${name})`)
  await bare(reads)
  let bareMs = Infinity
  let oursMs = Infinity
  let baseMs = Infinity
  if (baseline) await ours(reads, builds[1])
  // Interleaved, best of the rounds, so drift on a shared machine hits all alike.
  for (let round = 0; round < ROUNDS; round++) {
    bareMs = Math.min(bareMs, await time(() => bare(reads)))
    oursMs = Math.min(oursMs, await time(() => ours(reads)))
    if (baseline) baseMs = Math.min(baseMs, await time(() => ours(reads, builds[1])))
  }
  const ratio = oursMs / bareMs
  worst = Math.max(worst, ratio)
  const mbps = (ms) => (CONTENT_BYTES / 1e6 / (ms / 1000)).toFixed(1)
  console.log(`${name}: ${(CONTENT_BYTES / 1e6).toFixed(1)} MB of content in ${events.length.toLocaleString('en')} deltas (${(size / 1e6).toFixed(1)} MB of SSE)`)
  console.log(`  stream(): ${oursMs.toFixed(0)} ms = ${mbps(oursMs)} MB/s of content; bare SSE read: ${bareMs.toFixed(0)} ms = ${mbps(bareMs)} MB/s; ratio ${ratio.toFixed(2)}`)
  if (baseline) console.log(`  baseline ${baseline.label}: ${baseMs.toFixed(0)} ms, ratio ${(baseMs / bareMs).toFixed(2)}; this build / baseline: ${(oursMs / baseMs).toFixed(2)}×`)
}
console.log(`worst ratio: ${worst.toFixed(2)} (budget ≤ ${BUDGET})`)
if (worst > BUDGET) {
  console.error('over budget')
  process.exit(1)
}
