import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { classifyHttpError } from '../errors/classify-http'
import { createClient, defineTool, type ChatMessage, type ChatResponse, type ClientConfig, type EndpointProfile } from '../index'
import { startScriptedServer, streamedReply, toolCallResponse, type RecordedRequest, type ScriptedReply, type ScriptedServer } from '../testing'
import { learnMessageFields, sendMessageFields } from './adapt-to-message-field'
import type { MessageFieldRule } from './endpoint-profile'
import { assertLinear, sizesBetween } from '../testing/measure-growth'
import { findFieldChanges } from './adapt-to-rejected-field'

const modes = ['invoke', 'stream'] as const
type Mode = (typeof modes)[number]

const tools = {
  click: defineTool({ description: 'Click an element', inputSchema: z.object({ index: z.number().int() }), execute: ({ index }) => `clicked ${index}` }),
  done: defineTool({ description: 'Finish', inputSchema: z.object({ text: z.string() }), execute: ({ text }) => text }),
}
const user: ChatMessage = { role: 'user', content: 'Search for wildcall.' }
const refusal = (message: string, status = 400): ScriptedReply => ({ status, body: { error: { message, type: 'invalid_request_error' } } })
const assistantTurns = (request: RecordedRequest) => (request.body.messages ?? []).filter((message) => message.role === 'assistant')

/** An endpoint as a function of the request: a refusal, or the next tool call (with reasoning under `field`). */
function endpoint(refuse: (request: RecordedRequest) => ScriptedReply | undefined, field = 'reasoning_content') {
  return (request: RecordedRequest, index: number): ScriptedReply => {
    const refused = refuse(request)
    if (refused) return refused
    const response: ChatResponse = toolCallResponse([{ id: `call_${index}`, name: 'click', args: { index } }], undefined, { message: { [field]: `Thinking about step ${index}.` } })
    return request.body.stream ? streamedReply(response) : { body: response }
  }
}

let server: ScriptedServer
beforeAll(async () => {
  server = await startScriptedServer({ script: [] })
})
afterAll(() => server.close())

function makeClient(config: Partial<ClientConfig> = {}) {
  return createClient({ baseURL: server.url, model: 'acme-reasoner-2', maxRetries: 0, ...config })
}
const step = (client: ReturnType<typeof makeClient>, mode: Mode, messages: ChatMessage[], options = {}) =>
  mode === 'invoke' ? client.invoke(messages, tools, options) : client.stream(messages, tools, options).result

// DeepSeek's, Kimi's and a proxy's words for a history turn without its reasoning.
const demands = [
  ['DeepSeek', 'Missing `reasoning_content` field in the assistant message at message index 2. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls'],
  ['Kimi K2 thinking', 'thinking is enabled but reasoning_content is missing in assistant tool call message at index 2'],
  ['a proxy', 'The reasoning_content of assistant messages must be passed back to the API.'],
]

