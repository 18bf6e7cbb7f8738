import { classifyFinish, createClient, defineTool, normalizeModelName, type AdapterContext, type ChatMessage, type ChatRequest, type ChatResponse, type ChatToolCall, type ChatToolDefinition } from '@wildcall/sdk'
import { startScriptedServer, type RecordedRequest, type ScriptedReply } from '@wildcall/sdk/testing'
import { testAdapter } from '@wildcall/sdk/testing/vitest'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import apiKeyInvalid from './__fixtures__/gemini-api-key-invalid.json'
import signedToolCall from './__fixtures__/gemini-3-tool-call-signed.json'
import contextLength from './__fixtures__/gemini-context-length.json'
import malformedFunctionCall from './__fixtures__/gemini-malformed-function-call.json'
import rateLimit from './__fixtures__/gemini-rate-limit.json'
import safety from './__fixtures__/gemini-safety.json'
import toolCall from './__fixtures__/gemini-tool-call.json'
import zeroQuota from './__fixtures__/gemini-zero-quota.json'
import zeroQuotaRetryHint from './__fixtures__/gemini-zero-quota-retry-hint.json'
import { geminiAdapter, toGeminiSchema } from './gemini-adapter'

const SKIP = 'skip_thought_signature_validator'

const strictTool: ChatToolDefinition = {
  type: 'function',
  function: {
    name: 'pick',
    parameters: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        kind: { const: 'tab' },
        labels: { type: 'object', propertyNames: { pattern: '^[a-z]+$' }, additionalProperties: { type: 'string' } },
        note: { type: ['string', 'null'] },
      },
      required: ['kind'],
      additionalProperties: false,
    },
  },
}

