import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createClient, createMacroTool, defineTool, type ChatMessage, type ChatRequest, type EndpointProfile, type StreamEvent, type ToolSet } from '../index'
import { jsonSchema } from '../json-schema'
import { sseChunks, startScriptedServer, type RecordedRequest, type ScriptedReply, type ScriptedServer } from '../testing'
import { grammarOf } from '../tool/__fixtures__/xgrammar-judge'

const executed: unknown[] = []
const tools = {
  click: defineTool({ description: 'Click the element with this index', inputSchema: z.object({ index: z.number().int().min(0) }), execute: (input) => (executed.push(input), 'clicked') }),
  done: defineTool({ description: 'Finish', inputSchema: z.object({ text: z.string() }), execute: (input) => (executed.push(input), 'done') }),
}
const AgentOutput = createMacroTool(tools)
const messages: ChatMessage[] = [{ role: 'user', content: 'Click the first result.' }]
const retry = { limit: 2, baseDelayMs: 1, jitter: false }

let server: ScriptedServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
  executed.length = 0
})

const reply = (content: string): ScriptedReply => ({ body: { choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] } })
const streamed = (content: string): ScriptedReply => ({
  chunks: sseChunks([...content.match(/[\s\S]{1,5}/g)!.map((piece) => ({ choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })), { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }]),
})
const sendsStrict = (body: ChatRequest) => body.tools?.some((tool) => tool.function.strict === true) ?? false

/**
 * A llama.cpp-like server: `tools` refused (no `--jinja`); otherwise its model writes the first of
 * `drafts` that the grammar compiled from `response_format` admits (the first draft without one).
 */
function llamaCpp(drafts: string[]) {
  return async ({ body }: RecordedRequest): Promise<ScriptedReply> => {
    if (body.tools) return { status: 500, body: { error: { code: 500, message: 'tools param requires --jinja flag', type: 'server_error' } } }
    const format = body.response_format as { json_schema?: { schema?: unknown } } | undefined
    const accepts = format?.json_schema?.schema ? await grammarOf(format.json_schema.schema) : undefined
    let text = drafts[0]!
    for (const draft of accepts ? drafts : []) if (await accepts!(draft)) { text = draft; break }
    return body.stream ? streamed(text) : reply(text)
  }
}

