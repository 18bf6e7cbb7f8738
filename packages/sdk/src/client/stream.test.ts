import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createClient, defineTool, isInvokeError, type Adapter, type ClientConfig, type InvokeResult, type StreamEvent } from '../index'
import { isAbortError } from '../errors/invoke-error'
import { sseChunks, startScriptedServer, toolCallResponse, type ScriptedReply, type ScriptedServer } from '../testing'
import type { ChatResponse, ChatStreamDelta, Usage } from '../types'
import { kimiK3 } from '../repair/__fixtures__/render-calls'

const AgentOutput = defineTool({
  description: 'Reflect, then act',
  inputSchema: z.object({
    evaluation_previous_goal: z.string().optional(),
    memory: z.string().optional(),
    next_goal: z.string().optional(),
    action: z.object({ click: z.object({ index: z.number().int() }) }),
  }),
  execute: async (input) => ({ input, output: `clicked ${input.action.click.index}` }),
})
const tools = { AgentOutput }
const options = { toolChoiceName: 'AgentOutput' } as const
const messages = [{ role: 'user', content: 'go' }]
const args = {
  evaluation_previous_goal: 'The form opened — “Weiter” is visible ✓',
  memory: 'Step 3 of 5: filled the name field.',
  next_goal: 'Press the submit button.',
  action: { click: { index: 12 } },
}
const argsText = JSON.stringify(args)
const usage = { prompt_tokens: 40, completion_tokens: 30, total_tokens: 70 }
const fastRetry = { limit: 2, baseDelayMs: 2, jitter: false }

const chunk = (delta: ChatStreamDelta, finish: string | null = null) => ({
  id: 'chatcmpl-s',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'scripted',
  choices: [{ index: 0, delta, finish_reason: finish }],
})
const usageChunk = { id: 'chatcmpl-s', object: 'chat.completion.chunk', choices: [], usage }

/** Splits `text` into 1–7 character pieces (a fixed pseudo-random sequence), some written after a 1 ms pause. */
function irregular(text: string, seed = 7): ScriptedReply['chunks'] {
  const pieces: NonNullable<ScriptedReply['chunks']> = []
  let state = seed
  for (let offset = 0; offset < text.length; ) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648
    const size = 1 + (state % 7)
    const piece = text.slice(offset, offset + size)
    pieces.push(state % 23 === 0 ? { text: piece, delayMs: 1 } : piece)
    offset += size
  }
  return pieces
}

/** SSE text of these events with `\r\n` line ends and a keep-alive comment, cut into irregular pieces. */
function streamOf(events: unknown[], { done = true, seed = 7 } = {}): ScriptedReply {
  const text = ': keep-alive\r\n\r\n' + sseChunks(events, { done }).join('').replace(/\n/g, '\r\n')
  return { chunks: irregular(text, seed) }
}

/** The events a server following OpenAI sends for one call whose arguments arrive in small pieces. */
function openaiEvents(text = argsText, { id = 'call_1', name = 'AgentOutput' } = {}) {
  const events: unknown[] = [chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: '' } }] })]
  for (let offset = 0; offset < text.length; offset += 5) events.push(chunk({ tool_calls: [{ index: 0, function: { arguments: text.slice(offset, offset + 5) } }] }))
  events.push(chunk({}, 'tool_calls'), usageChunk)
  return events
}

function finalResponse(message: Record<string, unknown>, finish: string | null = 'tool_calls'): ChatResponse {
  return { id: 'chatcmpl-f', object: 'chat.completion', created: 1, model: 'scripted', choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, finish_reason: finish }], usage }
}

type Outcome = { ok: true; toolCall: unknown; toolResult: unknown; fixes: string[]; usage: unknown } | { ok: false; type: string; message: string }

async function settle(promise: Promise<InvokeResult>): Promise<Outcome> {
  try {
    const result = await promise
    // An id generated for a call the model gave none differs between two runs of the same answer.
    const { id, ...call } = result.toolCall
    return { ok: true, toolCall: /^call_[0-9a-z]{18}$/.test(id) ? call : result.toolCall, toolResult: result.toolResult, fixes: result.fixes, usage: result.usage }
  } catch (error) {
    if (!isInvokeError(error)) throw error
    return { ok: false, type: error.type, message: error.message }
  }
}

async function collect(run: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = []
  for await (const event of run) events.push(event)
  return events
}

