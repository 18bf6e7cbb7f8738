import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createClient, createMacroTool, defineTool, isInvokeError, type ChatMessage, type InvokeResult, type StreamEvent, type ToolSet } from '../index'
import { createClient as createCoreClient } from '../core'
import { classifyHttpError, refusesTools } from '../errors/classify-http'
import { sseChunks, startScriptedServer, type RecordedRequest, type ScriptedReply, type ScriptedServer } from '../testing'
import fc from 'fast-check'
import { checkPromptForm } from '../testing'
import { builtInReaders } from '../repair/extract-calls'
import { repairWithReaders } from '../repair/repair-tool-call'
import { jsonSchema } from '../json-schema'
import { hermesPrompt, toPromptBody } from './prompt-mode'

// The bodies real servers answer to a request with `tools` (issue 20).
const REFUSALS = {
  'Ollama /v1': { status: 400, body: { error: { message: 'registry.ollama.ai/library/gemma2:2b does not support tools', type: 'api_error' } }, fix: 'a model whose chat template supports tools' },
  'Ollama native shape': { status: 400, body: { error: 'registry.ollama.ai/library/gemma2:2b does not support tools' }, fix: 'a model whose chat template supports tools' },
  'vLLM without tool flags': { status: 400, body: { object: 'error', message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set', type: 'BadRequestError', code: 400 }, fix: '--enable-auto-tool-choice --tool-call-parser' },
  'llama.cpp without --jinja': { status: 500, body: { error: { code: 500, message: 'tools param requires --jinja flag', type: 'server_error' } }, fix: '--jinja' },
} as const
type RefusalName = keyof typeof REFUSALS

const executed: string[] = []
const plainTools = {
  click: defineTool({ description: 'Click the element with this index', inputSchema: z.object({ index: z.number().int() }), execute: ({ index }) => { executed.push(`click ${index}`); return `clicked ${index}` } }),
  type_text: defineTool({ description: 'Type text', inputSchema: z.object({ text: z.string() }), execute: ({ text }) => { executed.push(`type ${text}`); return `typed ${text}` } }),
  done: defineTool({ description: 'Finish', inputSchema: z.object({ text: z.string() }), execute: ({ text }) => { executed.push(`done ${text}`); return text } }),
}
const AgentOutput = createMacroTool(plainTools)

// What the model writes on each of three steps, for the plain tools and for the macro tool.
const PLAIN_CALLS: Array<{ name: string; arguments: Record<string, unknown> }> = [
  { name: 'click', arguments: { index: 3 } },
  { name: 'type_text', arguments: { text: 'Grüße, "ok" <b>' } },
  { name: 'done', arguments: { text: 'finished' } },
]
const MACRO_CALLS = PLAIN_CALLS.map((call) => ({ name: 'AgentOutput', arguments: { next_goal: `do ${call.name}`, action: { [call.name]: call.arguments } } }))

const hasToolFields = (body: RecordedRequest['body']) =>
  'tools' in body || 'tool_choice' in body || 'parallel_tool_calls' in body || body.messages.some((message) => message.role === 'tool' || 'tool_calls' in message || 'tool_call_id' in message)

/**
 * A local server whose model follows tools written in the prompt: a request with `tools` (or, when
 * `strict`, with `tool_calls` or `role: 'tool'` in its history) gets the refusal; any other gets the
 * call of the step it is at (counted by the `<tool_response>` turns), as Hermes text, whole or streamed.
 */
function modelServer(refusal: RefusalName, calls: typeof PLAIN_CALLS, strict = false) {
  return (request: RecordedRequest): ScriptedReply => {
    const { body } = request
    if ('tools' in body || (strict && hasToolFields(body))) {
      const { status, body: error } = strict && !('tools' in body) ? { status: 400, body: { error: "invalid message: unknown role 'tool'" } } : REFUSALS[refusal]
      return { status, body: error }
    }
    const step = body.messages.filter((message) => typeof message.content === 'string' && message.content.startsWith('<tool_response>')).length
    const call = calls[step]!
    const text = `I will ${call.name}.\n<tool_call>\n${JSON.stringify(call)}\n</tool_call>`
    if (!body.stream) return { body: { choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }] } }
    const pieces = text.match(/[\s\S]{1,7}/g)!
    return { chunks: sseChunks([...pieces.map((piece) => ({ choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })), { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }]) }
  }
}