describe('prompt mode with response_format', () => {
  // What a small model would write unconstrained: a string index, then two actions; the grammar admits only the last.
  const plainDrafts = ['{"name": "click", "arguments": {"index": "3"}}', '{"name": "hover", "arguments": {"index": 3}}', '{"name": "click", "arguments": {"index": 3}}']
  const macroDrafts = [
    '{"name": "AgentOutput", "arguments": {"next_goal": "open it", "action": {"click": {"index": "the first"}}}}',
    '{"name": "AgentOutput", "arguments": {"next_goal": "open it", "action": {"click": {"index": 3}, "done": {"text": "x"}}}}',
    '{"name": "AgentOutput", "arguments": {"next_goal": "open it", "action": {}}}',
    '{"name": "AgentOutput", "arguments": {"next_goal": "open it", "action": {"click": {"index": 3}}}}',
  ]

  it.each(['invoke', 'stream'] as const)('should end with the call against a llama.cpp-like server whose model writes what the grammar admits (%s, plain tools)', async (mode) => {
    server = await startScriptedServer({ script: llamaCpp(plainDrafts) })
    const client = createClient({ baseURL: server.url, model: 'qwen3-0.6b', retry })
    const events: StreamEvent[] = []
    let result
    if (mode === 'invoke') result = await client.invoke(messages, tools)
    else {
      const run = client.stream(messages, tools)
      for await (const event of run) events.push(event)
      result = await run.result
      expect(events.filter((event) => event.type === 'partial').at(-1)).toMatchObject({ args: { index: 3 } })
      // Previews of the arguments, as for any call written as text: never of the envelope being written.
      expect(events.filter((event) => event.type === 'partial' && 'name' in (event.args as object))).toEqual([])
    }
    expect(result.toolCall).toMatchObject({ name: 'click', args: { index: 3 } })
    expect(result.attempts).toBe(2)
    expect(server.requests).toHaveLength(2)
    const prompted = server.requests[1]!.body
    expect(prompted.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'tool_call', strict: true } })
    // The prompt asks for the form the grammar admits.
    expect(prompted.messages[0]!.content).toContain('written as one JSON object:\n{"name": <function-name>, "arguments": <args-json-object>}')
    expect(prompted.messages[0]!.content).not.toContain('<tool_call>')
    await client.invoke(messages, tools)
    expect(server.requests).toHaveLength(3)
    expect(server.requests[2]!.body.response_format).toEqual(prompted.response_format)
  })

  it.each(['invoke', 'stream'] as const)('should get exactly one action of the macro tool from a llama.cpp-like server (%s)', async (mode) => {
    server = await startScriptedServer({ script: llamaCpp(macroDrafts) })
    const client = createClient({ baseURL: server.url, model: 'qwen3-0.6b', toolMode: 'prompt', retry })
    const events: StreamEvent[] = []
    const run = mode === 'stream' ? client.stream(messages, { AgentOutput }, { toolChoiceName: 'AgentOutput' }) : undefined
    if (run) for await (const event of run) events.push(event)
    const result = run ? await run.result : await client.invoke(messages, { AgentOutput }, { toolChoiceName: 'AgentOutput' })
    expect(result.toolCall.args).toEqual({ next_goal: 'open it', action: { click: { index: 3 } } })
    expect(executed).toEqual([{ index: 3 }])
    expect(server.requests).toHaveLength(1)
    if (run) expect(events.filter((event) => event.type === 'partial').at(-1)).toMatchObject({ args: { next_goal: 'open it', action: { click: { index: 3 } } } })
  })

  it('should read the call from a server that ignores response_format (Ollama Cloud), in one request', async () => {
    server = await startScriptedServer({ script: () => reply('<tool_call>\n{"name": "click", "arguments": {"index": 3}}\n</tool_call>') })
    const client = createClient({ baseURL: server.url, model: 'gpt-oss:20b', toolMode: 'prompt', retry })
    const result = await client.invoke(messages, tools)
    expect(result.toolCall.args).toEqual({ index: 3 })
    expect(server.requests).toHaveLength(1)
    expect(server.requests[0]!.body.response_format).toBeDefined()
  })

  it('should send neither response_format nor strict tools with strict: false (client or call)', async () => {
    server = await startScriptedServer({ script: () => reply('<tool_call>\n{"name": "click", "arguments": {"index": 3}}\n</tool_call>') })
    const client = createClient({ baseURL: server.url, model: 'm', toolMode: 'prompt', strict: false })
    await client.invoke(messages, tools)
    await createClient({ baseURL: server.url, model: 'm', toolMode: 'prompt' }).invoke(messages, tools, { strict: false })
    for (const { body } of server.requests) {
      expect(body.response_format).toBeUndefined()
      expect(body.messages[0]!.content).toContain('<tool_call>')
    }
    // Without the option ('auto'), prompt mode sends it.
    await createClient({ baseURL: server.url, model: 'm', toolMode: 'prompt' }).invoke(messages, tools)
    expect(server.requests[2]!.body.response_format).toBeDefined()
  })

  it('should refuse a strict option that is not "auto", true or false', () => {
    expect(() => createClient({ baseURL: 'http://127.0.0.1:9/v1', model: 'm', strict: 'yes' as never })).toThrow(/"strict" must be "auto", true or false \(got "yes"\)/)
    const client = createClient({ baseURL: 'http://127.0.0.1:9/v1', model: 'm' })
    return expect(client.invoke(messages, tools, { strict: 1 as never })).rejects.toMatchObject({ type: 'config_error', message: expect.stringContaining('"strict"') })
  })
})