describe('client.stream', () => {
  let server: ScriptedServer
  const client = (extra: Partial<ClientConfig> = {}) => createClient({ baseURL: server.url, model: 'gpt-4.1-mini', retry: fastRetry, ...extra })

  /** Streams `reply`, then invokes against `final`: both outcomes, and the stream's events. */
  async function streamAndInvoke(reply: ScriptedReply, final: ChatResponse, extra: Partial<ClientConfig> = {}) {
    server.setScript([reply])
    const run = client(extra).stream(messages, tools, options)
    const [events, streamed] = await Promise.all([collect(run).catch((): StreamEvent[] => []), settle(run.result)])
    const streamRequest = server.requests[0]
    server.setScript([{ body: final }])
    const invoked = await settle(client(extra).invoke(messages, tools, options))
    return { events, streamed, invoked, streamRequest }
  }

  beforeAll(async () => {
    server = await startScriptedServer({ script: [] })
  })
  afterAll(() => server.close())

  it('should stream a call in irregular pieces and resolve with exactly what invoke returns', async () => {
    const final = finalResponse({ tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'AgentOutput', arguments: argsText } }] })
    const { events, streamed, invoked, streamRequest } = await streamAndInvoke(streamOf(openaiEvents()), final)
    expect(streamed).toEqual(invoked)
    expect(streamed).toMatchObject({ ok: true, toolCall: { id: 'call_1', name: 'AgentOutput', args }, toolResult: { output: 'clicked 12' } })
    expect(streamRequest!.body).toMatchObject({ stream: true, stream_options: { include_usage: true }, tool_choice: { type: 'function', function: { name: 'AgentOutput' } } })
    expect(events.filter((event) => event.type === 'arguments').map((event) => (event as { delta: string }).delta).join('')).toBe(argsText)
    const partials = events.filter((event): event is Extract<StreamEvent, { type: 'partial' }> => event.type === 'partial')
    // The reflection shows while it is written: a cut-off memory before the whole text is there.
    const growing = partials.find((event) => {
      const memory = (event.args as { memory?: string }).memory
      return memory !== undefined && memory.length > 0 && memory !== args.memory
    })
    expect(growing).toBeDefined()
    expect(args.memory.startsWith((growing!.args as { memory: string }).memory)).toBe(true)
    expect(partials.at(-1)).toMatchObject({ args, index: 0, name: 'AgentOutput' })
  })

  it('should assemble fragments without index: id and name only first, a new id starts another call', async () => {
    const events = [
      chunk({ tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'AgentOutput', arguments: argsText.slice(0, 30) } }] }),
      chunk({ tool_calls: [{ function: { arguments: argsText.slice(30) } }] }),
      chunk({ tool_calls: [{ id: 'call_b', function: { name: 'AgentOutput', arguments: '{"action": {"click": {"index": 1}}}' } }] }),
      chunk({}, 'tool_calls'),
      usageChunk,
    ]
    const final = finalResponse({
      tool_calls: [
        { id: 'call_a', type: 'function', function: { name: 'AgentOutput', arguments: argsText } },
        { id: 'call_b', type: 'function', function: { name: 'AgentOutput', arguments: '{"action": {"click": {"index": 1}}}' } },
      ],
    })
    const { streamed, invoked } = await streamAndInvoke(streamOf(events, { seed: 11 }), final)
    expect(streamed).toEqual(invoked)
    expect(streamed.ok).toBe(true)
  })

  it('should take the id and name from a later fragment, after the first argument bytes', async () => {
    const events = [
      chunk({ tool_calls: [{ index: 0, function: { arguments: argsText.slice(0, 8) } }] }),
      chunk({ tool_calls: [{ index: 0, id: 'call_late', function: { arguments: argsText.slice(8, 40) } }] }),
      chunk({ tool_calls: [{ index: 0, function: { name: 'AgentOutput', arguments: argsText.slice(40) } }] }),
      chunk({}, 'tool_calls'),
      usageChunk,
    ]
    const final = finalResponse({ tool_calls: [{ id: 'call_late', type: 'function', function: { name: 'AgentOutput', arguments: argsText } }] })
    const { streamed, invoked } = await streamAndInvoke(streamOf(events, { seed: 3 }), final)
    expect(streamed).toEqual(invoked)
    expect(streamed).toMatchObject({ ok: true, toolCall: { id: 'call_late', args } })
  })

  it('should treat a call whose name never came like invoke treats the same message', async () => {
    const events = [chunk({ tool_calls: [{ index: 0, function: { arguments: argsText } }] }), chunk({}, 'tool_calls'), usageChunk]
    const final = finalResponse({ tool_calls: [{ type: 'function', function: { name: '', arguments: argsText } }] })
    const { streamed, invoked } = await streamAndInvoke(streamOf(events, { seed: 5 }), final, { maxRetries: 0 })
    expect(streamed).toEqual(invoked)
  })

  it('should accept DashScope\'s closing fragment with arguments null and an empty id', async () => {
    const events = [
      chunk({ content: '', tool_calls: [{ index: 0, id: 'call_ds', type: 'function', function: { name: 'AgentOutput', arguments: '' } }] }),
      ...[0, 20, 50].map((start, i, starts) => chunk({ tool_calls: [{ index: 0, id: '', type: 'function', function: { name: '', arguments: argsText.slice(start, starts[i + 1]) } }] })),
      chunk({ tool_calls: [{ index: 0, id: '', type: 'function', function: { arguments: null } }] }, 'tool_calls'),
      { ...usageChunk, choices: [] },
    ]
    const final = finalResponse({ tool_calls: [{ id: 'call_ds', type: 'function', function: { name: 'AgentOutput', arguments: argsText } }] })
    const { streamed, invoked } = await streamAndInvoke(streamOf(events, { seed: 9 }), final)
    expect(streamed).toEqual(invoked)
    expect(streamed).toMatchObject({ ok: true, toolCall: { id: 'call_ds', args } })
  })

  it('should take arguments sent as an object in one fragment', async () => {
    const events = [chunk({ tool_calls: [{ index: 0, id: 'call_o', function: { name: 'AgentOutput', arguments: args } }] }, 'tool_calls'), usageChunk]
    const final = finalResponse({ tool_calls: [{ id: 'call_o', type: 'function', function: { name: 'AgentOutput', arguments: args } }] })
    const { streamed, invoked, events: seen } = await streamAndInvoke(streamOf(events), final)
    expect(streamed).toEqual(invoked)
    expect(seen).toContainEqual({ type: 'partial', args, index: 0, name: 'AgentOutput' })
  })

  it('should finish a stream without finish_reason, without usage and without [DONE]', async () => {
    const events = openaiEvents().slice(0, -2)
    const final = finalResponse({ tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'AgentOutput', arguments: argsText } }] }, null)
    delete final.usage
    const { streamed, invoked } = await streamAndInvoke(streamOf(events, { done: false }), final)
    expect(streamed).toEqual(invoked)
    expect(streamed).toMatchObject({ ok: true, usage: {} })
    expect((streamed as { usage: Usage }).usage.totalTokens).toBeUndefined()
  })

  it('should not lose a last event that the server closed without its blank line', async () => {
    const lines = sseChunks(openaiEvents(), { done: false })
    const last = lines.pop()!.trimEnd()
    server.setScript([{ chunks: [...lines, last] }])
    const result = await client().stream(messages, tools, options).result
    // The usage came only in that last event.
    expect(result.usage).toMatchObject({ promptTokens: 40, completionTokens: 30, totalTokens: 70 })
  })

  it('should stream reasoning_content and reasoning deltas and keep them in the message', async () => {
    const events = [
      chunk({ reasoning_content: 'The user wants ' }),
      chunk({ reasoning_content: 'a click.' }),
      chunk({ reasoning: ' Index 12.' }),
      ...openaiEvents(),
    ]
    const final = finalResponse({ reasoning_content: 'The user wants a click.', reasoning: ' Index 12.', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'AgentOutput', arguments: argsText } }] })
    const { streamed, invoked, events: seen } = await streamAndInvoke(streamOf(events), final)
    expect(streamed).toEqual(invoked)
    expect(seen.filter((event) => event.type === 'reasoning')).toEqual([
      { type: 'reasoning', delta: 'The user wants ' },
      { type: 'reasoning', delta: 'a click.' },
      { type: 'reasoning', delta: ' Index 12.' },
    ])
  })

  it('should hand a call written into content across many chunks to the same repair as invoke', async () => {
    const content = `<think>plan</think>\n<tool_call>{"name": "AgentOutput", "arguments": ${argsText}}</tool_call>`
    const events = [...content.match(/[\s\S]{1,4}/g)!.map((piece) => chunk({ content: piece })), chunk({}, 'stop'), usageChunk]
    const final = finalResponse({ content }, 'stop')
    const { streamed, invoked, events: seen } = await streamAndInvoke(streamOf(events), final, { maxRetries: 0 })
    expect(streamed).toEqual(invoked)
    expect(seen.filter((event) => event.type === 'text').map((event) => (event as { delta: string }).delta).join('')).toBe(content)
    // The reflection inside the <tool_call> envelope is previewed live too.
    const partials = seen.filter((event): event is Extract<StreamEvent, { type: 'partial' }> => event.type === 'partial')
    expect(partials.some((event) => typeof (event.args as { memory?: string }).memory === 'string' && (event.args as { memory: string }).memory !== args.memory)).toBe(true)
    expect(partials.at(-1)).toEqual({ type: 'partial', args, index: 0, name: 'AgentOutput' })
  })

  it('should preview the reflection of Qwen3-Coder markup in content before the result, which equals invoke\'s', async () => {
    const { action, ...reflection } = args
    const content = `<tool_call>\n<function=AgentOutput>\n${Object.entries(reflection).map(([key, value]) => `<parameter=${key}>\n${value}\n</parameter>\n`).join('')}<parameter=action>\n${JSON.stringify(action)}\n</parameter>\n</function>\n</tool_call>`
    const events = [...content.match(/[\s\S]{1,4}/g)!.map((piece) => chunk({ content: piece })), chunk({}, 'stop'), usageChunk]
    const sse = streamOf(events)
    // The server pauses before its last piece: a preview seen by then came before the result.
    sse.chunks!.splice(-1, 0, { text: '', delayMs: 40 })
    server.setScript([sse])
    const run = client({ maxRetries: 0 }).stream(messages, tools, options)
    let settled = false
    void run.result.finally(() => (settled = true)).catch(() => {})
    const partials: Extract<StreamEvent, { type: 'partial' }>[] = []
    const early: typeof partials = []
    for await (const event of run) {
      if (event.type !== 'partial') continue
      partials.push(event)
      if (!settled) early.push(event)
    }
    const streamed = await settle(run.result)
    server.setScript([{ body: finalResponse({ content }, 'stop') }])
    expect(streamed).toEqual(await settle(client({ maxRetries: 0 }).invoke(messages, tools, options)))
    expect(streamed).toMatchObject({ ok: true, toolCall: { name: 'AgentOutput', args }, toolResult: { output: 'clicked 12' } })
    const cutOff = early.find((event) => {
      const memory = (event.args as { memory?: string }).memory
      return memory !== undefined && memory !== '' && memory !== args.memory
    })
    expect(cutOff).toMatchObject({ index: 0, name: 'AgentOutput' })
    expect(args.memory.startsWith((cutOff!.args as { memory: string }).memory)).toBe(true)
    expect(partials.at(-1)).toEqual({ type: 'partial', args, index: 0, name: 'AgentOutput' })
  })

  it('should reject finish_reason length as output_truncated without retrying or executing', async () => {
    let executed = false
    const Tool = defineTool({ inputSchema: AgentOutput.inputSchema, execute: () => (executed = true) })
    server.setScript([streamOf([...openaiEvents().slice(0, -2), chunk({}, 'length')])])
    const outcome = await settle(client().stream(messages, { AgentOutput: Tool }, options).result)
    expect(outcome).toMatchObject({ ok: false, type: 'output_truncated' })
    expect(server.requests).toHaveLength(1)
    expect(executed).toBe(false)
  })

  it('should turn an error object mid-stream into the classified error', async () => {
    const error = { error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } }
    server.setScript([streamOf([...openaiEvents().slice(0, 4), error])])
    const run = client({ maxRetries: 0 }).stream(messages, tools, options)
    const outcome = await settle(run.result)
    expect(outcome).toMatchObject({ ok: false, type: 'rate_limit' })
    // Iterating alone sees the same failure thrown from the loop.
    await expect(collect(run)).rejects.toMatchObject({ type: 'rate_limit' })
  })

  it('should turn an `event: error` SSE event into the classified error', async () => {
    const text = sseChunks(openaiEvents().slice(0, 3), { done: false }).join('') + 'event: error\ndata: {"error": {"message": "Invalid API key", "code": 401}}\n\n'
    server.setScript([{ chunks: irregular(text) }])
    const outcome = await settle(client().stream(messages, tools, options).result)
    expect(outcome).toMatchObject({ ok: false, type: 'auth_error' })
    expect(server.requests).toHaveLength(1)
  })

  it('should redact a secret the stream sends, cut anywhere across two reads, from events, the call and an error', async () => {
    const KEY = 'sk-proj-0123456789abcdef'
    const bytes = (text: string) => new TextEncoder().encode(text)
    // Each piece one read of the body: the secret is cut between two of them.
    const fetchOf = (pieces: string[]) => async () =>
      new Response(new ReadableStream({ start: (controller) => (pieces.forEach((piece) => controller.enqueue(bytes(piece))), controller.close()) }), { headers: { 'content-type': 'text/event-stream' } })
    // Each event's data is redacted (a secret split between two deltas is two harmless pieces).
    const texts = [
      sseChunks([chunk({ content: `The key is ${KEY}, keep it. ` }), ...openaiEvents()]).join(''),
      sseChunks([chunk({ content: 'The key is hidden, keep it. ' }), ...openaiEvents(), { ...usageChunk, usage: { ...usage, note: `served for ${KEY}` } }]).join(''),
    ]
    for (const text of texts) {
      const at = text.indexOf(KEY)
      for (const cut of [at, at + 1, at + 12, at + KEY.length - 1, at + KEY.length]) {
        const run = createClient({ baseURL: 'http://127.0.0.1:1/v1', model: 'gpt-4.1-mini', apiKey: KEY, customFetch: fetchOf([text.slice(0, cut), text.slice(cut)]) }).stream(messages, tools, options)
        const [events, result] = await Promise.all([collect(run), run.result])
        expect(JSON.stringify(events), `cut at ${cut - at}`).not.toContain(KEY)
        expect(JSON.stringify(result.rawResponse), `cut at ${cut - at}`).not.toContain(KEY)
        expect(JSON.stringify(result.rawResponse)).toContain('[REDACTED]')
      }
    }
    const failing = sseChunks(openaiEvents().slice(0, 2), { done: false }).join('') + `event: error\ndata: {"error": {"message": "Invalid API key ${KEY}", "code": 401}}\n\n`
    const cut = failing.indexOf(KEY) + 5
    const error = await createClient({ baseURL: 'http://127.0.0.1:1/v1', model: 'gpt-4.1-mini', apiKey: KEY, maxRetries: 0, customFetch: fetchOf([failing.slice(0, cut), failing.slice(cut)]) })
      .stream(messages, tools, options)
      .result.catch((failure: unknown) => failure)
    expect(error).toMatchObject({ type: 'auth_error' })
    expect(JSON.stringify({ message: (error as Error).message, raw: (error as { rawResponse?: unknown }).rawResponse })).not.toContain(KEY)
    expect((error as Error).message).toContain('[REDACTED]')
  })

  it('should recover Groq\'s failed_generation like invoke, before the stream or as an error event in it', async () => {
    const groq = { error: { message: 'Failed to call a function. Please adjust your prompt.', type: 'invalid_request_error', code: 'tool_use_failed', failed_generation: `<tool_call>{"name": "AgentOutput", "arguments": ${argsText}}</tool_call>` } }
    server.setScript([{ status: 400, body: groq }])
    const invoked = await settle(client({ maxRetries: 0 }).invoke(messages, tools, options))
    const before = await settle(client({ maxRetries: 0 }).stream(messages, tools, options).result)
    server.setScript([{ chunks: [': OPENROUTER PROCESSING\n\n', ...sseChunks([chunk({ role: 'assistant', content: '' }), groq], { done: false })] }])
    const during = await settle(client({ maxRetries: 0 }).stream(messages, tools, options).result)
    expect(before).toEqual(invoked)
    expect(during).toEqual(invoked)
  })

  it('should handle a server that ignores stream: true and answers with JSON like invoke', async () => {
    const final = finalResponse({ reasoning_content: 'hmm', tool_calls: [{ id: 'call_j', type: 'function', function: { name: 'AgentOutput', arguments: argsText } }] })
    const { streamed, invoked, events } = await streamAndInvoke({ body: final }, final)
    expect(streamed).toEqual(invoked)
    expect(streamed.ok).toBe(true)
    expect(events).toContainEqual({ type: 'reasoning', delta: 'hmm' })
    expect(events).toContainEqual({ type: 'partial', args, index: 0, name: 'AgentOutput' })
  })

  it('should report an HTML page or an empty stream as invalid_response', async () => {
    server.setScript([{ body: '<html><title>502 Bad Gateway</title></html>' }])
    expect(await settle(client({ maxRetries: 0 }).stream(messages, tools, options).result)).toMatchObject({ ok: false, type: 'invalid_response' })
    server.setScript([{ chunks: [': keep-alive\n\n', '\n'] }])
    expect(await settle(client({ maxRetries: 0 }).stream(messages, tools, options).result)).toMatchObject({ ok: false, type: 'invalid_response' })
  })

  it('should retry a stream that breaks off mid-way, yielding reset before the new attempt', async () => {
    const text = sseChunks(openaiEvents()).join('')
    server.setScript([{ body: text, resetAfterBytes: 1_000 }, streamOf(openaiEvents())])
    const instance = client()
    const retries: number[] = []
    instance.events.on('retry', ({ attempt }) => retries.push(attempt))
    const run = instance.stream(messages, tools, options)
    const events = await collect(run)
    const result = await run.result
    expect(result).toMatchObject({ attempts: 2, toolCall: { args } })
    expect(retries).toEqual([1])
    const reset = events.findIndex((event) => event.type === 'reset')
    expect(reset).toBeGreaterThan(0)
    expect(events[reset]).toMatchObject({ type: 'reset', attempt: 1, error: { type: 'network_error' } })
    // What came after the reset is the whole second answer.
    const after = events.slice(reset + 1).filter((event) => event.type === 'arguments')
    expect(after.map((event) => (event as { delta: string }).delta).join('')).toBe(argsText)
  })

  it('should retry a failure before the first byte like invoke', async () => {
    server.setScript([{ status: 503, body: { error: { message: 'overloaded' } } }, streamOf(openaiEvents())])
    const run = client().stream(messages, tools, options)
    const events = await collect(run)
    expect((await run.result).attempts).toBe(2)
    expect(events[0]).toMatchObject({ type: 'reset', attempt: 1, error: { type: 'server_error' } })
  })

  it('should use timeoutMs as an idle timeout between chunks', async () => {
    const slow = openaiEvents().map((event) => ({ text: sseChunks([event], { done: false })[0]!, delayMs: 15 }))
    server.setScript([{ chunks: [...slow, 'data: [DONE]\n\n'] }])
    // The whole stream takes far longer than timeoutMs, but no gap does.
    const result = await client({ timeoutMs: 150 }).stream(messages, tools, options).result
    expect(result.toolCall.args).toEqual(args)
    server.setScript([{ chunks: [slow[0]!.text, { text: slow[1]!.text, delayMs: 3_000 }] }])
    const started = Date.now()
    const outcome = await settle(client({ timeoutMs: 80, maxRetries: 0 }).stream(messages, tools, options).result)
    expect(outcome).toMatchObject({ ok: false, type: 'timeout' })
    // Generous for a loaded machine, still far from the 3 s the server stays silent.
    expect(Date.now() - started).toBeLessThan(1_500)
  })

  it('should resolve result without anyone iterating, and iterate only once', async () => {
    server.setScript([streamOf(openaiEvents())])
    const run = client().stream(messages, tools, options)
    expect((await run.result).toolCall.args).toEqual(args)
    // Events were kept: iterating afterwards replays them.
    const events = await collect(run)
    expect(events.some((event) => event.type === 'partial')).toBe(true)
    expect(() => run[Symbol.asyncIterator]()).toThrow(/only once/)
  })

  it('should not raise an unhandled rejection when nobody awaits a failed result', async () => {
    server.setScript([{ status: 401, body: { error: { message: 'bad key' } } }])
    const instance = client()
    const errors: string[] = []
    instance.events.on('error', ({ error }) => errors.push(error.type))
    const run = instance.stream(messages, tools, options)
    await expect(collect(run)).rejects.toMatchObject({ type: 'auth_error' })
    expect(errors).toEqual(['auth_error'])
    // A config mistake goes the same way: through the run, not as a synchronous throw.
    const bad = instance.stream(messages, tools, { toolChoiceName: 'nope' as never }) // a caller without types
    await expect(bad.result).rejects.toMatchObject({ type: 'config_error' })
  })

  it('should let a consumer break early without stopping the step', async () => {
    server.setScript([streamOf(openaiEvents())])
    const run = client().stream(messages, tools, options)
    for await (const event of run) if (event.type === 'arguments') break
    expect((await run.result).toolCall.args).toEqual(args)
  })

  it('should answer next() calls made without awaiting the last, in order, and fail every waiting one', async () => {
    server.setScript([streamOf(openaiEvents())])
    const iterator = client().stream(messages, tools, options)[Symbol.asyncIterator]()
    // Three calls at once: each gets the next event, none is lost or repeated.
    const first = await Promise.all([iterator.next(), iterator.next(), iterator.next()])
    const rest: StreamEvent[] = []
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) rest.push(next.value)
    const replay = await collect(client().stream(messages, tools, options))
    expect([...first.map((next) => next.value), ...rest]).toEqual(replay)
    server.setScript([{ status: 401, body: { error: { message: 'bad key' } } }])
    const failing = client({ maxRetries: 0 }).stream(messages, tools, options)[Symbol.asyncIterator]()
    const waiting = await Promise.allSettled([failing.next(), failing.next()])
    expect(waiting.map((settled) => settled.status)).toEqual(['rejected', 'rejected'])
    expect(await failing.next()).toEqual({ done: true, value: undefined })
  })

  it('should stop at once on abort, reject with the caller\'s reason and release the connection', async () => {
    const slow = openaiEvents().map((event) => ({ text: sseChunks([event], { done: false })[0]!, delayMs: 40 }))
    server.setScript([{ chunks: slow }])
    const controller = new AbortController()
    const run = client().stream(messages, tools, { ...options, signal: controller.signal })
    const reason = new Error('user left')
    let abortedAt = 0
    const seen: StreamEvent[] = []
    const loop = (async () => {
      for await (const event of run) {
        seen.push(event)
        if (event.type === 'arguments' && !abortedAt) {
          abortedAt = Date.now()
          controller.abort(reason)
        }
      }
    })()
    await expect(run.result).rejects.toBe(reason)
    await expect(loop).rejects.toBe(reason)
    // The rest of the stream would take more than a second.
    expect(Date.now() - abortedAt).toBeLessThan(400)
    expect(seen.some((event) => event.type === 'reset')).toBe(false)
    expect(server.requests).toHaveLength(1)
  })

  it('should cancel the body reader on abort (injected fetch)', async () => {
    let cancelled = false
    const encoder = new TextEncoder()
    const customFetch = (async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            for (const line of sseChunks(openaiEvents().slice(0, 4), { done: false })) controller.enqueue(encoder.encode(line))
          },
          cancel() {
            cancelled = true
          },
        }),
        { headers: { 'content-type': 'text/event-stream' } },
      )) as typeof fetch
    const controller = new AbortController()
    const run = createClient({ baseURL: 'http://127.0.0.1:9/v1', model: 'm', customFetch }).stream(messages, tools, { ...options, signal: controller.signal })
    for await (const event of run) {
      if (event.type === 'arguments') break
    }
    controller.abort()
    const error = await run.result.catch((caught: unknown) => caught)
    expect(isAbortError(error)).toBe(true)
    expect(cancelled).toBe(true)
  })

  it('should run adapters\' fixChunk on each chunk, and report a throwing one as config_error', async () => {
    const thinking: Adapter = {
      name: 'thinking-field',
      match: () => true,
      fixChunk(chunk) {
        const delta = chunk.choices?.[0]?.delta
        if (delta && typeof delta.thinking === 'string') delta.reasoning_content = delta.thinking
      },
      patchRequest(body) {
        delete body.stream_options
      },
    }
    server.setScript([streamOf([chunk({ thinking: 'Let me see.' }), ...openaiEvents()])])
    const run = client({ adapters: [thinking] }).stream(messages, tools, options)
    const events = await collect(run)
    expect(events[0]).toEqual({ type: 'reasoning', delta: 'Let me see.' })
    expect((await run.result).toolCall.args).toEqual(args)
    expect(server.requests[0]!.body).not.toHaveProperty('stream_options')
    const broken: Adapter = { name: 'broken', match: () => true, fixChunk: () => { throw new Error('boom') } }
    server.setScript([streamOf(openaiEvents())])
    expect(await settle(client({ adapters: [broken] }).stream(messages, tools, options).result)).toMatchObject({ ok: false, type: 'config_error', message: expect.stringContaining('[broken] adapter hook fixChunk threw: boom') })
  })

  it('should give the same result as invoke for the toolCallResponse helper\'s body', async () => {
    const body = toolCallResponse('AgentOutput', args)
    const call = body.choices[0]!.message.tool_calls![0]!
    const events = openaiEvents(argsText, { id: call.id! })
    const { streamed, invoked } = await streamAndInvoke(streamOf(events, { seed: 13 }), { ...body, usage })
    expect(streamed).toEqual(invoked)
  })

  describe('invoke() given a streamed body', () => {
    it('should read events a server streamed to a plain request (stream-body), as the stream would', async () => {
      server.setScript([streamOf(openaiEvents())])
      const invoked = await settle(client({ maxRetries: 0 }).invoke(messages, tools, options))
      expect(server.requests.at(-1)!.body.stream).toBeUndefined()
      expect(invoked).toMatchObject({ ok: true, toolCall: { id: 'call_1', name: 'AgentOutput', args }, toolResult: { output: 'clicked 12' }, usage: { totalTokens: 70 } })
      expect((invoked as { fixes: string[] }).fixes).toEqual(['stream-body'])
    })

    it("should read chunks sent as JSON lines and run the adapters' fixChunk on them", async () => {
      const renamed: Adapter = { name: 'rename', match: () => true, fixChunk: (piece) => JSON.parse(JSON.stringify(piece).replace('"Agent_Output"', '"AgentOutput"')) }
      server.setScript([{ body: openaiEvents(argsText, { name: 'Agent_Output' }).map((event) => JSON.stringify(event)).join('\n') }])
      const invoked = await settle(client({ maxRetries: 0, adapters: [renamed] }).invoke(messages, tools, options))
      expect(invoked).toMatchObject({ ok: true, toolCall: { name: 'AgentOutput', args }, fixes: ['stream-body'] })
    })

    it('should classify an error event in a streamed body and never execute a cut call', async () => {
      const cut = sseChunks(openaiEvents().slice(0, 4), { done: false }).join('') + 'event: error\ndata: {"error": {"message": "Overloaded", "code": 529}}\n\n'
      server.setScript([{ chunks: [cut] }])
      const invoked = await settle(client({ maxRetries: 0 }).invoke(messages, tools, options))
      expect(invoked).toMatchObject({ ok: false, type: 'server_error' })
    })

    it('should read chunks sent as JSON lines to a streaming request too, as invoke does', async () => {
      server.setScript([{ body: openaiEvents().map((event) => JSON.stringify(event)).join('\n') }])
      const run = client({ maxRetries: 0 }).stream(messages, tools, options)
      const [events, streamed] = await Promise.all([collect(run), settle(run.result)])
      expect(streamed).toMatchObject({ ok: true, toolCall: { name: 'AgentOutput', args }, fixes: ['stream-body'] })
      expect(events.some((event) => event.type === 'partial')).toBe(true)
    })

    it('should still refuse a body that is neither JSON nor events', async () => {
      server.setScript([{ body: 'upstream connect error or disconnect/reset before headers' }])
      expect(await settle(client({ maxRetries: 0 }).invoke(messages, tools, options))).toMatchObject({ ok: false, type: 'invalid_response' })
    })
  })
})