let server: ScriptedServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
  executed.length = 0
})

type Mode = 'invoke' | 'stream'
async function runStep(client: ReturnType<typeof createClient>, mode: Mode, messages: ChatMessage[], tools: ToolSet, toolChoiceName?: string) {
  const options = toolChoiceName ? { toolChoiceName } : {}
  if (mode === 'invoke') return { result: await client.invoke(messages, tools, options), events: [] as StreamEvent[] }
  const run = client.stream(messages, tools, options)
  const events: StreamEvent[] = []
  for await (const event of run) events.push(event)
  return { result: (await run.result) as InvokeResult, events }
}

describe('toolMode "auto" against endpoints that refuse tools', () => {
  const cases = Object.keys(REFUSALS).flatMap((refusal) => (['invoke', 'stream'] as const).flatMap((mode) => (['plain', 'macro'] as const).map((kind) => [refusal as RefusalName, mode, kind] as const)))
  it.each(cases)('should run a three-step loop against %s (%s, %s tools): two requests on the first step, one on each later step', async (refusal, mode, kind) => {
    const calls = kind === 'plain' ? PLAIN_CALLS : MACRO_CALLS
    server = await startScriptedServer({ script: modelServer(refusal, calls) })
    const client = createClient({ baseURL: server.url, model: 'gemma2:2b', retry: { limit: 2, baseDelayMs: 1, jitter: false } })
    const tools: ToolSet = kind === 'plain' ? plainTools : { AgentOutput }
    const messages: ChatMessage[] = [{ role: 'system', content: 'You drive a browser.' }, { role: 'user', content: 'Fill in the form.' }]
    const perStep: number[] = []
    for (let step = 0; step < 3; step++) {
      const before = server.requests.length
      const { result, events } = await runStep(client, mode, messages, tools, kind === 'macro' ? 'AgentOutput' : undefined)
      perStep.push(server.requests.length - before)
      expect(result.fixes).toContain('prompt-tools')
      const expected = calls[step]!
      expect(result.toolCall.name).toBe(expected.name)
      expect(result.toolCall.args).toEqual(expected.arguments)
      // Standard history: one assistant turn with tool_calls and one tool message.
      expect(result.messages[0]).toMatchObject({ role: 'assistant', tool_calls: [{ function: { name: expected.name } }] })
      expect(result.messages[1]).toMatchObject({ role: 'tool', tool_call_id: result.toolCall.id })
      if (mode === 'stream') {
        expect(events.some((event) => event.type === 'text')).toBe(true)
        // The preview of the call being written, read from the text as it streams.
        const partials = events.filter((event) => event.type === 'partial')
        expect(partials.at(-1)).toMatchObject({ args: expected.arguments })
        // Previews of the arguments only, never of the envelope's `name` being written.
        expect(partials.filter((event) => 'name' in (event.args as object))).toEqual([])
      }
      messages.push(...result.messages)
    }
    expect(perStep).toEqual([2, 1, 1])
    expect(executed).toEqual(['click 3', 'type Grüße, "ok" <b>', 'done finished'])
    const [native, ...prompted] = server.requests
    expect(native!.body.tools).toBeDefined()
    for (const request of prompted) expect(hasToolFields(request.body)).toBe(false)
    // The last request: the caller's system text with the tools block, then history as text.
    const last = prompted.at(-1)!.body.messages
    expect(last[0]!.role).toBe('system')
    expect(last[0]!.content).toMatch(/^You drive a browser\.\n\n# Tools\n[\s\S]*<tools>\n\{"name":/)
    if (kind === 'macro') expect(last[0]!.content).toContain('exactly one call of AgentOutput')
    expect(last.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'user'])
    // Sent with response_format: a past call is the JSON object the grammar admits, not markup.
    expect(prompted.at(-1)!.body.response_format).toBeDefined()
    expect(String(last[2]!.content).split('\n').at(-1)).toBe(JSON.stringify(calls[0]))
    expect(last[2]!.content).not.toContain('<tool_call>')
    expect(last[3]!.content).toBe('<tool_response>\nclicked 3\n</tool_response>')
  })

  it.each(['invoke', 'stream'] as const)('should keep an endpoint that also refuses tool_calls and role "tool" in history working (%s)', async (mode) => {
    server = await startScriptedServer({ script: modelServer('Ollama /v1', PLAIN_CALLS, true) })
    const client = createClient({ baseURL: server.url, model: 'gemma2:2b', retry: { limit: 2, baseDelayMs: 1, jitter: false } })
    // A history written in native mode earlier (or by another client): standard tool_calls and tool messages.
    const messages: ChatMessage[] = [
      { role: 'user', content: 'Fill in the form.' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'click', arguments: '{"index":3}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'clicked 3' },
    ]
    const perStep: number[] = []
    for (let step = 1; step < 3; step++) {
      const before = server.requests.length
      const { result } = await runStep(client, mode, messages, plainTools)
      perStep.push(server.requests.length - before)
      expect(result.toolCall.args).toEqual(PLAIN_CALLS[step]!.arguments)
      messages.push(...result.messages)
    }
    expect(perStep).toEqual([2, 1])
    expect(hasToolFields(server.requests[0]!.body)).toBe(true)
    expect(server.requests.slice(1).every((request) => !hasToolFields(request.body))).toBe(true)
  })

  it('should switch a core client (JSON readers only) too', async () => {
    server = await startScriptedServer({ script: modelServer('llama.cpp without --jinja', PLAIN_CALLS) })
    const client = createCoreClient({ baseURL: server.url, model: 'gemma-2-2b-it', retry: { limit: 2, baseDelayMs: 1, jitter: false } })
    const result = await client.invoke([{ role: 'user', content: 'go' }], plainTools)
    expect(result.toolCall).toMatchObject({ name: 'click', args: { index: 3 } })
    expect(server.requests).toHaveLength(2)
  })

  it('should describe the tools in the prompt from the first request with toolMode "prompt", and let a call go native', async () => {
    server = await startScriptedServer({ script: modelServer('Ollama /v1', PLAIN_CALLS) })
    const client = createClient({ baseURL: server.url, model: 'gemma2:2b', toolMode: 'prompt' })
    const result = await client.invoke([{ role: 'user', content: 'go' }], plainTools, { toolChoiceName: 'click' })
    expect(server.requests).toHaveLength(1)
    expect(result.toolCall.args).toEqual({ index: 3 })
    const system = server.requests[0]!.body.messages[0]!
    expect(system).toMatchObject({ role: 'system' })
    expect(system.content).toMatch(/^# Tools\n/)
    expect(system.content).toContain('exactly one call of click')
    await expect(client.invoke([{ role: 'user', content: 'go' }], plainTools, { toolMode: 'native' })).rejects.toMatchObject({ type: 'bad_request', retryable: false })
    expect(server.requests).toHaveLength(2)
  })
})

describe('prompt mode and the rest of the pipeline', () => {
  it('should reask in prompt mode: the failed answer and what was wrong go back as text, with no tools', async () => {
    const answer = (args: unknown) => ({ body: { choices: [{ index: 0, message: { role: 'assistant', content: `<tool_call>\n${JSON.stringify({ name: 'click', arguments: args })}\n</tool_call>` }, finish_reason: 'stop' }] } })
    server = await startScriptedServer({ script: [answer({ index: 'third' }), answer({ index: 3 })] })
    const client = createClient({ baseURL: server.url, model: 'gemma2:2b', toolMode: 'prompt', retry: { limit: 1, baseDelayMs: 1, jitter: false } })
    const result = await client.invoke([{ role: 'user', content: 'go' }], plainTools)
    expect(result.toolCall.args).toEqual({ index: 3 })
    expect(executed).toEqual(['click 3'])
    const retry = server.requests[1]!.body
    expect(hasToolFields(retry)).toBe(false)
    expect(retry.messages.slice(-2)).toMatchObject([{ role: 'assistant', content: expect.stringContaining('"third"') }, { role: 'user', content: expect.stringContaining('click.index') }])
  })

  it('should stream <think> written into the text as reasoning, and end with the result invoke gives', async () => {
    const text = '<think>The form is open; click 3.</think>\nI will click.\n<tool_call>\n{"name": "click", "arguments": {"index": 3}}\n</tool_call>'
    const whole = { body: { choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }] } }
    const streamed = { chunks: sseChunks([...text.match(/[\s\S]{1,3}/g)!.map((piece) => ({ choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })), { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }]) }
    server = await startScriptedServer({ script: (request) => (request.body.stream ? streamed : whole) })
    const client = createClient({ baseURL: server.url, model: 'qwen3:8b', toolMode: 'prompt' })
    const messages: ChatMessage[] = [{ role: 'user', content: 'go' }]
    const { result, events } = await runStep(client, 'stream', messages, plainTools)
    const joined = (type: string) => events.filter((event) => event.type === type).map((event) => (event as { delta: string }).delta).join('')
    expect(joined('reasoning')).toBe('The form is open; click 3.')
    expect(joined('text')).toBe(text.slice(text.indexOf('</think>') + 8))
    const invoked = await client.invoke(messages, plainTools)
    expect(result.toolCall).toEqual({ ...invoked.toolCall, id: result.toolCall.id })
    expect(result.fixes).toEqual(invoked.fixes)
    expect(result.messages[0]).toEqual({ ...invoked.messages[0], tool_calls: [{ ...invoked.messages[0]!.tool_calls![0]!, id: result.toolCall.id }] })
  })

  it('should use the prompt form of a matched adapter, and check it in defineAdapter', async () => {
    const prompt = { ...hermesPrompt, tools: () => 'TOOLS BLOCK' }
    server = await startScriptedServer({ script: modelServer('Ollama /v1', PLAIN_CALLS) })
    const client = createClient({ baseURL: server.url, model: 'acme-1', toolMode: 'prompt', adapters: [{ name: 'acme', match: { models: ['acme'] }, prompt }] })
    await client.invoke([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'go' }], plainTools)
    expect(server.requests[0]!.body.messages[0]).toEqual({ role: 'system', content: 'Be brief.\n\nTOOLS BLOCK' })
    expect(() => createClient({ baseURL: server!.url, model: 'acme-1', adapters: [{ name: 'acme', match: { models: ['acme'] }, prompt: { tools: 'x' } as never }] })).toThrow(/\[acme\] adapter "prompt" must be \{ tools, call, results \} of functions/)
  })

  it('should refuse a toolMode that is not one of the three', () => {
    expect(() => createClient({ baseURL: 'http://127.0.0.1:9/v1', model: 'm', toolMode: 'text' as never })).toThrow(/"toolMode" must be "auto", "native" or "prompt" \(got "text"\)/)
    const client = createClient({ baseURL: 'http://127.0.0.1:9/v1', model: 'm' })
    return expect(client.invoke([{ role: 'user', content: 'go' }], plainTools, { toolMode: 'none' as never })).rejects.toMatchObject({ type: 'config_error', message: expect.stringContaining('"toolMode"') })
  })
})

