import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createClient, createMacroTool, defineAdapter, defineTool, isInvokeError } from '../index'
import { startScriptedServer, toolCallResponse, type ScriptedServer } from '../testing'

const tools = {
  click: defineTool({ description: 'Click', inputSchema: z.object({ index: z.number().int() }), execute: async ({ index }) => `clicked ${index}` }),
  done: defineTool({ description: 'Finish', inputSchema: z.object({ text: z.string() }) }),
}
const messages = [{ role: 'user', content: 'go' }]

describe('createClient', () => {
  let server: ScriptedServer
  beforeAll(async () => {
    server = await startScriptedServer({ script: [{ body: toolCallResponse('click', { index: 3 }) }] })
  })
  afterAll(() => server.close())

  it('should invoke a tool end to end over real HTTP', async () => {
    const client = createClient({ baseURL: server.url, model: 'gpt-4.1-mini', apiKey: 'sk-secret' })
    const result = await client.invoke(messages, tools, { toolChoiceName: 'click' })
    expect(result.toolCall).toMatchObject({ name: 'click', args: { index: 3 } })
    expect(result.toolResult).toBe('clicked 3')
    expect(result.attempts).toBe(1)
    const sent = server.requests.at(-1)!
    expect(sent.headers.authorization).toBe('Bearer sk-secret')
    expect(sent.body.tool_choice).toEqual({ type: 'function', function: { name: 'click' } })
    expect(sent.body.parallel_tool_calls).toBe(false)
    expect(sent.body).not.toHaveProperty('temperature')
  })

  it('should throw config_error naming the field', () => {
    try {
      createClient({ baseURL: '', model: 'x' })
      expect.unreachable()
    } catch (error) {
      expect(isInvokeError(error) && error.type).toBe('config_error')
      expect(String(error)).toContain('baseURL')
    }
  })
})

describe('createClient request target and headers', () => {
  let server: ScriptedServer
  beforeAll(async () => {
    server = await startScriptedServer({ script: [{ body: toolCallResponse('click', { index: 3 }) }] })
  })
  afterAll(() => server.close())

  it('should put /chat/completions before the query of a base URL (Azure OpenAI) and add query parameters', async () => {
    const base = `${server.url}/openai/deployments/gpt-4o?api-version=2024-10-21`
    await createClient({ baseURL: base, model: 'gpt-4o', headers: { 'api-key': 'azure-key-0123456789' } }).invoke(messages, tools)
    expect(server.requests.at(-1)!.path).toBe('/v1/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21')
    await createClient({ baseURL: `${server.url}/`, model: 'gpt-4o', query: { 'api-version': '2025-01-01', tenant: 'a b' } }).invoke(messages, tools)
    expect(server.requests.at(-1)!.path).toBe('/v1/chat/completions?api-version=2025-01-01&tenant=a+b')
    await createClient({ baseURL: `${base}&x=1`, model: 'gpt-4o', query: { 'api-version': '2025-01-01' } }).invoke(messages, tools)
    expect(server.requests.at(-1)!.path).toBe('/v1/openai/deployments/gpt-4o/chat/completions?api-version=2025-01-01&x=1')
  })

  it('should reject a query option that is not an object of strings with a config_error', () => {
    expect(() => createClient({ baseURL: server.url, model: 'm', query: { 'api-version': 1 } as never })).toThrow(/"query" must be an object of string values/)
  })

  it('should hand customFetch an Authorization header spelled as by convention, once', async () => {
    const seen: Array<Record<string, string>> = []
    const customFetch: typeof fetch = async (input, init) => {
      seen.push(init?.headers as Record<string, string>)
      return fetch(input, init)
    }
    await createClient({ baseURL: server.url, model: 'gpt-4o', apiKey: 'sk-0123456789', customFetch }).invoke(messages, tools)
    expect(seen[0]!.Authorization).toBe('Bearer sk-0123456789')
    expect(Object.keys(seen[0]!).filter((name) => name.toLowerCase() === 'authorization')).toEqual(['Authorization'])
    // A user header in another case replaces the default instead of being sent twice (fetch would join them).
    await createClient({ baseURL: server.url, model: 'gpt-4o', apiKey: 'sk-0123456789', headers: { authorization: 'Bearer other', Accept: 'application/json' }, customFetch }).invoke(messages, tools)
    expect(Object.keys(seen[1]!).filter((name) => /^(?:authorization|accept)$/i.test(name)).sort()).toEqual(['Accept', 'Authorization'])
    expect(server.requests.at(-1)!.headers.authorization).toBe('Bearer sk-0123456789')
  })

  it('should say the status text of an HTTP error', async () => {
    server.setScript([{ status: 503, body: { error: { message: 'overloaded' } } }])
    const error = await createClient({ baseURL: server.url, model: 'gpt-4o', maxRetries: 0 }).invoke(messages, tools).catch((caught: unknown) => caught)
    expect(String(error)).toContain('HTTP 503 Service Unavailable')
  })
})

