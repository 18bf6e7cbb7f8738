import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { isInvokeError } from '../errors/invoke-error'
import { createMacroTool } from '../macro/create-macro-tool'
import { startScriptedServer, toolCallResponse, type ScriptedServer } from '../testing'
import { defineTool } from '../tool/define-tool'
import type { ClientEvents } from './client-events'
import { createClient, type Client } from './create-client'
import type { ClientConfig } from './config'

const messages = [{ role: 'user', content: 'click the third button' }]
const fastRetry = { limit: 2, baseDelayMs: 1, maxDelayMs: 2, jitter: false }

type Recorded = { [K in keyof ClientEvents]: { type: K } & ClientEvents[K] }[keyof ClientEvents]

function record(client: Client): Recorded[] {
  const seen: Recorded[] = []
  client.events.on('*', (type, event) => seen.push({ type, ...event } as Recorded))
  return seen
}

function tools() {
  return {
    click: defineTool({ description: 'Click an element', inputSchema: z.object({ index: z.number().int() }), execute: async ({ index }) => `clicked ${index}` }),
    fail: defineTool({ description: 'Always fails', inputSchema: z.object({}), execute: async () => { throw new Error('disk full') } }),
  }
}

let server: ScriptedServer
const makeClient = (overrides: Partial<ClientConfig> = {}) => createClient({ baseURL: server.url, model: 'gpt-4.1-mini', apiKey: 'sk-events-SECRET', retry: fastRetry, ...overrides })

beforeAll(async () => {
  server = await startScriptedServer({ script: [{ body: toolCallResponse('click', { index: 3 }) }] })
})
afterAll(() => server.close())