describe('toolMode "native" against endpoints that refuse tools', () => {
  it.each(Object.keys(REFUSALS) as RefusalName[])('should fail with one request and the fix for %s', async (refusal) => {
    server = await startScriptedServer({ script: modelServer(refusal, PLAIN_CALLS) })
    const client = createClient({ baseURL: server.url, model: 'gemma2:2b', toolMode: 'native', retry: { limit: 3, baseDelayMs: 1, jitter: false } })
    const error: unknown = await client.invoke([{ role: 'user', content: 'go' }], plainTools).catch((caught: unknown) => caught)
    expect(isInvokeError(error)).toBe(true)
    expect(error).toMatchObject({ type: 'bad_request', retryable: false, status: REFUSALS[refusal].status })
    const { message } = error as Error
    expect(message).toContain('the endpoint does not accept tools')
    expect(message).toContain("toolMode: 'prompt'")
    expect(message).toContain(REFUSALS[refusal].fix)
    expect(server.requests).toHaveLength(1)
  })

  it('should still retry an ordinary 500, in any tool mode', async () => {
    for (const toolMode of ['auto', 'native', 'prompt'] as const) {
      server = await startScriptedServer({ script: [{ status: 500, body: { error: { message: 'Internal server error', type: 'server_error' } } }, { status: 500, body: { error: { message: 'CUDA out of memory', code: 500 } } }, { body: { choices: [{ index: 0, message: { role: 'assistant', content: '<tool_call>\n{"name": "click", "arguments": {"index": 3}}\n</tool_call>' }, finish_reason: 'stop' }] } }] })
      const client = createClient({ baseURL: server.url, model: 'gemma2:2b', toolMode, retry: { limit: 2, baseDelayMs: 1, jitter: false } })
      const result = await client.invoke([{ role: 'user', content: 'go' }], plainTools)
      expect(result.toolCall.args).toEqual({ index: 3 })
      expect(server.requests).toHaveLength(3)
      expect(server.requests.every((request) => 'tools' in request.body === (toolMode !== 'prompt'))).toBe(true)
      await server.close()
      server = undefined
    }
  })
})

