import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createClient, createMacroTool, defineTool, repairToolCall } from '../index'
import { sseChunks, startScriptedServer, type ScriptedServer } from '../testing'
import type { ChatResponseMessage } from '../types'
import type { StreamEvent } from '../client/stream-run'
import type { ToolSet } from '../tool/types'
import { createBrowserTools } from './__fixtures__/browser-tools'
import { failure } from './__fixtures__/failure'

// Verdicts on what a model wrote: which call it is, or that there is none. Each case is a whole
// answer as a model writes it, and the expectation is what the user must see.

const executed: string[] = []
const tool = <S extends z.ZodType>(name: string, inputSchema: S) => defineTool({ description: name, inputSchema, execute: async (input) => (executed.push(name), input) })
const get_age = tool('get_age', z.object({ name: z.string() }))
const get_time = tool('get_time', z.object({ tz: z.string() }))
const search = tool('search', z.object({ query: z.string(), limit: z.number().optional() }))
const lookup = tool('lookup', z.object({ query: z.string().optional(), limit: z.number().optional() }))
const finish = tool('finish', z.object({}))
const register = tool('register', z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()) }))
const AgentOutput = createMacroTool(createBrowserTools())

const content = (text: string, extra: Partial<ChatResponseMessage> = {}): ChatResponseMessage => ({ role: 'assistant', content: text, ...extra })
const SEARCH_X = { name: 'search', args: { query: 'x' } }
const native = (name: string, args: string): ChatResponseMessage => ({ role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name, arguments: args } }] })