describe.each(modes)('learning from the endpoint (%s)', (mode) => {
  it.each(demands)('should echo the reasoning a model no adapter knows demands back (%s), in one extra request the first time and none afterwards', async (_name, words) => {
    server.setScript(endpoint((request) => (assistantTurns(request).some((turn) => typeof turn.reasoning_content !== 'string') ? refusal(words) : undefined)))
    const client = makeClient()
    const learned: EndpointProfile[] = []
    client.events.on('learned', ({ profile }) => learned.push(profile))
    const messages: ChatMessage[] = [user]
    const first = await step(client, mode, messages)
    // History keeps what the server sent, under its own field name.
    expect(first.messages[0]).toMatchObject({ reasoning_content: 'Thinking about step 0.' })
    messages.push(...first.messages)
    const second = await step(client, mode, messages)
    expect(second.fixes).toContain('echoed-message-field:reasoning_content')
    messages.push(...second.messages)
    await step(client, mode, messages)
    // Turn 1, turn 2 refused then resent with the reasoning, turn 3 sent right at once.
    expect(server.requests.map((request) => assistantTurns(request).map((turn) => turn.reasoning_content))).toEqual([
      [],
      [undefined],
      ['Thinking about step 0.'],
      ['Thinking about step 0.', 'Thinking about step 2.'],
    ])
    expect(learned).toHaveLength(1)
    expect(client.profile.messageFields).toEqual({ reasoning_content: 'echo' })
  })

  it('should send no reasoning back by default, whatever field the server used (reasoning, reasoning_details)', async () => {
    server.setScript(endpoint(() => undefined, 'reasoning'))
    const client = makeClient()
    const first = await step(client, mode, [user])
    expect(first.messages[0]).toMatchObject({ reasoning: 'Thinking about step 0.' })
    await step(client, mode, [user, ...first.messages])
    expect(assistantTurns(server.requests[1]!)[0]).not.toHaveProperty('reasoning')
    expect(server.requests).toHaveLength(2)
  })

  const choiceRefusals: Array<[string, (request: RecordedRequest) => ScriptedReply | undefined, unknown]> = [
    ['LM Studio refusing a named choice', (request) => (typeof request.body.tool_choice === 'object' ? refusal("Invalid tool_choice type: 'object'. Supported string values: none, auto, required") : undefined), 'required'],
    [
      'a thinking model refusing named and required',
      (request) =>
        typeof request.body.tool_choice === 'object'
          ? refusal('Thinking mode does not support this tool_choice')
          : request.body.tool_choice === 'required'
            ? refusal("tool_choice 'required' is incompatible with thinking enabled")
            : undefined,
      undefined,
    ],
    ['Anthropic-style forced tool use', (request) => (request.body.tool_choice !== undefined ? refusal('Thinking may not be enabled when tool_choice forces tool use.') : undefined), undefined],
  ]

  it.each(choiceRefusals)('should end %s in a call, and start there next time', async (_name, refuse, sent) => {
    server.setScript(endpoint(refuse))
    const client = makeClient()
    const result = await step(client, mode, [{ role: 'system', content: 'You drive a browser.' }, user], { toolChoiceName: 'click' })
    expect(result.toolCall.name).toBe('click')
    const last = server.requests.at(-1)!.body
    expect(last.tool_choice).toEqual(sent)
    // With no tool_choice left, the prompt still asks for the call.
    if (sent === undefined) expect(last.messages[0]!.content).toBe('You drive a browser.\n\nAnswer only by calling the tool "click", never in plain text.')
    expect(client.profile.toolChoice).toBe(sent ?? 'auto')
    const requests = server.requests.length
    await step(createClient({ baseURL: server.url, model: 'acme-reasoner-2', maxRetries: 0, profile: client.profile }), mode, [user], { toolChoiceName: 'click' })
    expect(server.requests).toHaveLength(requests + 1)
  })

  it('should make a 429 whose usage limit resets in 16 days a non-retryable quota_exceeded after one request', async () => {
    server.setScript([{ status: 429, headers: { 'retry-after': '1382400' }, body: { error: { message: 'Monthly usage limit reached. Resets in 16 days.' } } }])
    const error = await step(makeClient({ maxRetries: 3 }), mode, [user]).catch((caught: unknown) => caught)
    expect(error).toMatchObject({ type: 'quota_exceeded', retryable: false, retryAfterMs: 1_382_400_000 })
    expect(server.requests).toHaveLength(1)
  })

  it('should let a profile saved from one client make a new client skip every failed request', async () => {
    const deepseek = 'Missing `reasoning_content` field in the assistant message at message index 2.'
    server.setScript(
      endpoint((request) =>
        'parallel_tool_calls' in request.body
          ? { status: 400, body: { error: { message: "Unsupported parameter: 'parallel_tool_calls' is not supported with this model.", param: 'parallel_tool_calls' } } }
          : typeof request.body.tool_choice === 'object'
            ? refusal("Invalid tool_choice type: 'object'. Supported string values: none, auto, required")
            : assistantTurns(request).some((turn) => typeof turn.reasoning_content !== 'string')
              ? refusal(deepseek)
              : undefined,
      ),
    )
    const first = makeClient()
    const one = await step(first, mode, [user], { toolChoiceName: 'click' })
    await step(first, mode, [user, ...one.messages], { toolChoiceName: 'click' })
    expect(server.requests).toHaveLength(5)
    // Saved as text (a file, localStorage) and read back.
    const saved = JSON.stringify(first.profile)
    expect(JSON.parse(saved)).toEqual({
      version: 1,
      baseURL: server.url,
      model: 'acme-reasoner-2',
      fields: [{ field: 'parallel_tool_calls' }],
      messageFields: { reasoning_content: 'echo' },
      toolChoice: 'required',
    })
    const requests = server.requests.length
    const second = makeClient({ profile: saved })
    const again = await step(second, mode, [user], { toolChoiceName: 'click' })
    await step(second, mode, [user, ...again.messages], { toolChoiceName: 'click' })
    expect(server.requests).toHaveLength(requests + 2)
  })

  it('should correct a saved entry that stopped being true after one failure', async () => {
    const groq = "'messages.1' : property 'reasoning_content' is unsupported"
    server.setScript(endpoint((request) => (assistantTurns(request).some((turn) => 'reasoning_content' in turn) ? refusal(groq) : undefined)))
    const client = makeClient({ profile: { version: 1, baseURL: server.url, model: 'acme-reasoner-2', fields: [], messageFields: { reasoning_content: 'echo' } } })
    const first = await step(client, mode, [user])
    await step(client, mode, [user, ...first.messages])
    expect(server.requests).toHaveLength(3)
    expect(client.profile.messageFields).toEqual({ reasoning_content: 'strip' })
  })
})