describe('refusesTools', () => {
  const classify = (status: number, body: unknown) => classifyHttpError(status, undefined, JSON.stringify(body), body)
  it.each(Object.entries(REFUSALS))('should recognise %s as a refusal of tools, not retryable', (_name, { status, body }) => {
    const error = classify(status, body)
    expect(refusesTools(error)).toBe(true)
    expect(error).toMatchObject({ type: 'bad_request', retryable: false })
  })

  it.each([
    [400, 'This model does not support function calling.'],
    [400, 'Tool use is not supported for this model'],
    [400, 'Function calling is not enabled for models/gemma-3-27b-it'],
    [422, "The model doesn't support tools"],
  ])('should recognise other wordings (%i "%s")', (status, message) => {
    expect(refusesTools(classify(status, { error: { message } }))).toBe(true)
  })

  it.each([
    [500, 'Internal server error'],
    [400, "Unsupported parameter: 'parallel_tool_calls' is not supported with this model."],
    [400, "tool_choice 'required' is not supported"],
    [400, 'Tool choice is not supported by this provider'],
    [400, "Invalid 'tools[0].function.parameters': 'format' is not supported"],
    [400, 'This model does not support images'],
    [200, 'registry.ollama.ai/library/gemma2:2b does not support tools'],
  ])('should not take %i "%s" for one', (status, message) => {
    expect(refusesTools(classify(status, { error: { message } }))).toBe(false)
  })
})