describe('repairToolCall', () => {
  describe('envelopes by role', () => {
    it.each([
      ['arguments first', '{"arguments": {"name": "John"}, "name": "get_age"}'],
      ['name first', '{"name": "get_age", "arguments": {"name": "John"}}'],
      ['in a Hermes block', '<tool_call>\n{"arguments": {"name": "John"}, "name": "get_age"}\n</tool_call>'],
    ])("should let the envelope's own name name the tool and keep an argument called name (%s)", (_label, text) => {
      for (const tools of [{ get_age, get_time }, { get_age }] as ToolSet[]) {
        expect(repairToolCall(content(text), tools).toolCall).toEqual({ name: 'get_age', args: { name: 'John' } })
      }
    })

    it('should read an envelope repeated in native arguments by role, not strip it to the tool name', () => {
      const result = repairToolCall(native('get_age', '{"arguments": {"name": "John"}, "name": "get_age"}'), { get_age, get_time })
      expect(result.toolCall).toEqual({ id: 'c1', name: 'get_age', args: { name: 'John' } })
    })

    it('should keep arguments that look like an envelope naming another tool as arguments', () => {
      expect(repairToolCall(content('{"name": "get_age", "arguments": {"name": "get_time"}}'), { get_age, get_time }).toolCall).toEqual({ name: 'get_age', args: { name: 'get_time' } })
      expect(repairToolCall(native('get_age', '{"name": "get_time"}'), { get_age, get_time }).toolCall).toEqual({ id: 'c1', name: 'get_age', args: { name: 'get_time' } })
    })

    it('should remove an envelope layer the model repeated', () => {
      const text = '{"name": "get_age", "arguments": {"name": "get_age", "arguments": {"name": "John"}}}'
      expect(repairToolCall(content(text), { get_age, get_time }).toolCall).toEqual({ name: 'get_age', args: { name: 'John' } })
    })

    it('should read a sole tool whose fields are name and parameters by the envelope first, by its fields when that fails', () => {
      const named = tool('named', z.object({ name: z.string(), parameters: z.string() }))
      expect(repairToolCall(content('{"name": "named", "parameters": {"name": "a", "parameters": "b"}}'), { named }).toolCall.args).toEqual({ name: 'a', parameters: 'b' })
      expect(repairToolCall(content('{"name": "named", "parameters": "b"}'), { named }).toolCall.args).toEqual({ name: 'named', parameters: 'b' })
    })

    it('should not end a Hermes block at a closing tag written inside its JSON strings', () => {
      const text = '<tool_call>\n{"name": "search", "arguments": {"query": "say </tool_call> then <tool_call> and {}"}}\n</tool_call>'
      const result = repairToolCall(content(text), { search, get_time })
      expect(result.toolCall).toEqual({ name: 'search', args: { query: 'say </tool_call> then <tool_call> and {}' } })
      expect(result.dropped).toEqual([])
    })

    it('should keep the fields of a tool whose own fields are name and arguments', () => {
      const args = '{"name": "x", "arguments": {"a": 1}}'
      expect(repairToolCall(native('register', args), { register, get_time }).toolCall.args).toEqual({ name: 'x', arguments: { a: 1 } })
      expect(repairToolCall(content(`{"name": "register", "arguments": ${args}}`), { register, get_time }).toolCall.args).toEqual({ name: 'x', arguments: { a: 1 } })
    })
  })

  describe('unclosed calls under a normal finish', () => {
    it.each([
      ['a Hermes block cut after a key', '<tool_call>\n{"name": "search", "arguments": {"query": "x", "limit":', 'no_tool_call'],
      ['prose ending in {', 'Let me search for that: {', 'no_tool_call'],
      ['an unclosed brace after a comma', '{"query": "x",', 'no_tool_call'],
      ['a key with no value', '{"name": "search", "arguments": {"query"', 'no_tool_call'],
      ['a literal cut short', '{"name": "search", "arguments": {"query": "x", "limit": nu', 'no_tool_call'],
      ['a pythonic call never closed', '[search(query="x"', 'no_tool_call'],
    ])('should call %s malformed, retryable, not cut off', (_label, text, type) => {
      const error = failure(() => repairToolCall(content(text), { search, get_time }))
      expect(error).toMatchObject({ type, retryable: true })
      expect(error.message).toContain('never closed, though the output was not cut off')
    })

    it('should name the tool when its native arguments are unclosed', () => {
      const error = failure(() => repairToolCall(native('search', '{"query": "x'), { search, get_time }))
      expect(error).toMatchObject({ type: 'invalid_tool_args', retryable: true })
      expect(error.message).toContain('"search" end inside a value that is never closed')
    })

    it.each([
      ['after an unclosed Hermes block', '<tool_call>\n{"name": "search", "arguments": {"query": "x"\n</tool_call>\n<tool_call>\n{"name": "search", "arguments": {"query": "y"}}\n</tool_call>'],
      ['after an unclosed bare object', '{"name": "search", "arguments": {"query": "x"\n<tool_call>\n{"name": "search", "arguments": {"query": "y"}}\n</tool_call>'],
      ['after a broken envelope', '{"name": "search", "arguments": {"query": }}\n{"name": "search", "arguments": {"query": "y"}}'],
    ])('should take the complete valid call %s', (_label, text) => {
      expect(repairToolCall(content(text), { search, get_time }).toolCall).toEqual({ name: 'search', args: { query: 'y' } })
    })
  })

  describe('JSON short of its last closers under a normal finish', () => {
    it.each([
      ['a Hermes block missing its outer brace and end tag (Qwen2.5 1.5B)', '<tool_call>\n{"name": "search", "arguments": {"query": "x"}', SEARCH_X],
      ['bare Llama JSON missing both braces', '{"name": "search", "parameters": {"query": "x"', SEARCH_X],
      ['prose, then a call ending in a number', "I'll look that up.\n{\"name\": \"search\", \"arguments\": {\"query\": \"x\", \"limit\": 5", { name: 'search', args: { query: 'x', limit: 5 } }],
      ['a list of one call missing its ]', '[{"name": "search", "arguments": {"query": "x"}}', SEARCH_X],
      ['a wrapper missing its ]}', '{"tool_calls": [{"name": "search", "arguments": {"query": "x"}}', SEARCH_X],
      ['an open fence around it', '```json\n{"name": "search", "arguments": {"query": "x"}\n', SEARCH_X],
    ])('should take %s as complete', (_label, text, call) => {
      const result = repairToolCall(content(text), { search, get_time })
      expect(result.toolCall).toEqual(call)
      expect(result.fixes).toContain('closed-json')
    })

    it('should report the calls after the first in a list short of its ], each with its own values', () => {
      const result = repairToolCall(content('[{"name": "search", "arguments": {"query": "x"}}, {"name": "get_time", "arguments": {"tz": "UTC"}}'), { search, get_time })
      expect(result.toolCall).toEqual(SEARCH_X)
      expect(result.dropped).toEqual([{ name: 'get_time', args: { tz: 'UTC' }, reason: 'extra' }])
    })
  })

  describe('Llama 3.x calls with tools in the prompt', () => {
    const save = tool('save', z.object({ key: z.string(), data: z.record(z.string(), z.unknown()) }))
    const field = tool('field', z.object({ spec: z.object({ type: z.enum(['string', 'number']), description: z.string().optional() }) }))
    const tools: ToolSet = { search, lookup, save, field }

    it.each([
      ['bare', '{"type": "function", "name": "search", "parameters": {"query": "x"}}'],
      ['after <|python_tag|>', '<|python_tag|>{"type": "function", "name": "search", "parameters": {"query": "x"}}<|eom_id|>'],
      ['with the function layer', '{"type": "function", "function": {"name": "search", "parameters": {"query": "x"}}}'],
    ])('should read {"type": "function", "name", "parameters"} as name and arguments (%s)', (_label, text) => {
      expect(repairToolCall(content(text), tools).toolCall).toEqual(SEARCH_X)
    })

    it.each([
      ['the whole parameter schema, for a tool whose fields are all optional', 'lookup', '{"type": "function", "name": "lookup", "parameters": {"type": "object", "properties": {"query": {"type": "string", "description": "What to look up"}}, "required": []}}'],
      ['a field schema for a free-form object', 'save.data', '{"type": "function", "name": "save", "parameters": {"key": "notes", "data": {"type": "object", "description": "The data to store"}}}'],
      ['a field schema lifted out of a properties layer', 'lookup.query', '{"name": "lookup", "parameters": {"properties": {"query": {"type": "string", "description": "What to look up"}}}}'],
      ['a field schema in a pythonic call', 'lookup.query', '[lookup(query={"type": "string", "description": "the query"})]'],
    ])('should call a JSON schema echoed where values belong invalid (%s), never executing it', (_label, where, text) => {
      const error = failure(() => repairToolCall(content(text), tools))
      expect(error.type).toBe('invalid_tool_args')
      expect(error.message).toContain(`${where}: expected a value, got the JSON schema of one`)
    })

    it('should keep an object whose schema has a type field of its own as the value it is', () => {
      const text = '{"type": "function", "name": "field", "parameters": {"spec": {"type": "string", "description": "A name"}}}'
      expect(repairToolCall(content(text), tools).toolCall).toEqual({ name: 'field', args: { spec: { type: 'string', description: 'A name' } } })
    })

    it('should take the real call after an echoed tool definition, reporting the echo', () => {
      const text = '{"type": "function", "name": "lookup", "parameters": {"type": "object", "properties": {"query": {"type": "string"}}}}\n{"type": "function", "name": "search", "parameters": {"query": "x"}}'
      const result = repairToolCall(content(text), tools)
      expect(result.toolCall).toEqual(SEARCH_X)
      expect(result.dropped).toHaveLength(1)
    })
  })

  describe('JSON that names no tool', () => {
    it.each([
      ['keys that are none of its fields', '{"foo": 1}'],
      ['an empty object', '{}'],
      ['a list of numbers', '[1, 2]'],
      ['a list of objects without its fields', '[{"foo": 1}]'],
    ])('should not call a sole tool whose fields are all optional with %s', (_label, text) => {
      executed.length = 0
      expect(failure(() => repairToolCall(content(`Here you go: ${text}`), { lookup })).type).toBe('no_tool_call')
      expect(failure(() => repairToolCall(content(text), { lookup, search }, { toolChoiceName: 'lookup' })).type).toBe('no_tool_call')
    })

    it('should take an object with at least one field of the sole or chosen tool', () => {
      expect(repairToolCall(content('{"query": "x", "foo": 1}'), { lookup }).toolCall).toEqual({ name: 'lookup', args: { query: 'x' } })
      expect(repairToolCall(content('{"limit": 3}'), { lookup, search }, { toolChoiceName: 'lookup' }).toolCall).toEqual({ name: 'lookup', args: { limit: 3 } })
    })

    it('should take an empty object for a tool without fields, and nothing else', () => {
      expect(repairToolCall(content('{}'), { finish }).toolCall).toEqual({ name: 'finish', args: {} })
      expect(failure(() => repairToolCall(content('{"text": "done"}'), { finish })).type).toBe('no_tool_call')
    })

    it.each([
      ['touching the JSON', 'web_search{"query": "x"}'],
      ['around the JSON', 'web_search({"query": "x"})'],
      ['on the line above', 'I will search.\nweb_search\n{"query": "x"}'],
      ['namespaced', 'functions.web_search{"query": "x"}'],
    ])('should keep a tool that was not offered as the name written %s, never moving the call onto another tool', (_label, text) => {
      for (const options of [{}, { toolChoiceName: 'lookup' }]) {
        const error = failure(() => repairToolCall(content(text), { lookup }, options))
        expect(error.type).toBe('invalid_tool_args')
        expect(error.message).toContain('unknown tool "web_search"')
      }
    })

    it('should take a known name written before the JSON as its name', () => {
      expect(repairToolCall(content('search\n{"query": "x"}'), { search, lookup }).toolCall).toEqual({ name: 'search', args: { query: 'x' } })
      expect(repairToolCall(content('search{"query": "x"}'), { search, lookup }).toolCall).toEqual({ name: 'search', args: { query: 'x' } })
    })

    it('should not take a label or a prose word on the line above as a name', () => {
      for (const label of ['json', 'JSON', 'Output', 'Sure', 'tool_call']) {
        expect(repairToolCall(content(`${label}\n{"query": "x"}`), { search }).toolCall, label).toEqual({ name: 'search', args: { query: 'x' } })
      }
    })

    it('should let the JSON name its own tool even under an unknown word', () => {
      expect(repairToolCall(content('web_search\n{"name": "search", "arguments": {"query": "x"}}'), { search, lookup }).toolCall).toEqual({ name: 'search', args: { query: 'x' } })
    })
  })

  describe('dropped calls of JSON-envelope formats', () => {
    const A = { name: 'search', arguments: { query: 'a', limit: 5 } }
    const B = { name: 'get_time', arguments: { tz: 'UTC' } }
    const tojson = (value: unknown) => JSON.stringify(value)
    it.each([
      ['Hermes blocks', `<tool_call>\n${tojson(A)}\n</tool_call>\n<tool_call>\n${tojson(B)}\n</tool_call>`],
      ['LongCat blocks', `<longcat_tool_call>\n${tojson(A)}\n</longcat_tool_call><longcat_tool_call>\n${tojson(B)}\n</longcat_tool_call>`],
      ['a Granite list', `<|tool_call|>[${tojson(A)}, ${tojson(B)}]`],
      ['a Mistral list', `[TOOL_CALLS] [${tojson({ ...A, id: 'abc123def' })}, ${tojson({ ...B, id: 'k9x2m1p0q' })}]`],
      ['Granite-20B markers', `<function_call> ${tojson(A)}\n<function_call> ${tojson(B)}`],
      ['InternLM2 actions', `<|action_start|><|plugin|>\n${tojson({ name: A.name, parameters: A.arguments })}<|action_end|><|action_start|><|plugin|>\n${tojson({ name: B.name, parameters: B.arguments })}<|action_end|>`],
      ['an xLAM list', `[${tojson(A)}, ${tojson(B)}]`],
    ])('should take the first of %s and name the other with its arguments', (_label, text) => {
      const result = repairToolCall(content(text), { search, get_time })
      expect(result.toolCall).toMatchObject({ name: 'search', args: { query: 'a', limit: 5 } })
      expect(result.dropped).toEqual([{ name: 'get_time', args: { tz: 'UTC' }, reason: 'extra' }])
      expect(result.fixes).toContain('dropped-calls:1')
    })

    it('should name a call that failed before the one taken, with its own arguments', () => {
      const text = `<tool_call>\n${tojson({ name: 'get_time', arguments: { zone: 'UTC' } })}\n</tool_call>\n<tool_call>\n${tojson(A)}\n</tool_call>`
      const result = repairToolCall(content(text), { search, get_time })
      expect(result.toolCall.name).toBe('search')
      expect(result.dropped).toEqual([{ name: 'get_time', args: { zone: 'UTC' }, reason: expect.stringContaining('get_time.tz') }])
    })
  })

  describe('prose is prose', () => {
    const notACall = (message: string) => {
      for (const claim of ['JSON', 'unknown tool', 'arguments', 'expected object', 'called']) expect(message).not.toContain(claim)
    }

    it.each([
      ['a citation alone', '[1]'],
      ['citations in a sentence', 'Paris is the capital of France [1][2].'],
      ['a list of citations', 'Sources: [1], [2], [3]'],
      ['a numbered reference', 'See [12] and [3, 4] for details.'],
      ["xLAM's empty list (its way of calling nothing)", '[]'],
      ['an empty Granite call list', '<|tool_call|>[]'],
    ])('should answer no_tool_call for %s, claiming no call', (_label, text) => {
      for (const [tools, options] of [
        [{ search }, {}],
        [{ search, get_time }, {}],
        [{ search, get_time }, { toolChoiceName: 'search' }],
        [{ AgentOutput }, { toolChoiceName: 'AgentOutput' }],
      ] as Array<[ToolSet, { toolChoiceName?: string }]>) {
        const error = failure(() => repairToolCall(content(text), tools, options))
        expect(error.type).toBe('no_tool_call')
        notACall(error.message)
      }
    })

    it.each([
      ['letter positions', 'Spell it: s(1), t(2), r(3), a(4), w(5).'],
      ['a function in maths', 'Then f(x) = 2x, so f(3) = 6 and g(f(3)) = 7.'],
      ['a keyword call in a sentence', 'In Python you would write open(file="a.txt") here.'],
      ['a bracketed aside', 'The ratio (roughly 2:1) holds [see (3)].'],
    ])('should not read %s in the reasoning or the answer as a call', (_label, text) => {
      const inReasoning = failure(() => repairToolCall(content('The word has five letters.', { reasoning_content: text }), { search, get_time }))
      expect(inReasoning.type).toBe('no_tool_call')
      notACall(inReasoning.message)
      const inAnswer = failure(() => repairToolCall(content(text), { search, get_time }))
      expect(inAnswer.type).toBe('no_tool_call')
      notACall(inAnswer.message)
    })

    it('should still read a known tool written as a call in prose', () => {
      expect(repairToolCall(content('I will now call search(query="x").'), { search, get_time }).toolCall).toEqual({ name: 'search', args: { query: 'x' } })
    })

    it("should read Magistral's thinking parts as reasoning, never as the answer", () => {
      const thinking = (text: string) => ({ type: 'thinking', thinking: [{ type: 'text', text }] })
      const message = (parts: unknown[]): ChatResponseMessage => ({ role: 'assistant', content: parts as ChatResponseMessage['content'] })
      const noCall = failure(() => repairToolCall(message([thinking('Letters: s(1), t(2).'), { type: 'text', text: 'The answer is 4.' }]), { search, get_time }))
      expect(noCall.type).toBe('no_tool_call')
      expect(noCall.message).toContain('"The answer is 4."')
      expect(noCall.message).not.toContain('Letters')
      // A call only drafted in the thinking is taken when the answer holds none, as for reasoning_content.
      const drafted = repairToolCall(message([thinking('{"name": "search", "arguments": {"query": "q"}}'), { type: 'text', text: 'ok' }]), { search, get_time })
      expect(drafted.toolCall).toEqual({ name: 'search', args: { query: 'q' } })
      expect(drafted.fixes).toContain('call-in-reasoning')
      // A call in the answer wins over the draft.
      const answered = repairToolCall(message([thinking('{"name": "search", "arguments": {"query": "draft"}}'), { type: 'text', text: '{"name": "search", "arguments": {"query": "final"}}' }]), { search, get_time })
      expect(answered.toolCall.args).toEqual({ query: 'final' })
    })
  })
})

