// Streaming throughput: MB/s of content through `client.stream()` next to a bare read of the very
// same SSE bytes (decode, split the events with eventsource-parser, JSON.parse each, join the
// content): what any streaming client pays. The answers are long: prose, reasoning, or a call's
// arguments, each in small deltas of a few characters as models send them, in network-sized reads.
// Ours also scans every read for think markers, markup and a call in content, previews the call,
// yields an event per delta to a consumer, and repairs, validates and runs the call at the end.
// For scale it also times the bare read handing each delta to a `for await` loop, as any streaming
// API that yields deltas must (no budget: it shows what the events alone cost).
// Budget: ours ≤ 1.3 × the bare read, the median of interleaved rounds (in one run). Sixty-one rounds
// of 100 kB, not nine of 1 MB: the runs a ratio compares are tens of milliseconds apart rather than
// half a second, and on a shared machine nine rounds' ratios spanned 0.79–2.37 for unchanged code.
import { createParser } from 'eventsource-parser'
import { z } from 'zod'
import * as sdk from '../packages/sdk/dist/index.js'
import { loadBaseline } from './_baseline.mjs'
import { describeRounds, median } from './_compare.mjs'

const BUDGET = 1.3
const CONTENT_BYTES = 100_000
const DELTA = 6
const READ_BYTES = 16_384
const ROUNDS = 61

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

/** The floor: decode, split, parse, join. With `yieldDeltas`, each delta also reaches a `for await` loop. */
async function bare(reads, yieldDeltas = false) {
  const reader = respond(reads).body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  const queue = []
  let wake
  let closed = false
  const parser = createParser({
    onEvent: ({ data }) => {
      if (data === '[DONE]') return
      const delta = JSON.parse(data).choices[0]?.delta
      const piece = delta?.content ?? delta?.reasoning_content ?? delta?.tool_calls?.[0]?.function?.arguments
      if (!piece) return
      text += piece
      if (yieldDeltas) {
        queue.push({ type: 'text', delta: piece })
        wake?.()
      }
    },
  })
  const read = (async () => {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      parser.feed(decoder.decode(value, { stream: true }))
    }
    closed = true
    wake?.()
  })()
  if (yieldDeltas) {
    let head = 0
    const deltas = {
      [Symbol.asyncIterator]: () => ({
        async next() {
          for (;;) {
            if (head < queue.length) return { done: false, value: queue[head++] }
            if (closed) return { done: true, value: undefined }
            await new Promise((resolve) => (wake = resolve))
            wake = undefined
          }
        },
      }),
    }
    for await (const _delta of deltas);
  }
  await read
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
  await bare(reads, true)
  if (baseline) await ours(reads, builds[1])
  // Interleaved rounds, the order turning each round; each ratio is the median of its rounds.
  const tasks = [['bare', () => bare(reads)], ['ours', () => ours(reads)], ['yielding', () => bare(reads, true)], ...(baseline ? [['base', () => ours(reads, builds[1])]] : [])]
  const rounds = []
  for (let round = 0; round < ROUNDS; round++) {
    const times = {}
    for (let turn = 0; turn < tasks.length; turn++) {
      const [task, run] = tasks[(turn + round) % tasks.length]
      times[task] = await time(run)
    }
    rounds.push(times)
  }
  const ratioOf = (task, to = 'bare') => median(rounds.map((times) => times[task] / times[to]))
  const ms = (task) => median(rounds.map((times) => times[task]))
  const ratio = ratioOf('ours')
  worst = Math.max(worst, ratio)
  const mbps = (time) => (CONTENT_BYTES / 1e6 / (time / 1000)).toFixed(1)
  console.log(`${name}: ${(CONTENT_BYTES / 1e6).toFixed(1)} MB of content in ${events.length.toLocaleString('en')} deltas (${(size / 1e6).toFixed(1)} MB of SSE)`)
  console.log(`  stream(): ${ms('ours').toFixed(0)} ms = ${mbps(ms('ours'))} MB/s of content; bare SSE read: ${ms('bare').toFixed(0)} ms = ${mbps(ms('bare'))} MB/s; ratio ${ratio.toFixed(2)} (${describeRounds(rounds.map((times) => times.ours / times.bare))})`)
  console.log(`  the bare read yielding each delta to a for-await loop: ${ratioOf('yielding').toFixed(2)}× the bare read`)
  if (baseline) console.log(`  baseline ${baseline.label}: ${ms('base').toFixed(0)} ms, ratio ${ratioOf('base').toFixed(2)}; this build / baseline: ${ratioOf('ours', 'base').toFixed(2)}×`)
}
console.log(`worst ratio: ${worst.toFixed(2)} (budget ≤ ${BUDGET})`)
if (worst > BUDGET) {
  console.error('over budget')
  process.exit(1)
}