// The refusals of real servers, each with the field it refuses and the mode that sends it.
const REFUSALS: Array<[string, 'response_format' | 'strict', number, unknown]> = [
  ['DeepSeek', 'response_format', 400, { error: { message: 'This response_format type is unavailable now', type: 'invalid_request_error', param: null, code: 'invalid_request_error' } }],
  ['vLLM (a validation error at response_format)', 'response_format', 400, { object: 'error', message: "[{'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), 'msg': \"Input should be 'text' or 'json_object'\"}]", type: 'BadRequestError', code: 400 }],
  ['LM Studio', 'response_format', 400, { error: "'response_format' of type 'json_schema' is not supported" }],
  ['llama-cpp-python (500)', 'response_format', 500, { error: { code: 500, message: 'response_format type must be one of "text" or "json_object", but got: json_schema', type: 'server_error' } }],
  ['llama.cpp (grammar conversion)', 'response_format', 400, { error: { code: 400, message: 'JSON schema conversion failed:\nUnrecognized schema: {"const":"click"}', type: 'invalid_request_error' } }],
  ['vLLM (a validation error at tools.0.function.strict)', 'strict', 400, { object: 'error', message: "[{'type': 'extra_forbidden', 'loc': ('body', 'tools', 0, 'function', 'strict'), 'msg': 'Extra inputs are not permitted'}]", type: 'BadRequestError', code: 400 }],
  ['Azure OpenAI (an older API version)', 'strict', 400, { error: { message: 'Unrecognized request argument supplied: strict', type: 'invalid_request_error', param: null, code: null } }],
  ['Groq', 'strict', 400, { error: { message: "property 'strict' is unsupported", type: 'invalid_request_error' } }],
  ['xAI', 'strict', 400, { code: 'Client specified an invalid argument', error: 'Invalid request content: `strict` mode on function call is currently not supported.' }],
  ['a grammar compiler that fails (500)', 'strict', 500, { error: { message: 'xgrammar: failed to compile the grammar of the JSON schema', type: 'server_error' } }],
]

describe('a refused response_format or strict, learned', () => {
  it.each(REFUSALS)('should learn %s: one extra request, then never sent again (same client, and one from the saved profile)', async (_server, field, status, refusal) => {
    const sent = (body: ChatRequest) => (field === 'strict' ? sendsStrict(body) : body.response_format !== undefined)
    server = await startScriptedServer({
      script: ({ body }) => {
        if (sent(body)) return { status, body: refusal }
        return field === 'strict' ? { body: { choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'click', arguments: '{"index":3}' } }] }, finish_reason: 'tool_calls' }] } } : reply('{"name": "click", "arguments": {"index": 3}}')
      },
    })
    const config = { baseURL: server.url, model: 'm', retry, ...(field === 'strict' ? { strict: true } : { toolMode: 'prompt' as const }) }
    const client = createClient(config)
    const learned: EndpointProfile[] = []
    client.events.on('learned', ({ profile }) => learned.push(profile))
    const first = await client.invoke(messages, tools)
    expect(first.toolCall.args).toEqual({ index: 3 })
    expect(first.attempts).toBe(2)
    expect(server.requests.map(({ body }) => sent(body))).toEqual([true, false])
    expect(learned.at(-1)!.fields).toContainEqual({ field })
    expect(client.profile.fields).toContainEqual({ field })
    // The step sent again is the same step without the field (and a prompt that asks for the family's form again).
    const [refused, again] = server.requests.map(({ body }) => body)
    if (field === 'strict') expect(again!.messages).toEqual(refused!.messages)
    else {
      expect(again!.messages.slice(1)).toEqual(refused!.messages.slice(1))
      expect(again!.messages[0]!.content).toContain('<tool_call>')
    }

    await client.invoke(messages, tools)
    const restored = createClient({ ...config, profile: JSON.parse(JSON.stringify(client.profile)) as EndpointProfile })
    expect((await restored.invoke(messages, tools)).attempts).toBe(1)
    expect(server.requests.map(({ body }) => sent(body))).toEqual([true, false, false, false])
  })

  it('should not take a refusal of strict tools for a refusal of tools (no switch to prompt mode)', async () => {
    server = await startScriptedServer({
      script: ({ body }) =>
        sendsStrict(body)
          ? { status: 400, body: { error: 'Invalid request content: `strict` mode on function call is currently not supported.' } }
          : { body: { choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'click', arguments: '{"index":3}' } }] }, finish_reason: 'tool_calls' }] } },
    })
    const client = createClient({ baseURL: server.url, model: 'grok-4', strict: true, retry })
    await client.invoke(messages, tools)
    expect(client.profile.toolMode).toBeUndefined()
    expect(server.requests[1]!.body.tools).toBeDefined()
  })
})

