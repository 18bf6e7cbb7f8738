import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import * as core from './core'
import * as root from './index'
import { builtInReaders } from './readers'
import { streaming } from './streaming'
import { contentResponse, startScriptedServer, streamedReply, toolCallResponse, type ScriptedServer } from './testing'
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

  it('should refuse a streaming option that is not the export of @wildcall/sdk/streaming', () => {
    for (const value of [{}, { name: 'streaming' }, true, () => {}]) {
      expect(() => core.createClient({ ...config(), streaming: value as never })).toThrow(expect.objectContaining({ type: 'config_error', message: expect.stringContaining('"streaming" must be the `streaming` export of "@wildcall/sdk/streaming"') }))
    }
  })
})