describe('client verdicts over HTTP', () => {
  let server: ScriptedServer
  beforeAll(async () => {
    server = await startScriptedServer({ script: [] })
  })
  afterAll(() => server.close())
  const messages = [{ role: 'user' as const, content: 'go' }]
  const reply = (message: Record<string, unknown>, finish_reason: string, usage?: Record<string, number>) => ({
    body: { id: 'x', object: 'chat.completion', model: 'm', choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason }], ...(usage ? { usage } : {}) },
  })

  async function outcome(run: Promise<unknown>) {
    try {
      return { result: await run }
    } catch (error) {
      return { error: error as { type: string; retryable: boolean; message: string } }
    }
  }

  it.each(['stop', 'eos', 'tool_calls', 'end_turn'])('should retry an unclosed call under finish_reason %s as malformed, never executing it', async (reason) => {
    executed.length = 0
    server.setScript([reply({ content: '<tool_call>\n{"name": "search", "arguments": {"query": "x", "limit":' }, reason), reply({ content: '<tool_call>\n{"name": "search", "arguments": {"query": "y"}}\n</tool_call>' }, 'stop')])
    const client = createClient({ baseURL: server.url, model: 'm', retry: { limit: 1, baseDelayMs: 1, maxDelayMs: 1 } })
    const { result } = await outcome(client.invoke(messages, { search, get_time }))
    expect(result).toMatchObject({ toolCall: { name: 'search', args: { query: 'y' } }, attempts: 2 })
    expect(executed).toEqual(['search'])
  })

  it('should execute JSON short of only its last closers under stop, and never under length', async () => {
    executed.length = 0
    const client = createClient({ baseURL: server.url, model: 'm', maxRetries: 0 })
    const short = { content: '<tool_call>\n{"name": "search", "arguments": {"query": "x"}' }
    server.setScript([reply(short, 'length')])
    expect((await outcome(client.invoke(messages, { search, get_time }))).error).toMatchObject({ type: 'output_truncated', retryable: false })
    expect(executed).toEqual([])
    server.setScript([reply(short, 'stop')])
    expect((await outcome(client.invoke(messages, { search, get_time }))).result).toMatchObject({ toolCall: { name: 'search', args: { query: 'x' } }, fixes: expect.arrayContaining(['closed-json']) })
    expect(executed).toEqual(['search'])
  })

  it('should say cut off only when the finish reason says length or the completion reached max_tokens', async () => {
    const client = createClient({ baseURL: server.url, model: 'm', maxRetries: 0 })
    const unclosed = { content: '<tool_call>\n{"name": "search", "arguments": {"query": "x", "limit":' }
    server.setScript([reply(unclosed, 'length')])
    expect((await outcome(client.invoke(messages, { search }))).error).toMatchObject({ type: 'output_truncated', retryable: false })
    server.setScript([reply(unclosed, 'stop', { prompt_tokens: 5, completion_tokens: 64, total_tokens: 69 })])
    expect((await outcome(client.invoke(messages, { search }, { maxTokens: 64 }))).error).toMatchObject({ type: 'output_truncated' })
    server.setScript([reply(unclosed, 'stop', { prompt_tokens: 5, completion_tokens: 20, total_tokens: 25 })])
    const malformed = (await outcome(client.invoke(messages, { search }, { maxTokens: 64 }))).error
    expect(malformed).toMatchObject({ type: 'no_tool_call', retryable: true })
    expect(malformed?.message).toContain('not cut off')
  })

  it("should never execute an undeclared tool from Groq's failed_generation on the tool whose fields fit", async () => {
    executed.length = 0
    const failed = { error: { message: 'Failed to call a function. Please adjust your prompt.', type: 'invalid_request_error', code: 'tool_use_failed', failed_generation: 'web_search{"query": "weather in Paris"}' } }
    server.setScript([{ status: 400, body: failed }])
    const client = createClient({ baseURL: server.url, model: 'llama-3.3-70b-versatile', maxRetries: 0 })
    const { error } = await outcome(client.invoke(messages, { lookup }, { toolChoiceName: 'lookup' }))
    expect(error).toMatchObject({ type: 'invalid_tool_args', retryable: true })
    expect(error?.message).toContain('unknown tool "web_search"')
    expect(executed).toEqual([])
  })

  it('should stream thinking parts as reasoning events and read them as the invoke does', async () => {
    const part = (content: unknown[]) => ({ id: 's', object: 'chat.completion.chunk', model: 'magistral', choices: [{ index: 0, delta: { content }, finish_reason: null }] })
    const thinking = (text: string) => ({ type: 'thinking', thinking: [{ type: 'text', text }] })
    server.setScript([
      {
        chunks: sseChunks([
          part([thinking('Spell: s(1), ')]),
          part([thinking('t(2).')]),
          part([{ type: 'text', text: 'It has five letters.' }]),
          { id: 's', object: 'chat.completion.chunk', model: 'magistral', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
        ]),
      },
    ])
    const client = createClient({ baseURL: server.url, model: 'magistral-small', maxRetries: 0 })
    const run = client.stream(messages, { search, get_time })
    const events: StreamEvent[] = []
    const iterate = (async () => {
      for await (const event of run) events.push(event)
    })().catch(() => {})
    const { error } = await outcome(run.result)
    await iterate
    expect(events.filter((event) => event.type === 'reasoning').map((event) => (event as { delta: string }).delta)).toEqual(['Spell: s(1), ', 't(2).'])
    expect(events.filter((event) => event.type === 'text').map((event) => (event as { delta: string }).delta)).toEqual(['It has five letters.'])
    expect(error).toMatchObject({ type: 'no_tool_call' })
    expect(error?.message).toContain('"It has five letters."')
    expect(error?.message).not.toContain('unknown tool')
  })
})