describe('strict tools against an OpenAI-like endpoint', () => {
  const withOptional = {
    search: defineTool({
      description: 'Search',
      inputSchema: z.object({ query: z.string(), site: z.string().optional(), limit: z.number().int().min(1).max(50).optional(), note: z.string().nullable().optional(), filters: z.object({ lang: z.string().optional() }).optional() }),
      execute: (input) => (executed.push(input), 'found'),
    }),
    tag: defineTool({ description: 'Tag', inputSchema: jsonSchema({ type: 'object', properties: { labels: { type: 'object', additionalProperties: { type: 'string' } } }, required: ['labels'] }), execute: (input) => input }),
  }

  function openAi(args: unknown) {
    const bodies: ChatRequest[] = []
    const customFetch = async (_url: unknown, init?: RequestInit) => {
      bodies.push(JSON.parse(String(init?.body)) as ChatRequest)
      const message = { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'search', arguments: JSON.stringify(args) } }] }
      return new Response(JSON.stringify({ choices: [{ index: 0, message, finish_reason: 'tool_calls' }] }), { status: 200, headers: { 'content-type': 'application/json' } })
    }
    return { bodies, customFetch }
  }

  it('should send strict tools that meet the rules, and keep a tool strict mode cannot express as it was', async () => {
    const { bodies, customFetch } = openAi({ query: 'q', site: null, limit: null, note: null, filters: null })
    const client = createClient({ baseURL: 'https://api.openai.com/v1', model: 'gpt-4.1-mini', apiKey: 'sk-test', customFetch })
    await client.invoke(messages, withOptional)
    const [search, tag] = bodies[0]!.tools!
    expect(search!.function.strict).toBe(true)
    expect(search!.function.parameters).toEqual({
      type: 'object',
      properties: {
        query: { type: 'string' },
        site: { type: ['string', 'null'] },
        limit: { type: ['integer', 'null'], minimum: 1, maximum: 50 },
        note: { type: ['string', 'null'] },
        filters: { type: ['object', 'null'], properties: { lang: { type: ['string', 'null'] } }, required: ['lang'], additionalProperties: false },
      },
      required: ['query', 'site', 'limit', 'note', 'filters'],
      additionalProperties: false,
    })
    // A free-form record: no strict, the schema unchanged.
    expect(tag!.function.strict).toBeUndefined()
    expect(tag!.function.parameters).toEqual({ type: 'object', properties: { labels: { type: 'object', additionalProperties: { type: 'string' } } }, required: ['labels'] })
  })

  it('should never hand execute a null for an optional field, and keep the null of a field declared nullable', async () => {
    const { bodies, customFetch } = openAi({ query: 'q', site: null, limit: null, note: null, filters: { lang: null } })
    const client = createClient({ baseURL: 'https://my-resource.openai.azure.com/openai/deployments/gpt-4o?api-version=2024-10-21', model: 'gpt-4o', apiKey: 'k', customFetch })
    const result = await client.invoke(messages, withOptional)
    // An Azure OpenAI host: the tools went strict, so the model had to write every field.
    expect(sendsStrict(bodies[0]!)).toBe(true)
    expect(executed).toEqual([{ query: 'q', note: null, filters: {} }])
    expect(result.toolCall.args).toEqual({ query: 'q', note: null, filters: {} })
    // The nulls are how strict mode writes a field left out: no repair to report (doctor says WORKS).
    expect(result.fixes).not.toContain('dropped-null')
    // Without strict tools the same answer's nulls were a repair, and are reported as one.
    const plain = await createClient({ baseURL: 'http://localhost:8000/v1', model: 'gpt-4o', customFetch }).invoke(messages, withOptional)
    expect(sendsStrict(bodies.at(-1)!)).toBe(false)
    expect(plain.fixes).toContain('dropped-null')
  })

  it('should send strict tools only where the endpoint is known to honour them, unless strict is true', async () => {
    const { bodies, customFetch } = openAi({ query: 'q' })
    const sent = async (baseURL: string, config: { strict?: boolean } = {}, adapters: ToolSet[string][] = []) => {
      await createClient({ baseURL, model: 'qwen3-8b', customFetch, adapters: adapters as never, ...config }).invoke(messages, withOptional)
      return sendsStrict(bodies.at(-1)!)
    }
    expect(await sent('http://localhost:8000/v1')).toBe(false)
    expect(await sent('http://localhost:8000/v1', { strict: true })).toBe(true)
    expect(await sent('https://api.openai.com/v1', { strict: false })).toBe(false)
    expect(await sent('https://api.acme.test/v1', {}, [{ name: 'acme', kind: 'provider', match: { hosts: ['api.acme.test'] }, strict: true } as never])).toBe(true)
  })
})