describe('toPromptBody', () => {
  it('should add a system message in front when the caller has none, merge a batch of results and keep the caller\'s messages', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: 'Two at once.', tool_calls: [
        { id: 'a', type: 'function', function: { name: 'click', arguments: '{"index":1}' } },
        { id: 'b', type: 'function', function: { name: 'click', arguments: { index: 2 } } },
      ] },
      { role: 'tool', tool_call_id: 'a', content: 'one' },
      { role: 'tool', tool_call_id: 'b', content: [{ type: 'text', text: 'two' }] },
      { role: 'user', content: 'next' },
    ]
    const copy = structuredClone(messages)
    const body = toPromptBody({ model: 'm', messages, tools: [{ type: 'function', function: { name: 'click', parameters: { type: 'object' } } }], tool_choice: 'required', parallel_tool_calls: false, max_tokens: 9 }, hermesPrompt)
    expect(messages).toEqual(copy)
    expect(body).toEqual({
      model: 'm',
      max_tokens: 9,
      messages: [
        { role: 'system', content: expect.stringContaining('<tools>\n{"name":"click","parameters":{"type":"object"}}\n</tools>') },
        { role: 'user', content: 'go' },
        { role: 'assistant', content: 'Two at once.\n<tool_call>\n{"name":"click","arguments":{"index":1}}\n</tool_call>\n<tool_call>\n{"name":"click","arguments":{"index":2}}\n</tool_call>' },
        { role: 'user', content: '<tool_response>\none\n</tool_response>\n<tool_response>\n[{"type":"text","text":"two"}]\n</tool_response>' },
        { role: 'user', content: 'next' },
      ],
    })
    // Under response_format the model may write only the JSON object: its past calls show just that.
    const constrained = toPromptBody({ model: 'm', messages, tools: [{ type: 'function', function: { name: 'click', parameters: { type: 'object' } } }] }, hermesPrompt, 'click', true)
    expect(constrained.messages[2]).toEqual({ role: 'assistant', content: 'Two at once.\n{"name":"click","arguments":{"index":1}}\n{"name":"click","arguments":{"index":2}}' })
    expect(constrained.messages[3]).toEqual(body.messages[3])
    expect(constrained.response_format).toBeDefined()
  })
})