describe('createClient({ profile })', () => {
  const warnings: string[] = []
  const logger = { warn: (message: string) => warnings.push(message) }
  const base = (url: string) => ({ version: 1, baseURL: url, model: 'acme-1', fields: [], messageFields: {} })

  it.each([
    ['not JSON', () => '{"version": 1, "baseURL"', /not a wildcall profile/],
    ['of another version', (url: string) => ({ ...base(url), version: 2 }), /not a wildcall profile of version 1/],
    ['saved for another model', (url: string) => ({ ...base(url), model: 'other-model' }), /saved for "other-model"/],
    ['saved for another base URL', () => base('https://api.example.com/v1'), /at https:\/\/api\.example\.com\/v1/],
    ['with fields that are not an array', (url: string) => ({ ...base(url), fields: 'parallel_tool_calls' }), /corrupt/],
    ['dropping an essential field', (url: string) => ({ ...base(url), fields: [{ field: 'messages' }] }), /corrupt/],
    ['stripping the content of turns', (url: string) => ({ ...base(url), messageFields: { content: 'strip' } }), /corrupt/],
    ['with an unknown rule', (url: string) => ({ ...base(url), messageFields: { reasoning_content: 'send' } }), /corrupt/],
    ['with an unknown tool_choice form', (url: string) => ({ ...base(url), toolChoice: 'named' }), /corrupt/],
    ['with an unknown key', (url: string) => ({ ...base(url), extra: true }), /corrupt/],
  ])('should ignore a profile %s with a warning, and send the request unchanged', async (_name, make, warning) => {
    warnings.length = 0
    server.setScript(endpoint(() => undefined))
    const client = createClient({ baseURL: server.url, model: 'acme-1', logger, profile: make(server.url) as EndpointProfile })
    expect(warnings).toEqual([expect.stringMatching(warning)])
    expect(client.profile).toEqual(base(server.url))
    await client.invoke([user], tools, { toolChoiceName: 'click' })
    expect(server.requests[0]!.body).toMatchObject({ tool_choice: { type: 'function', function: { name: 'click' } }, parallel_tool_calls: false, messages: [user] })
  })

  it('should tell the console why it ignored a saved profile when no logger is given, and nothing for a valid one', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      createClient({ baseURL: server.url, model: 'acme-1', profile: { ...base(server.url), model: 'other-model' } as EndpointProfile })
      expect(warn).toHaveBeenCalledTimes(1)
      expect(warn.mock.calls[0]![0]).toMatch(/^\[wildcall\] Ignored the saved profile \(saved for "other-model" at .*\): the client learns afresh\.$/)
      createClient({ baseURL: server.url, model: 'acme-1', profile: '{"version": 1' })
      expect(warn).toHaveBeenCalledTimes(2)
      createClient({ baseURL: server.url, model: 'acme-1', profile: base(server.url) as EndpointProfile })
      createClient({ baseURL: server.url, model: 'acme-1', profile: null })
      expect(warn).toHaveBeenCalledTimes(2)
    } finally {
      warn.mockRestore()
    }
  })

  it('should start from a valid profile, prompt mode included, and take null for none', () => {
    const profile = { ...base(server.url), fields: [{ field: 'max_tokens', rename: 'max_completion_tokens' }], messageFields: { reasoning_details: 'strip' }, toolChoice: 'auto', toolMode: 'prompt' }
    expect(createClient({ baseURL: `${server.url}/`, model: 'acme-1', profile: profile as EndpointProfile }).profile).toEqual(profile)
    warnings.length = 0
    expect(createClient({ baseURL: server.url, model: 'acme-1', logger, profile: null }).profile).toEqual(base(server.url))
    expect(warnings).toEqual([])
  })
})