describe('client.stream over bytes', () => {
  let http: Server
  let baseURL: string
  let body: Uint8Array
  beforeAll(async () => {
    // The scripted server writes text; this one writes raw bytes, so a piece can end inside a character.
    http = createServer(async (request, response) => {
      for await (const _ of request) void _
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      for (let offset = 0; offset < body.length; offset += 3) {
        response.write(body.subarray(offset, offset + 3))
        if (offset % 30 === 0) await new Promise((resolve) => setTimeout(resolve, 1))
      }
      response.end()
    })
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
    baseURL = `http://127.0.0.1:${(http.address() as AddressInfo).port}/v1`
  })
  afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())))

  it('should decode multibyte characters split across network reads', async () => {
    const memory = '日本語のテキスト — ünïcödé 🎉🎉 \uFEFFkept\uFEFF done'
    const text = JSON.stringify({ ...args, memory })
    body = new TextEncoder().encode(('\uFEFF' + sseChunks(openaiEvents(text)).join('')).replace(/\n/g, '\r\n'))
    const run = createClient({ baseURL, model: 'm' }).stream(messages, tools, options)
    const events = await collect(run)
    expect((await run.result).toolCall.args).toEqual({ ...args, memory })
    for (const event of events) if (event.type === 'partial') expect(event.args && JSON.stringify(event.args)).not.toContain('\uFFFD')
  })
})