testAdapter(geminiAdapter(), {
  matches: ['gemini-2.5-flash', 'models/gemini-3-flash-preview', 'gemini-2.5-pro', 'google/gemini-3-pro-preview', { model: 'google/gemini-2.5-flash', baseURL: 'https://openrouter.ai/api/v1' }],
  rejects: ['gemma-3-27b-it', 'gpt-4.1', 'claude-sonnet-4-5'],
  requests: [
    { name: "gemini-2.5-flash: reasoning_effort 'none'", model: 'gemini-2.5-flash', after: { reasoning_effort: 'none' } },
    { name: "gemini-2.5-flash-lite: 'none'", model: 'gemini-2.5-flash-lite', after: { reasoning_effort: 'none' } },
    { name: "gemini-2.5-pro cannot stop thinking: 'low'", model: 'gemini-2.5-pro', after: { reasoning_effort: 'low' } },
    { name: "models/gemini-3-flash-preview: 'minimal'", model: 'models/gemini-3-flash-preview', after: { reasoning_effort: 'minimal' } },
    { name: "gemini-3.1-flash-lite: 'minimal'", model: 'gemini-3.1-flash-lite-preview', after: { reasoning_effort: 'minimal' } },
    { name: "gemini-3-pro-preview: 'low'", model: 'gemini-3-pro-preview', after: { reasoning_effort: 'low' } },
    { name: 'gemini-2.0-flash does not think: no reasoning_effort', model: 'gemini-2.0-flash', absent: ['reasoning_effort'] },
    {
      name: "gemini-3-pro-preview: the history's unsigned tool call gets Google's skip_thought_signature_validator",
      model: 'gemini-3-pro-preview',
      after: { messages: [{}, {}, { tool_calls: [{ id: 'call_1', extra_content: { google: { thought_signature: SKIP } } }] }, {}] },
    },
    {
      name: 'google/gemini-3.1-flash-lite-preview on OpenRouter: sentinel too',
      model: 'google/gemini-3.1-flash-lite-preview',
      baseURL: 'https://openrouter.ai/api/v1',
      after: { messages: [{}, {}, { tool_calls: [{ extra_content: { google: { thought_signature: SKIP } } }] }, {}] },
    },
    { name: 'models/gemini-3-flash-preview: sentinel too', model: 'models/gemini-3-flash-preview', after: { messages: [{}, {}, { tool_calls: [{ extra_content: { google: { thought_signature: SKIP } } }] }, {}] } },
    { name: 'a future gemini-4 model: sentinel too', model: 'gemini-4-pro', after: { messages: [{}, {}, { tool_calls: [{ extra_content: { google: { thought_signature: SKIP } } }] }, {}] } },
    ...['gemini-2.5-pro', 'gemini-2.5-flash', 'google/gemini-2.5-flash-lite', 'gemini-2.0-flash', 'gemini-1.5-pro', 'gemini-flash-latest', 'gemini-exp-1206'].map((model) => ({
      name: `${model}: history tool calls untouched (no signature needed, or no version to tell)`,
      model,
      absent: ['messages.2.tool_calls.0.extra_content'],
    })),
    { name: 'additionalProperties is stripped from the generated tool schemas', model: 'gemini-2.5-flash', absent: ['tools.0.function.parameters.additionalProperties', 'tools.1.function.parameters.additionalProperties'] },
    {
      name: 'keywords Gemini rejects are rewritten in copies of the tools',
      model: 'gemini-2.5-flash',
      before: { tools: [strictTool] },
      absent: ['tools.0.function.parameters.$schema', 'tools.0.function.parameters.additionalProperties', 'tools.0.function.parameters.properties.labels.propertyNames', 'tools.0.function.parameters.properties.labels.additionalProperties', 'tools.0.function.parameters.properties.kind.const'],
    },
  ],
  responses: [
    { name: 'a plain tool call', model: 'gemini-2.5-flash', response: toolCall, expected: { name: 'input_text', args: { index: 7, text: 'weather in Lyon' } } },
    { name: 'MALFORMED_FUNCTION_CALL is a retryable invalid_schema', model: 'gemini-2.5-flash', response: malformedFunctionCall, expected: { error: 'invalid_schema' } },
    { name: 'SAFETY', model: 'gemini-2.5-pro', response: safety, expected: { error: 'content_filter' } },
    { name: '400 API key not valid (array-wrapped body) is auth_error', model: 'gemini-2.5-flash', status: 400, response: apiKeyInvalid, expected: { error: 'auth_error' } },
    { name: '400 input token count exceeds the maximum', model: 'gemini-2.5-flash', status: 400, response: contextLength, expected: { error: 'context_length' } },
    { name: '429 per-minute limit stays rate_limit', model: 'gemini-2.5-flash', status: 429, response: rateLimit, expected: { error: 'rate_limit' } },
    { name: '429 with limit: 0 is quota_exceeded', model: 'gemini-2.5-pro', status: 429, response: zeroQuota, expected: { error: 'quota_exceeded' } },
    { name: '429 with limit: 0 and a retry hint is still quota_exceeded', model: 'gemini-2.5-pro', status: 429, response: zeroQuotaRetryHint, expected: { error: 'quota_exceeded' } },
  ],
  // The adapter's own answer; the class a user sees (adapter, then the SDK's reading) is pinned below.
  finishes: [
    { reason: 'TOO_MANY_TOOL_CALLS', expected: 'malformed' },
    { reason: 'too_many_tool_calls', expected: 'malformed' },
    { reason: 'STOP', expected: undefined },
    { reason: 'tool_calls', expected: undefined },
    { reason: 'constructor', expected: undefined },
    { reason: null, expected: undefined },
  ],
})

testAdapter(geminiAdapter({ reasoningEffort: 'high' }), {
  requests: [{ name: 'the reasoningEffort option wins', model: 'gemini-2.5-flash', after: { reasoning_effort: 'high' } }],
})

const context = (model: string): AdapterContext => ({
  model,
  modelId: normalizeModelName(model),
  baseURL: 'https://generativelanguage.googleapis.com/v1beta/openai',
  host: 'generativelanguage.googleapis.com',
  adapters: ['gemini', 'openai'],
  tools: {},
  stream: false,
})

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    Object.freeze(value)
    for (const child of Object.values(value)) deepFreeze(child)
  }
  return value
}