describe('client events', () => {
  it('should tag every event of a step with its callId, pair each request with one response, and end with done', async () => {
    server.setScript([
      { status: 503, body: { error: { message: 'overloaded' } } },
      { body: toolCallResponse('click', { index: 3 }, { usage: { prompt_tokens: 30, completion_tokens: 5, total_tokens: 35, prompt_tokens_details: { cached_tokens: 10 } } }) },
    ])
    const client = makeClient()
    const seen = record(client)
    const result = await client.invoke(messages, tools())
    expect(seen.map((event) => event.type)).toEqual(['request', 'response', 'retry', 'request', 'response', 'tool', 'done'])
    const callIds = new Set(seen.map((event) => event.callId))
    expect(callIds.size).toBe(1)
    const [first, failed, retry, second, ok, tool, done] = seen
    expect(first).toMatchObject({ attempt: 1 })
    expect(failed).toMatchObject({ attempt: 1, status: 503 })
    expect(isInvokeError((failed as ClientEvents['response']).error)).toBe(true)
    expect(retry).toMatchObject({ attempt: 1, maxAttempts: 3 })
    expect(second).toMatchObject({ attempt: 2 })
    expect(ok).toMatchObject({ attempt: 2, status: 200, finishReason: 'tool_calls', usage: { promptTokens: 30, completionTokens: 5, cachedTokens: 10 } })
    expect((ok as ClientEvents['response']).error).toBeUndefined()
    expect((ok as ClientEvents['response']).rawResponse).toEqual(result.rawResponse)
    expect(tool).toMatchObject({ attempt: 2, name: 'click', toolCallId: result.toolCall.id, input: { index: 3 }, output: 'clicked 3' })
    expect((done as ClientEvents['done']).result).toBe(result)
  })

  it('should keep two concurrent calls on one client apart by callId', async () => {
    server.setScript((request) => ({ delayMs: 30, body: toolCallResponse('click', { index: request.body.messages.length }) }))
    const client = makeClient()
    const seen = record(client)
    const [one, two] = await Promise.all([client.invoke(messages, tools()), client.invoke([...messages, ...messages], tools())])
    const ids = [...new Set(seen.map((event) => event.callId))]
    expect(ids).toHaveLength(2)
    for (const [id, result] of [[ids[0], one], [ids[1], two]] as const) {
      const own = seen.filter((event) => event.callId === id)
      expect(own.map((event) => event.type)).toEqual(['request', 'response', 'tool', 'done'])
      expect((own[3] as ClientEvents['done']).result).toBe(result)
      expect((own[2] as ClientEvents['tool']).output).toBe(result.toolResult)
    }
  })

  it('should report a tool that throws in a tool event, then error and done with the same callId', async () => {
    server.setScript([{ body: toolCallResponse('fail', {}) }])
    const client = makeClient()
    const seen = record(client)
    const error = await client.invoke(messages, tools()).catch((caught: unknown) => caught)
    expect(seen.map((event) => event.type)).toEqual(['request', 'response', 'tool', 'error', 'done'])
    expect((seen[2] as ClientEvents['tool']).error).toEqual(new Error('disk full'))
    expect((seen[3] as ClientEvents['error']).error).toBe(error)
    expect((seen[4] as ClientEvents['done']).error).toBe(error)
    expect(new Set(seen.map((event) => event.callId)).size).toBe(1)
  })

  it('should end an aborted step with done carrying the abort, and a response with no status for a refused connection', async () => {
    const closed = await startScriptedServer({ script: [] })
    await closed.close()
    const client = createClient({ baseURL: closed.url, model: 'm', retry: 0 })
    const seen = record(client)
    await client.invoke(messages, tools()).catch(() => undefined)
    expect(seen.map((event) => event.type)).toEqual(['request', 'response', 'error', 'done'])
    expect(seen[1]).toMatchObject({ status: undefined, error: expect.objectContaining({ type: 'network_error' }) })

    const controller = new AbortController()
    const reason = new DOMException('stop', 'AbortError')
    server.setScript([{ delayMs: 2_000, body: toolCallResponse('click', { index: 1 }) }])
    const aborted = makeClient()
    const events = record(aborted)
    aborted.events.on('request', () => setTimeout(() => controller.abort(reason), 20))
    await aborted.invoke(messages, tools(), { signal: controller.signal }).catch(() => undefined)
    expect(events.map((event) => event.type)).toEqual(['request', 'response', 'done'])
    expect(events[1]).toMatchObject({ error: reason })
    expect(events[2]).toMatchObject({ error: reason })
  })

  it('should carry the callId and attempt into a macro tool\'s action event and a tool\'s context', async () => {
    let context: { callId?: string; attempt?: number } = {}
    const AgentOutput = createMacroTool({
      click: defineTool({ inputSchema: z.object({ index: z.number() }), execute: async (_input, given) => { context = given; return 'ok' } }),
    })
    server.setScript([{ body: toolCallResponse('AgentOutput', { action: { click: { index: 2 } } }) }])
    const client = makeClient()
    const seen = record(client)
    await client.invoke(messages, { AgentOutput })
    const action = seen.find((event) => event.type === 'action') as ClientEvents['action']
    expect(action).toMatchObject({ callId: seen[0]!.callId, attempt: 1, name: 'click', output: 'ok' })
    expect(context).toMatchObject({ callId: seen[0]!.callId, attempt: 1 })
  })

  it('should tag stream events the same way and end with done', async () => {
    server.setScript([{ body: toolCallResponse('click', { index: 4 }) }])
    const client = makeClient()
    const seen = record(client)
    const run = client.stream(messages, tools())
    const result = await run.result
    expect(seen.map((event) => event.type)).toEqual(['request', 'response', 'tool', 'done'])
    expect(new Set(seen.map((event) => event.callId)).size).toBe(1)
    expect((seen[3] as ClientEvents['done']).result).toBe(result)
  })

  it('should send debug lines for the adapters of a request, the repairs (the reader among them) and retries, and listen to nothing without debug', async () => {
    const lines: string[] = []
    server.setScript([{ status: 500, body: { error: { message: 'boom' } } }, { body: { choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: '{"name":"click","arguments":{"index":"5"}}' } }] } }])
    const client = makeClient({ logger: { warn: () => {}, debug: (line) => lines.push(line) } })
    await client.invoke(messages, tools())
    const callId = lines[0]!.match(/^\[wildcall\] (\S+)#1 request: /)![1]
    expect(lines.every((line) => line.startsWith(`[wildcall] ${callId}#`))).toBe(true)
    expect(lines).toContain(`[wildcall] ${callId}#1 request: adapters openai`)
    expect(lines).toContain(`[wildcall] ${callId}#1 retry: server_error, again in 1 ms`)
    expect(lines.some((line) => line.startsWith(`[wildcall] ${callId}#2 fix: content-json,reader:json`))).toBe(true)
    // No adapter matches: the line says so rather than ending in "adapters ".
    const bare: string[] = []
    await createClient({ baseURL: server.url, model: 'acme-large-1', maxRetries: 0, logger: { warn: () => {}, debug: (line) => bare.push(line) } }).invoke(messages, tools()).catch(() => undefined)
    expect(bare[0]).toMatch(/ request: adapters none$/)
    const quiet = makeClient({ logger: { warn: () => {} } })
    expect(quiet.events.all.size).toBe(0)
    expect(() => makeClient({ logger: { warn: () => {}, debug: 'loud' as never } })).toThrow(/logger/)
  })
})