describe('client.stream of a tool sent under a wire name', () => {
  let server: ScriptedServer
  beforeAll(async () => {
    server = await startScriptedServer({ script: [] })
  })
  afterAll(() => server.close())
  const factorial = defineTool({ description: 'n!', inputSchema: z.object({ n: z.number().int() }), execute: async ({ n }) => (n <= 1 ? 1 : n * 6) })
  const named = { 'math.factorial': factorial, 'get weather': defineTool({ description: 'Weather', inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => city }) }

  async function run(reply: ScriptedReply, extra: Partial<ClientConfig> = {}) {
    server.setScript([reply])
    const stream = createClient({ baseURL: server.url, model: 'gpt-4.1-mini', retry: fastRetry, ...extra }).stream(messages, named)
    const [events, result] = await Promise.all([collect(stream), stream.result])
    const named_ = events.filter((event): event is Extract<StreamEvent, { type: 'arguments' | 'partial' }> => event.type === 'arguments' || event.type === 'partial')
    return { named: named_, result }
  }

  it('should name the tool as declared in every arguments and partial event of a native call', async () => {
    for (const [own, sent, text] of [['math.factorial', 'math_factorial', '{"n": 4}'], ['get weather', 'get_weather', '{"city": "Antwerp, Belgium"}']] as const) {
      const { named: events, result } = await run(streamOf(openaiEvents(text, { name: sent })))
      expect(server.requests.at(-1)!.body).toMatchObject({ tools: expect.arrayContaining([expect.objectContaining({ function: expect.objectContaining({ name: sent }) })]) })
      expect(events.filter((event) => event.type === 'arguments').length).toBeGreaterThan(1)
      expect(events.some((event) => event.type === 'partial')).toBe(true)
      for (const event of events) expect(event.name).toBe(own)
      expect(result.toolCall).toMatchObject({ name: own, args: JSON.parse(text) })
    }
  })

  it('should name the tool as declared in the partial events of a call written in prompt mode, as markup or JSON', async () => {
    const contents = [
      '<tool_call>\n<function=math_factorial>\n<parameter=n>\n4\n</parameter>\n</function>\n</tool_call>',
      '<tool_call>{"name": "math_factorial", "arguments": {"n": 4}}</tool_call>',
      kimiK3.render([{ name: 'math_factorial', args: { n: 4 } }]),
    ]
    for (const content of contents) {
      const { named: events, result } = await run(streamOf([chunk({ role: 'assistant', content: '' }), ...irregularContent(content), chunk({}, 'stop'), usageChunk]), { toolMode: 'prompt' })
      expect(events.some((event) => event.type === 'partial'), content).toBe(true)
      for (const event of events) expect(event.name, content).toBe('math.factorial')
      expect(result.toolCall).toMatchObject({ name: 'math.factorial', args: { n: 4 } })
    }
  })
})

/** Content deltas of a few characters each. */
function irregularContent(text: string): unknown[] {
  const deltas: unknown[] = []
  for (let offset = 0; offset < text.length; offset += 4) deltas.push(chunk({ content: text.slice(offset, offset + 4) }))
  return deltas
}