describe('ErrorContext.reclassify', () => {
  it('should reword an error under the adapter name and keep status, retryAfterMs and the original as cause', async () => {
    const adapter = defineAdapter({
      name: 'acme',
      match: { models: ['acme'] },
      classifyError: (_error, context) => (/slow down/.test(context.bodyText) ? context.reclassify('server_error', 'Acme is busy.') : undefined),
    })
    const client = createClient({
      baseURL: 'https://api.acme.test/v1',
      model: 'acme-1',
      adapters: [adapter],
      maxRetries: 0,
      customFetch: async () => new Response('{"error":{"message":"slow down"}}', { status: 429, headers: { 'retry-after': '3' } }),
    })
    const error = await client.invoke(messages, tools).catch((caught: unknown) => caught)
    expect(error).toMatchObject({ type: 'server_error', status: 429, retryAfterMs: 3000, retryable: true })
    expect((error as Error).message).toMatch(/^\[wildcall\] \[acme\] Acme is busy\. \(HTTP 429/)
    expect(isInvokeError((error as Error).cause) && (error as { cause: { type: string } }).cause.type).toBe('rate_limit')
  })

  it('should route a 200 body with no choices but a provider error through classification', async () => {
    const client = createClient({
      baseURL: 'https://api.example.test/v1',
      model: 'm',
      maxRetries: 0,
      customFetch: async () => new Response('{"code":"Arrearage","message":"Access denied, please make sure your account is in good standing."}', { status: 200 }),
    })
    await expect(client.invoke(messages, tools)).rejects.toMatchObject({ type: 'quota_exceeded' })
  })
})

describe('response shapes near the protocol', () => {
  const AgentOutput = createMacroTool({
    scroll: defineTool({ description: 'Scroll', inputSchema: z.object({ down: z.boolean() }), execute: async () => 'scrolled' }),
    done: defineTool({ description: 'Finish', inputSchema: z.object({ text: z.string() }) }),
  })
  const args = JSON.stringify({ action: { scroll: { down: true } } })
  it.each([
    ['a choice with delta instead of message', { choices: [{ delta: { role: 'assistant', tool_calls: [{ id: 'x', type: 'function', function: { name: 'AgentOutput', arguments: args } }] }, finish_reason: 'tool_calls' }] }, 'delta-as-message'],
    ["the completions API's text", { choices: [{ text: args, finish_reason: 'stop' }] }, 'completion-text'],
    ['choices as one object', { choices: { message: { role: 'assistant', content: args }, finish_reason: 'stop' } }, 'choices-object'],
    ['a call whose arguments are under input', { choices: [{ message: { role: 'assistant', tool_calls: [{ id: 'x', type: 'function', function: { name: 'scroll', input: { down: true } } }] }, finish_reason: 'tool_calls' }] }, 'action-as-tool'],
    ['tool_call in the singular', { choices: [{ message: { role: 'assistant', tool_call: { name: 'AgentOutput', arguments: args } }, finish_reason: 'tool_calls' }] }, 'unwrapped-envelope'],
    ['a choice that is itself the message', { choices: [{ index: 0, tool_calls: [{ id: 'x', type: 'function', function: { name: 'AgentOutput', arguments: args } }], finish_reason: 'tool_calls' }] }, 'choice-as-message'],
    ["Ollama's own shape (one message, no choices)", { model: 'qwen3', message: { role: 'assistant', content: '', tool_calls: [{ function: { name: 'AgentOutput', arguments: JSON.parse(args) } }] }, done: true, done_reason: 'stop' }, 'message-as-choice'],
    ["a gateway's envelope around the completion", { code: 0, msg: 'success', data: { choices: [{ message: { role: 'assistant', content: args }, finish_reason: 'stop' }] } }, 'unwrapped-body'],
    ['content that is the call object itself', { choices: [{ message: { role: 'assistant', content: JSON.parse(args) }, finish_reason: 'stop' }] }, 'object-content'],
    ['a body followed by a debug line', `${JSON.stringify({ choices: [{ message: { role: 'assistant', content: args }, finish_reason: 'stop' }] })}\n<!-- served in 12 ms -->`, 'trailing-text'],
  ])('should take %s', async (_name, body, fix) => {
    const client = createClient({ baseURL: 'http://127.0.0.1:9/v1', model: 'm', maxRetries: 0, customFetch: async () => new Response(typeof body === 'string' ? body : JSON.stringify(body)) })
    const result = await client.invoke(messages, { AgentOutput }, { toolChoiceName: 'AgentOutput' })
    expect(result.toolCall.args).toEqual({ action: { scroll: { down: true } } })
    expect(result.toolResult).toEqual({ input: { action: { scroll: { down: true } } }, action: { name: 'scroll', input: { down: true } }, output: 'scrolled' })
    expect(result.fixes).toContain(fix)
  })

  it('should apply the finish reason of a message-only body (Ollama done_reason) and never execute a cut call', async () => {
    let executed = false
    const cut = createMacroTool({ scroll: defineTool({ description: 'Scroll', inputSchema: z.object({ down: z.boolean() }), execute: async () => (executed = true) }) })
    const body = { message: { role: 'assistant', content: args.slice(0, 20) }, done: true, done_reason: 'length' }
    const client = createClient({ baseURL: 'http://127.0.0.1:9/v1', model: 'm', maxRetries: 0, customFetch: async () => new Response(JSON.stringify(body)) })
    await expect(client.invoke(messages, { AgentOutput: cut }, { toolChoiceName: 'AgentOutput' })).rejects.toMatchObject({ type: 'output_truncated' })
    expect(executed).toBe(false)
  })

  it('should still classify a gateway envelope that carries an error and no completion', async () => {
    const client = createClient({ baseURL: 'http://127.0.0.1:9/v1', model: 'm', maxRetries: 0, customFetch: async () => new Response(JSON.stringify({ code: 'Arrearage', msg: 'Access denied, please make sure your account is in good standing.', data: null })) })
    await expect(client.invoke(messages, { AgentOutput }, { toolChoiceName: 'AgentOutput' })).rejects.toMatchObject({ type: 'quota_exceeded' })
  })

  it('should not take the first of several JSON bodies as the answer', async () => {
    const line = JSON.stringify({ choices: [{ message: { role: 'assistant', content: args }, finish_reason: 'stop' }] })
    const client = createClient({ baseURL: 'http://127.0.0.1:9/v1', model: 'm', maxRetries: 0, customFetch: async () => new Response(`${line}\n${line}`) })
    await expect(client.invoke(messages, { AgentOutput }, { toolChoiceName: 'AgentOutput' })).rejects.toMatchObject({ type: 'invalid_response' })
  })

  it('should read a body followed by noise from a real server', async () => {
    const body = `${JSON.stringify(toolCallResponse('AgentOutput', { action: { scroll: { down: true } } }))}\n\n[proxy: cache miss]`
    const server = await startScriptedServer({ script: [{ body }] })
    try {
      const client = createClient({ baseURL: server.url, model: 'm', maxRetries: 0 })
      const result = await client.invoke(messages, { AgentOutput }, { toolChoiceName: 'AgentOutput' })
      expect(result.toolResult).toEqual({ input: { action: { scroll: { down: true } } }, action: { name: 'scroll', input: { down: true } }, output: 'scrolled' })
      expect(result.fixes).toEqual(['trailing-text'])
    } finally {
      await server.close()
    }
  })
})