describe('learnMessageFields', () => {
  const turn: ChatMessage = { role: 'assistant', content: null, reasoning_content: 'Look.', tool_calls: [{ id: 'c', type: 'function', function: { name: 'click', arguments: '{}' } }] }
  const body = { model: 'm', messages: [user, turn] }
  const learn = (status: number, payload: unknown, sent: ChatMessage[] = [user, turn]) => {
    const rules: Record<string, MessageFieldRule> = {}
    learnMessageFields(classifyHttpError(status, undefined, JSON.stringify(payload), payload), sent, [user, turn], body, rules)
    return rules
  }

  it('should strip a field pydantic refuses at messages.N (vLLM and FastAPI servers)', () => {
    expect(learn(422, { detail: [{ type: 'extra_forbidden', loc: ['body', 'messages', 1, 'reasoning_content'], msg: 'Extra inputs are not permitted', input: 'Look.' }] })).toEqual({ reasoning_content: 'strip' })
    expect(learn(400, { object: 'error', message: "[{'type': 'extra_forbidden', 'loc': ('body', 'messages', 1, 'assistant', 'reasoning_content'), 'msg': 'Extra inputs are not permitted'}]", code: 400 })).toEqual({ reasoning_content: 'strip' })
  })

  it("should echo a field pydantic says is required (\"Field required\"), and a reasoning field no turn carried", () => {
    const bare: ChatMessage = { role: 'assistant', content: null, tool_calls: turn.tool_calls! }
    expect(learn(422, { detail: [{ type: 'missing', loc: ['body', 'messages', 1, 'reasoning_content'], msg: 'Field required' }] }, [user, bare])).toEqual({ reasoning_content: 'echo' })
  })

  it('should learn nothing from an error about the request, about another field, or without words of refusal or demand', () => {
    expect(learn(400, { error: { message: "Unsupported parameter: 'reasoning_effort' is not supported with this model." } })).toEqual({})
    expect(learn(400, { error: { message: "Invalid 'messages[1].content': string too long." } })).toEqual({})
    expect(learn(400, { error: { message: 'messages.1.reasoning_content: looks fine' } })).toEqual({})
    expect(learn(500, { error: { message: "'messages.1' : property 'reasoning_content' is unsupported" } })).toEqual({})
  })

  it('should read a hostile error naming thousands of fields in linear time', () => {
    const fields = (count: number): ChatMessage => ({ ...turn, ...Object.fromEntries(Array.from({ length: count }, (_, index) => [`reasoning_${index}`, 'x'])) })
    const words = (count: number) => ({ error: { message: `messages: ${'reasoning_x_ '.repeat(count)} is unsupported` } })
    // Linear in the message's length, in the number of fields, and in both together (the message,
    // read up to 20 kB, is read once, not once per field).
    assertLinear((count) => {
      const payload = words(count)
      const turn = fields(count)
      return () => learn(400, payload, [user, turn])
    }, sizesBetween(150, 1_500))
    const many = fields(2_000)
    assertLinear((count) => {
      const payload = words(count)
      return () => learn(400, payload, [user, many])
    }, sizesBetween(150, 1_500))
    const payload = words(1_500)
    assertLinear((count) => {
      const turn = fields(count)
      return () => learn(400, payload, [user, turn])
    }, sizesBetween(200, 2_000))
  })

  it('should fill a demanded field with an empty string on a tool-calling turn that has none, and leave other turns alone', () => {
    const fixes: string[] = []
    const bare: ChatMessage = { role: 'assistant', content: null, tool_calls: turn.tool_calls! }
    const text: ChatMessage = { role: 'assistant', content: 'Hi' }
    const messages = [user, bare, text]
    const sent = sendMessageFields(messages, { message: [], toolCall: [] }, { reasoning_content: 'echo' }, fixes)
    expect(sent).toEqual([user, { ...bare, reasoning_content: '' }, text])
    expect(messages[1]).not.toHaveProperty('reasoning_content')
    expect(fixes).toEqual(['echoed-message-field:reasoning_content'])
  })

  it('should send the history itself when no turn changes, and copy only the turns that do', () => {
    const thought: ChatMessage = { role: 'assistant', content: null, reasoning_content: 'Look first.', tool_calls: turn.tool_calls! }
    const kept: ChatMessage = { role: 'assistant', content: 'Hi' }
    const history = [user, kept, { role: 'tool', tool_call_id: 'call_1', content: 'ok' } as ChatMessage]
    expect(sendMessageFields(history, { message: [], toolCall: [] }, {}, [])).toBe(history)
    const withThought = [user, thought, kept]
    const sent = sendMessageFields(withThought, { message: [], toolCall: [] }, {}, [])
    expect(sent).not.toBe(withThought)
    expect(sent[0]).toBe(user)
    expect(sent[2]).toBe(kept)
    expect(sent[1]).toEqual({ role: 'assistant', content: null, tool_calls: turn.tool_calls })
    expect(withThought[1]).toBe(thought)
    expect(thought.reasoning_content).toBe('Look first.')
    expect(sendMessageFields(withThought, { message: ['reasoning_content'], toolCall: [] }, {}, [])).toBe(withThought)
  })
})

describe('findFieldChanges (tool_choice)', () => {
  const named = { model: 'm', messages: [user], tool_choice: { type: 'function' as const, function: { name: 'click' } } }
  it.each([
    ['LM Studio', "Invalid tool_choice type: 'object'. Supported string values: none, auto, required", named, { field: 'tool_choice', required: true }],
    ['a thinking model, named', 'Thinking mode does not support this tool_choice', named, { field: 'tool_choice', required: true }],
    ['a thinking model, required', "tool_choice 'required' is incompatible with thinking enabled", { ...named, tool_choice: 'required' as const }, { field: 'tool_choice' }],
  ])('should read %s as a refused tool_choice form', (_name, message, body, change) => {
    const error = classifyHttpError(400, undefined, JSON.stringify({ error: { message } }), { error: { message } })
    expect(findFieldChanges(body, error)).toEqual([change])
  })
})
