import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import * as core from './core'
import * as root from './index'
import { builtInReaders } from './readers'
import { streaming } from './streaming'
import { contentResponse, sseChunks, startScriptedServer, streamedReply, toolCallResponse, type ScriptedServer } from './testing'
import { kimiK3, minimaxM3, type CallRenderer } from './repair/__fixtures__/render-calls'
import type { InvokeResult } from './client/invoke-result'
import type { StreamEvent } from './client/stream-run'

const AgentOutput = core.defineTool({
  description: 'Reflect, then act',
  inputSchema: z.object({ memory: z.string().optional(), next_goal: z.string().optional(), action: z.object({ click: z.object({ index: z.number().int() }) }) }),
  execute: async (input) => `clicked ${input.action.click.index}`,
})
const tools = { AgentOutput }
const options = { toolChoiceName: 'AgentOutput' } as const
const messages = [{ role: 'user', content: 'go' }]
const args = { memory: 'Step 3 of 5: filled the name field, then the e-mail field.', next_goal: 'Press submit.', action: { click: { index: 12 } } }
// Qwen3-Coder markup in content: only a client with the markup readers reads (and previews) it.
const markup = `<tool_call>\n<function=AgentOutput>\n<parameter=memory>\n${args.memory}\n</parameter>\n<parameter=next_goal>\n${args.next_goal}\n</parameter>\n<parameter=action>\n{"click": {"index": 12}}\n</parameter>\n</function>\n</tool_call>`
const fastRetry = { limit: 2, baseDelayMs: 1, jitter: false }

async function collect(run: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = []
  for await (const event of run) events.push(event)
  return events
}

// The call's id is generated when the model gave none: it differs between two runs of one answer.
const outcome = (result: InvokeResult) => ({ name: result.toolCall.name, args: result.toolCall.args, toolResult: result.toolResult, fixes: result.fixes, usage: result.usage })

