import { afterAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createClient, defineTool, isInvokeError, type ChatMessage, type ClientConfig, type InvokeError } from '../index'
import { contentResponse, startScriptedServer, toolCallResponse } from '../testing'
import { modes, startAnswerServer, type Mode } from './__fixtures__/answer-server'

const API_KEY = 'sk-test-0123456789abcdef'
const { server, script, run: runStep } = await startAnswerServer()
afterAll(() => server.close())

const messages: ChatMessage[] = [{ role: 'user', content: 'Go.' }]
const tools = {
  click: defineTool({ inputSchema: z.object({ index: z.number().int() }), execute: ({ index }) => `clicked ${index}` }),
}

const run = (mode: Mode, config: Partial<ClientConfig> = {}) => runStep(mode, { apiKey: API_KEY, retry: { limit: 3, baseDelayMs: 1, jitter: false }, ...config }, messages, tools)

const fail = (promise: Promise<unknown>) => promise.then(() => expect.unreachable('the step should fail'), (error: unknown) => {
  expect(isInvokeError(error)).toBe(true)
  return error as InvokeError
})

const usage = (prompt: number, completion: number) => ({ prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion })

describe.each(modes)('usage and attempt details (%s)', (mode) => {
  it('should sum usage over every HTTP request, the refused-field resend and the failed answers included', async () => {
    script(
      { status: 400, body: { error: { message: "Unsupported parameter: 'parallel_tool_calls' is not supported with this model.", param: 'parallel_tool_calls' } } },
      { body: contentResponse('Let me think.', { usage: usage(100, 10) }) },
      { status: 503, body: { error: { message: 'overloaded' } } },
      { body: toolCallResponse('click', { index: 2 }, { usage: { ...usage(120, 15), prompt_tokens_details: { cached_tokens: 100 } } }) },
    )
    const result = await run(mode)
    expect(result.toolResult).toBe('clicked 2')
    expect(server.requests).toHaveLength(4)
    expect(result.attempts).toBe(4)
    expect(result.attemptDetails.map((attempt) => [attempt.status, attempt.error?.type])).toEqual([
      [400, 'bad_request'],
      [200, 'no_tool_call'],
      [503, 'server_error'],
      [200, undefined],
    ])
    expect(result.usage).toEqual({ promptTokens: 220, completionTokens: 25, totalTokens: 245, cachedTokens: 100 })
    expect(result.usage.reasoningTokens).toBeUndefined()
    expect(result.attemptDetails[1]!.usage).toEqual({ promptTokens: 100, completionTokens: 10, totalTokens: 110 })
    expect(result.attemptDetails[0]!.usage).toEqual({})
    for (const attempt of result.attemptDetails) {
      expect(attempt.durationMs).toBeGreaterThanOrEqual(0)
      expect(attempt.rawResponse).toBeDefined()
    }
    expect(result.attemptDetails[3]!.rawResponse).toBe(result.rawResponse)
  })

  it('should leave counts the server did not report undefined, not 0', async () => {
    script({ body: { ...toolCallResponse('click', { index: 1 }), usage: { prompt_tokens: 7 } } })
    const result = await run(mode)
    expect(result.usage.promptTokens).toBe(7)
    expect(result.usage.completionTokens).toBeUndefined()
    expect(result.usage.totalTokens).toBeUndefined()
    const noUsage = toolCallResponse('click', { index: 1 })
    delete noUsage.usage
    script({ body: noUsage })
    expect((await run(mode)).usage).toEqual({})
  })

  it('should put on the final error what the step spent, and the raw response on it and on every earlier error', async () => {
    script({ body: contentResponse('No tools today.', { usage: usage(50, 5) }) })
    const error = await fail(run(mode))
    expect(error.type).toBe('no_tool_call')
    expect(server.requests).toHaveLength(4)
    expect(error.usage).toEqual({ promptTokens: 200, completionTokens: 20, totalTokens: 220 })
    expect(error.rawResponse).toMatchObject({ choices: [{ message: { content: 'No tools today.' } }] })
    expect(error.attempts).toHaveLength(3)
    for (const earlier of error.attempts) expect(earlier.rawResponse).toMatchObject({ choices: [{ message: { content: 'No tools today.' } }] })
  })

  it('should carry the raw response of invalid_tool_args, and of an HTTP error with the API key redacted', async () => {
    script({ body: toolCallResponse('click', { index: 'two' }) })
    const invalid = await fail(run(mode, { retry: 0 }))
    expect(invalid.type).toBe('invalid_tool_args')
    expect(invalid.rawResponse).toMatchObject({ choices: [{ message: { tool_calls: [{ function: { name: 'click' } }] } }] })
    expect(invalid.usage).toEqual({ promptTokens: 12, completionTokens: 8, totalTokens: 20 })

    script({ status: 401, body: { error: { message: `Incorrect API key provided: ${API_KEY}.`, code: 'invalid_api_key' } } })
    const auth = await fail(run(mode, { retry: 0 }))
    expect(auth.type).toBe('auth_error')
    expect(JSON.stringify(auth.rawResponse)).toContain('[REDACTED]')
    expect(JSON.stringify(auth.rawResponse)).not.toContain(API_KEY)
    expect(auth.usage).toEqual({})
  })
})

describe('attempt details without a response', () => {
  it('should record a refused connection with no status and no body', async () => {
    // A port nothing listens on any more (port 9 is one fetch refuses outright: a config_error).
    const closed = await startScriptedServer({ script: [] })
    await closed.close()
    const client = createClient({ baseURL: closed.url, model: 'acme-1', retry: 0 })
    const error = await fail(client.invoke(messages, tools))
    expect(error.type).toBe('network_error')
    expect(error.usage).toEqual({})
    expect(error.rawResponse).toBeUndefined()
  })
})