describe('hermesPrompt', () => {
  it('should pass the conformance check of prompt forms', () => {
    checkPromptForm(hermesPrompt)
  })

  it('should have every call it renders read back with identical values (any JSON arguments)', () => {
    const value = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.string({ unit: 'grapheme' }), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }).filter((number) => !Object.is(number, -0)), fc.boolean(), fc.constant(null), fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }).filter((key) => key !== '__proto__'), tie('value'), { maxKeys: 3 })),
    })).value
    const tools = { anything: defineTool({ inputSchema: jsonSchema({ type: 'object', properties: { payload: {} }, required: ['payload'] }) }) }
    fc.assert(
      fc.property(value, (payload) => {
        const content = `Sure.\n${hermesPrompt.call('anything', { payload })}`
        const read = repairWithReaders({ role: 'assistant', content }, tools, {}, builtInReaders)
        expect(read.toolCall).toMatchObject({ name: 'anything' })
        expect(read.toolCall.args).toEqual({ payload })
      }),
      { numRuns: 300 },
    )
  })
})

describe('the prompt-mode switch in client.profile', () => {
  it('should fire "learned" with toolMode "prompt", and a client started from that profile should send one request a step', async () => {
    server = await startScriptedServer({ script: modelServer('Ollama /v1', PLAIN_CALLS) })
    const baseURL = `${server.url}/v1`
    const first = createClient({ baseURL, model: 'gemma2:2b', maxRetries: 0 })
    const learned: unknown[] = []
    first.events.on('learned', ({ profile }) => learned.push(profile))
    await first.invoke([{ role: 'user', content: 'click 3' }], plainTools)
    expect(server.requests).toHaveLength(2)
    expect(learned).toEqual([expect.objectContaining({ toolMode: 'prompt' })])
    expect(first.profile.toolMode).toBe('prompt')

    const saved = JSON.stringify(first.profile)
    const second = createClient({ baseURL, model: 'gemma2:2b', maxRetries: 0, profile: saved })
    const { result } = await runStep(second, 'stream', [{ role: 'user', content: 'click 3' }], plainTools)
    expect(result.toolCall).toMatchObject({ name: 'click', args: { index: 3 } })
    expect(server.requests).toHaveLength(3)
    expect(server.requests[2]!.body).not.toHaveProperty('tools')
    // An explicit 'native' still wins over what the profile learnt.
    await expect(second.invoke([{ role: 'user', content: 'click 3' }], plainTools, { toolMode: 'native' })).rejects.toMatchObject({ type: 'bad_request', retryable: false })
  })
})