describe('streaming', () => {
  let server: ScriptedServer
  beforeAll(async () => {
    server = await startScriptedServer({ script: [] })
  })
  beforeEach(() => server.setScript([]))
  afterAll(() => server.close())
  const config = () => ({ baseURL: server.url, model: 'gpt-4.1-mini', retry: fastRetry })

  it('should make client.stream() of a core client throw a config_error that says to pass streaming, sending nothing', () => {
    const client = core.createClient(config())
    let thrown: unknown
    try {
      client.stream(messages, tools, options)
    } catch (error) {
      thrown = error
    }
    expect(core.isInvokeError(thrown)).toBe(true)
    expect(thrown).toMatchObject({ type: 'config_error', retryable: false })
    expect((thrown as Error).message).toContain('`streaming` from "@wildcall/sdk/streaming"')
    expect((thrown as Error).message).toContain('"@wildcall/sdk"')
    expect(server.requests).toHaveLength(0)
  })

  it('should refuse a streamed body to invoke of a core client without streaming, once (not retried), saying to pass streaming', async () => {
    const answer = toolCallResponse('AgentOutput', args)
    for (const reply of [streamedReply(answer), { body: `${JSON.stringify({ choices: [{ index: 0, delta: { content: 'a' } }] })}\n${JSON.stringify({ choices: [{ index: 0, delta: { content: 'b' } }] })}` }]) {
      server.setScript([reply, reply, reply])
      const error = await core.createClient(config()).invoke(messages, tools, options).then(() => undefined, (failure: unknown) => failure)
      expect(error).toMatchObject({ type: 'invalid_response', retryable: false, status: 200 })
      expect((error as Error).message).toContain('stream events')
      expect((error as Error).message).toContain('`streaming` from "@wildcall/sdk/streaming"')
      expect((error as { rawResponse?: unknown }).rawResponse).toEqual(expect.stringContaining('"delta"'))
      expect(server.requests).toHaveLength(1)
      server.requests.length = 0
    }
  })

  it('should keep every other body of a core client without streaming as it was: JSON read, anything else invalid_response', async () => {
    server.setScript([{ body: toolCallResponse('AgentOutput', args) }, { body: 'upstream connect error' }])
    const client = core.createClient({ ...config(), maxRetries: 0 })
    expect((await client.invoke(messages, tools, options)).toolCall.args).toEqual(args)
    await expect(client.invoke(messages, tools, options)).rejects.toMatchObject({ type: 'invalid_response', retryable: true })
  })

  it('should stream in a core client given streaming and the built-in readers exactly as the root client does', async () => {
    const answer = contentResponse(markup)
    const run = async (client: core.Client) => {
      server.setScript([streamedReply(answer)])
      const stream = client.stream(messages, tools, options)
      const [events, result] = await Promise.all([collect(stream), stream.result])
      return { events, result: outcome(result) }
    }
    const viaCore = await run(core.createClient({ ...config(), streaming, readers: [...builtInReaders] }))
    const viaRoot = await run(root.createClient(config()))
    expect(viaCore).toEqual(viaRoot)
    expect(viaCore.result.args).toEqual(args)
    expect(viaCore.result.fixes).toContain('reader:xml-call')
    // The reflection is previewed while the markup is written.
    expect(viaCore.events.some((event) => event.type === 'partial' && (event.args as { memory?: string }).memory !== undefined)).toBe(true)
  })

  it('should read a streamed body to invoke in a core client given streaming (stream-body)', async () => {
    server.setScript([streamedReply(toolCallResponse('AgentOutput', args))])
    const result = await core.createClient({ ...config(), streaming }).invoke(messages, tools, options)
    expect(result).toMatchObject({ toolCall: { name: 'AgentOutput', args }, toolResult: 'clicked 12', fixes: ['stream-body'] })
  })

  describe.each([
    // Kimi K3 types each value by its `type` attribute; MiniMax M3 writes text that only the schema types, so its preview shows text.
    [kimiK3, { query: 'a\nb<c and more text that streams over many pieces', limit: 5, exact: true, filters: { lang: 'en', tags: ['x', 'y z'] } }],
    [minimaxM3, { query: 'a\nb<c and more text that streams over many pieces', region: { city: 'Paris', zip: '75001' }, tags: ['x', 'y z'] }],
  ] as Array<[CallRenderer, Record<string, unknown>]>)('a %s call streamed in content', ({ render }, callArgs) => {
    const search = core.defineTool({ description: 'Search', inputSchema: z.object({ query: z.string(), limit: z.number().optional(), exact: z.boolean().optional(), filters: z.object({ lang: z.string(), tags: z.array(z.string()) }).optional(), region: z.object({ city: z.string(), zip: z.string() }).optional(), tags: z.array(z.string()).optional() }), execute: async () => 'found' })
    const content = render([{ name: 'search', args: callArgs }])

    it('should stream partial events that grow to the final arguments, and resolve as invoke does', async () => {
      const events: unknown[] = [{ choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] }]
      for (let offset = 0; offset < content.length; offset += 3) events.push({ choices: [{ index: 0, delta: { content: content.slice(offset, offset + 3) } }] })
      // A millisecond apart, so that most pieces come in reads of their own (one read is previewed once).
      const chunks = sseChunks([...events, { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }]).map((text) => ({ text, delayMs: 1 }))
      server.setScript([{ chunks }, { body: contentResponse(content) }])
      const client = root.createClient(config())
      const stream = client.stream(messages, { search })
      const [streamed, result] = await Promise.all([collect(stream), stream.result])
      const invoked = await client.invoke(messages, { search })
      // The scripted stream sends no usage; all else is the same.
      expect({ ...outcome(result), usage: undefined }).toEqual({ ...outcome(invoked), usage: undefined })
      expect(result.toolCall).toMatchObject({ name: 'search', args: callArgs })
      const partials = streamed.filter((event): event is Extract<StreamEvent, { type: 'partial' }> => event.type === 'partial')
      expect(partials.length).toBeGreaterThan(5)
      for (const event of partials) expect(event.name).toBe('search')
      // Each preview is a prefix of the next one: the query grows, keys are only added.
      const query = (event: (typeof partials)[number]) => ((event.args as { query?: string }).query ?? '')
      expect(partials.some((event) => query(event).length > 0 && query(event) !== callArgs.query)).toBe(true)
      for (const [index, event] of partials.entries()) {
        const next = partials[index + 1]?.args ?? callArgs
        expect((next as { query: string }).query.startsWith(query(event))).toBe(true)
        expect(Object.keys(next)).toEqual(expect.arrayContaining(Object.keys(event.args as object)))
      }
      expect(partials.at(-1)!.args).toEqual(callArgs)
    })
  })

  it('should refuse a streaming option that is not the export of @wildcall/sdk/streaming', () => {
    for (const value of [{}, { name: 'streaming' }, true, () => {}]) {
      expect(() => core.createClient({ ...config(), streaming: value as never })).toThrow(expect.objectContaining({ type: 'config_error', message: expect.stringContaining('"streaming" must be the `streaming` export of "@wildcall/sdk/streaming"') }))
    }
  })
})