describe('geminiAdapter', () => {
  it('should send the schema subset Gemini accepts without touching the frozen original', () => {
    const tool = deepFreeze(structuredClone(strictTool))
    const body: ChatRequest = { model: 'gemini-2.5-flash', messages: [], tools: [tool] }
    const patched = geminiAdapter().patchRequest!(body, context('gemini-2.5-flash')) ?? body
    expect(patched.tools![0]!.function.parameters).toEqual({
      type: 'object',
      properties: {
        kind: { type: 'string', enum: ['tab'] },
        labels: { type: 'object' },
        note: { type: 'string', nullable: true },
      },
      required: ['kind'],
    })
    expect(tool).toEqual(strictTool)
  })

  it('should reuse one converted copy per tool definition, and leave a converted one alone', () => {
    const adapter = geminiAdapter()
    const tool = deepFreeze(structuredClone(strictTool))
    const body: ChatRequest = { model: 'gemini-2.5-flash', messages: [], tools: [tool] }
    adapter.patchRequest!(body, context('gemini-2.5-flash'))
    const converted = body.tools![0]!
    expect(converted).not.toBe(tool)
    const again: ChatRequest = { model: 'gemini-2.5-flash', messages: [], tools: [tool] }
    adapter.patchRequest!(again, context('gemini-2.5-flash'))
    expect(again.tools![0]).toBe(converted)
    adapter.patchRequest!(again, context('gemini-2.5-flash'))
    expect(again.tools![0]).toBe(converted)
  })

  it("should take retryAfterMs from Gemini's rate-limit body when no header gave one", async () => {
    const failWith = (headers: Record<string, string>) =>
      createClient({
        baseURL: 'https://generativelanguage.googleapis.com/v1beta/openai',
        model: 'gemini-2.5-flash',
        adapters: [geminiAdapter()],
        maxRetries: 0,
        customFetch: async () => new Response(JSON.stringify(rateLimit), { status: 429, headers }),
      })
        .invoke([{ role: 'user', content: 'go' }], { done: defineTool({ inputSchema: z.object({ text: z.string() }) }) })
        .catch((error: unknown) => error)
    expect(await failWith({})).toMatchObject({ type: 'rate_limit', retryAfterMs: 37_500, retryable: true })
    expect(await failWith({ 'retry-after-ms': '5000' })).toMatchObject({ type: 'rate_limit', retryAfterMs: 5_000 })
  })

  it('should turn oneOf into anyOf, a multi-type into anyOf and exclusive bounds into inclusive ones', () => {
    expect(
      toGeminiSchema({
        type: 'object',
        properties: {
          target: { oneOf: [{ type: 'integer', exclusiveMinimum: 0 }, { type: 'string', maxLength: 20 }] },
          value: { type: ['number', 'boolean'] },
          additionalProperties: { type: 'string' },
        },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        target: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string', maxLength: 20 }] },
        value: { anyOf: [{ type: 'number' }, { type: 'boolean' }] },
        // A property that happens to be called additionalProperties is a property, not the keyword.
        additionalProperties: { type: 'string' },
      },
    })
  })

  it('should rewrite schemas inside $defs, items and anyOf, and leave property names alone', () => {
    expect(
      toGeminiSchema({
        type: 'object',
        properties: {
          const: { const: 'fixed' },
          oneOf: { type: 'array', items: { type: ['integer', 'null'], exclusiveMaximum: 10, maximum: 5 } },
          type: { anyOf: [{ type: 'string', propertyNames: { minLength: 1 } }, { type: 'null' }] },
        },
        $defs: { Item: { type: 'object', additionalProperties: false, properties: { id: { const: 7 } } } },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        const: { type: 'string', enum: ['fixed'] },
        // The schema's own maximum wins over the exclusive bound it would replace.
        oneOf: { type: 'array', items: { type: 'integer', nullable: true, maximum: 5 } },
        type: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      },
      // A constant that is not a string is left to local validation.
      $defs: { Item: { type: 'object', properties: { id: {} } } },
    })
  })

  it("should read only Gemini's own keywords, never a name inherited from Object.prototype", () => {
    expect(toGeminiSchema({ type: ['null'], default: { constructor: 'Point', toString: 'x' }, description: 'a point' })).toEqual({
      nullable: true,
      default: { constructor: 'Point', toString: 'x' },
      description: 'a point',
    })
  })
})

describe('geminiAdapter finish reasons', () => {
  // What a user sees: the adapter's class, else the SDK's own reading of the reason.
  it.each([
    ['STOP', 'ok'],
    ['MAX_TOKENS', 'truncated'],
    ...['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'LANGUAGE'].map((reason) => [reason, 'filtered']),
    ...['MALFORMED_FUNCTION_CALL', 'malformed_function_call', 'UNEXPECTED_TOOL_CALL', 'TOO_MANY_TOOL_CALLS'].map((reason) => [reason, 'malformed']),
    ['OTHER', 'unknown'],
    ['FINISH_REASON_UNSPECIFIED', 'unknown'],
    ['tool_calls', 'ok'],
  ])('should classify %s as %s', (reason, expected) => {
    const adapter = geminiAdapter()
    expect(adapter.classifyFinish!(reason, context('gemini-2.5-flash')) ?? classifyFinish(reason)).toBe(expected)
  })
})

const call = (id: string, extra?: Record<string, unknown>): ChatToolCall => ({ id, type: 'function', function: { name: 'scroll', arguments: '{"down":true}' }, ...(extra ? { extra_content: extra } : {}) })

function patchMessages(model: string, messages: ChatMessage[]): ChatMessage[] {
  const body: ChatRequest = { model, messages, tools: [] }
  return (geminiAdapter().patchRequest!(body, context(model)) ?? body).messages
}

describe('geminiAdapter thought signatures', () => {
  const cases: Array<{ name: string; model: string; calls: ChatToolCall[]; expected: Array<Record<string, unknown> | undefined> }> = [
    { name: 'adds the sentinel to an unsigned single call', model: 'gemini-3-flash-preview', calls: [call('a')], expected: [{ google: { thought_signature: SKIP } }] },
    {
      name: 'signs only the first of parallel calls (Gemini signs only the first)',
      model: 'gemini-3-pro-preview',
      calls: [call('a'), call('b')],
      expected: [{ google: { thought_signature: SKIP } }, undefined],
    },
    { name: 'keeps a real signature', model: 'gemini-3-pro-preview', calls: [call('a', { google: { thought_signature: 'CiQBreal' } })], expected: [{ google: { thought_signature: 'CiQBreal' } }] },
    { name: "keeps a signature under Vertex's namespace", model: 'gemini-3-pro-preview', calls: [call('a', { vertex: { thought_signature: 'CiQBvertex' } })], expected: [{ vertex: { thought_signature: 'CiQBvertex' } }] },
    {
      name: 'keeps the other extra_content fields beside the sentinel',
      model: 'gemini-3.1-pro-preview',
      calls: [call('a', { google: { cached: true }, trace: 'x' })],
      expected: [{ google: { cached: true, thought_signature: SKIP }, trace: 'x' }],
    },
    { name: 'treats an empty signature as missing', model: 'gemini-3-pro-preview', calls: [call('a', { google: { thought_signature: '' } })], expected: [{ google: { thought_signature: SKIP } }] },
    { name: 'leaves gemini-2.5-pro alone', model: 'gemini-2.5-pro', calls: [call('a')], expected: [undefined] },
    { name: 'leaves gemini-2.5-flash alone', model: 'gemini-2.5-flash', calls: [call('a'), call('b')], expected: [undefined, undefined] },
  ]

  it.each(cases)('should $name ($model)', ({ model, calls, expected }) => {
    const [sent] = patchMessages(model, [{ role: 'assistant', content: null, tool_calls: calls }])
    expect(sent!.tool_calls!.map((toolCall) => toolCall.extra_content)).toEqual(expected)
    expect(sent!.tool_calls!.map((toolCall) => toolCall.id)).toEqual(calls.map((toolCall) => toolCall.id))
  })

  it("should copy what it changes and leave the caller's frozen messages and the untouched ones as they are", () => {
    const messages = deepFreeze<ChatMessage[]>([
      { role: 'system', content: 'Browse.' },
      { role: 'user', content: 'Scroll, then finish.' },
      { role: 'assistant', content: 'Scrolling.', tool_calls: [call('a'), call('b')] },
      { role: 'tool', tool_call_id: 'a', content: 'Scrolled.' },
      { role: 'assistant', content: null, tool_calls: [call('c', { google: { thought_signature: 'CiQBreal' } })] },
      { role: 'assistant', content: 'No call here.' },
      { role: 'assistant', content: null, tool_calls: [] },
    ])
    const before = structuredClone(messages)
    const sent = patchMessages('gemini-3-flash-preview', messages)
    expect(messages).toEqual(before)
    expect(sent).toHaveLength(messages.length)
    for (const index of [0, 1, 3, 4, 5, 6]) expect(sent[index], `message ${index}`).toBe(messages[index])
    expect(sent[2]).toEqual({ ...messages[2], tool_calls: [{ ...call('a'), extra_content: { google: { thought_signature: SKIP } } }, call('b')] })
    // The second call is passed on as it was, not copied.
    expect(sent[2]!.tool_calls![1]).toBe(messages[2]!.tool_calls![1])
  })

  it('should leave tool_calls on a message that is not the assistant, and malformed ones, alone', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'hi', tool_calls: [call('a')] },
      { role: 'assistant', content: null, tool_calls: 'none' as unknown as ChatToolCall[] },
      { role: 'assistant', content: null, tool_calls: [null as unknown as ChatToolCall] },
    ]
    const sent = patchMessages('gemini-3-pro-preview', messages)
    sent.forEach((message, index) => expect(message).toBe(messages[index]))
  })
})

describe('geminiAdapter thought signatures over HTTP', () => {
  let server: Awaited<ReturnType<typeof startScriptedServer>> | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })

  const tools = {
    input_text: defineTool({ inputSchema: z.object({ index: z.number(), text: z.string() }), execute: async ({ text }) => `typed ${text}` }),
  }

  // Like Gemini 3: the first request gets a signed call; a later one whose history call has no
  // signature gets the 400 Google sends, any other the same call again.
  function geminiLike(request: RecordedRequest): ScriptedReply {
    const history = request.body.messages.find((message) => message.role === 'assistant')
    if (history && !(history.tool_calls?.[0]?.extra_content as { google?: { thought_signature?: string } } | undefined)?.google?.thought_signature) {
      return {
        status: 400,
        body: [{ error: { code: 400, message: 'Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly.', status: 'INVALID_ARGUMENT' } }],
      }
    }
    return { body: signedToolCall }
  }

  async function twoSteps(model: string, keepSignature: boolean) {
    server = await startScriptedServer({ script: geminiLike })
    const client = createClient({ baseURL: server.url, model, adapters: [geminiAdapter()], maxRetries: 0 })
    const messages: ChatMessage[] = [{ role: 'user', content: 'Look up the weather in Lyon.' }]
    const result = await client.invoke(messages, tools)
    const { toolCall } = result
    // The README's snippet: the model's own call, found by the id in result.toolCall, carries the signature.
    const sent = (result.rawResponse as ChatResponse).choices[0]?.message.tool_calls?.find((candidate) => candidate.id === toolCall.id)
    messages.push(
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          // `extra_content: sent?.extra_content` as in the README; left out, as most apps do, when not kept.
          { id: toolCall.id, type: 'function', function: { name: toolCall.name, arguments: JSON.stringify(toolCall.args) }, extra_content: keepSignature ? sent?.extra_content : undefined },
        ],
      },
      { role: 'tool', tool_call_id: toolCall.id, content: String(result.toolResult) },
    )
    await client.invoke(messages, tools)
    return server.requests[1]!.body.messages[1]!.tool_calls![0]!
  }

  it('should send the sentinel on a history call rebuilt from result.toolCall, which Gemini 3 would refuse', async () => {
    const sent = await twoSteps('gemini-3-flash-preview', false)
    expect(sent).toMatchObject({ id: 'function-call-4417210985634521877', extra_content: { google: { thought_signature: SKIP } } })
  })

  it('should send the real signature an app copied from rawResponse, as Google returned it', async () => {
    const sent = await twoSteps('gemini-3-flash-preview', true)
    expect(sent.extra_content).toEqual(signedToolCall.choices[0]!.message.tool_calls[0]!.extra_content)
  })

  it('should send a gemini-2.5 history call without extra_content', async () => {
    server = await startScriptedServer({ script: [{ body: signedToolCall }] })
    const client = createClient({ baseURL: server.url, model: 'gemini-2.5-flash', adapters: [geminiAdapter()], maxRetries: 0 })
    await client.invoke([{ role: 'user', content: 'Weather in Lyon?' }, { role: 'assistant', content: null, tool_calls: [call('a')] }, { role: 'tool', tool_call_id: 'a', content: 'Scrolled.' }], tools)
    expect(server.requests[0]!.body.messages[1]!.tool_calls![0]).toEqual(call('a'))
  })
})
