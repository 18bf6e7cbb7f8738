import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { isInvokeError } from '../errors/invoke-error'
import { startScriptedServer, toolCallResponse, type ScriptedServer } from '../testing'
import { defineTool } from '../tool/define-tool'
import type { ClientConfig } from './config'
import { createClient } from './create-client'

const base = { baseURL: 'https://api.example.com/v1', model: 'gpt-4.1-mini' }

function configError(config: unknown) {
  try {
    createClient(config as ClientConfig)
  } catch (error) {
    if (isInvokeError(error)) return error
    throw error
  }
  throw new Error('createClient accepted a bad config')
}

describe('createClient', () => {
  describe('config validation', () => {
    it.each([
      ['config', undefined],
      ['config', 'https://api.example.com/v1'],
      ['baseURL', { model: 'm' }],
      ['baseURL', { ...base, baseURL: '   ' }],
      ['baseURL', { ...base, baseURL: 'api.example.com/v1' }],
      ['baseURL', { ...base, baseURL: 'ftp://api.example.com/v1' }],
      ['model', { ...base, model: undefined }],
      ['model', { ...base, model: ' ' }],
      ['apiKey', { ...base, apiKey: 42 }],
      ['apiKey', { ...base, apiKey: 'sk-abc\ndef' }],
      ['apiKey', { ...base, apiKey: 'sk-abc“def”' }],
      ['maxRetries', { ...base, maxRetries: -1 }],
      ['maxRetries', { ...base, maxRetries: 1.5 }],
      ['retry', { ...base, retry: 'twice' }],
      ['retry', { ...base, retry: -2 }],
      ['retry.limit', { ...base, retry: { limit: -1 } }],
      ['retry.baseDelayMs', { ...base, retry: { baseDelayMs: -5 } }],
      ['retry.maxDelayMs', { ...base, retry: { maxDelayMs: Number.POSITIVE_INFINITY } }],
      ['retry.maxRetryAfterMs', { ...base, retry: { maxRetryAfterMs: 'long' } }],
      ['retry.factor', { ...base, retry: { factor: 0.5 } }],
      ['retry.jitter', { ...base, retry: { jitter: 'yes' } }],
      ['timeoutMs', { ...base, timeoutMs: 0 }],
      ['timeoutMs', { ...base, timeoutMs: Number.NaN }],
      ['deadlineMs', { ...base, deadlineMs: 0 }],
      ['deadlineMs', { ...base, deadlineMs: Number.NaN }],
      // A numeric string would be concatenated to Date.now(), not added.
      ['deadlineMs', { ...base, deadlineMs: '600000' }],
      ['maxTokens', { ...base, maxTokens: 0 }],
      ['temperature', { ...base, temperature: 3 }],
      ['temperature', { ...base, temperature: '0.2' }],
      ['adapters', { ...base, adapters: {} }],
      ['registry', { ...base, registry: {} }],
      ['transformRequestBody', { ...base, transformRequestBody: 'strip' }],
      ['customFetch', { ...base, customFetch: {} }],
      ['headers', { ...base, headers: { 'x-team': 7 } }],
      ['headers.bad name', { ...base, headers: { 'bad name': 'v' } }],
      ['headers.x-trace', { ...base, headers: { 'x-trace': 'a\r\nb' } }],
      ['disableNamedToolChoice', { ...base, disableNamedToolChoice: 'true' }],
      ['logger', { ...base, logger: { log: () => {} } }],
    ])('should throw config_error naming "%s"', (field, config) => {
      const error = configError(config)
      expect(error.type).toBe('config_error')
      expect(error.retryable).toBe(false)
      expect(error.message).toContain(`"${field}"`)
      expect(error.message).toMatch(/^\[wildcall\] createClient: /)
    })

    it('should refuse a per-call deadlineMs that is a numeric string, before any request', async () => {
      const customFetch = vi.fn(async () => new Response('{}'))
      const tools = { done: defineTool({ inputSchema: z.object({ text: z.string() }) }) }
      const error = await createClient({ ...base, customFetch })
        .invoke([{ role: 'user', content: 'hi' }], tools, { deadlineMs: '5000' as unknown as number })
        .catch((caught: unknown) => caught)
      expect(isInvokeError(error) && error.type).toBe('config_error')
      expect((error as Error).message).toContain('"deadlineMs" must be a positive number of milliseconds')
      expect(customFetch).not.toHaveBeenCalled()
    })

    it.each([
      ['"signal"', { signal: {} }],
      ['"signal"', { signal: 'abort' }],
      ['"maxTokens"', { maxTokens: '100' }],
      ['"maxTokens"', { maxTokens: -5 }],
      ['"reask"', { reask: 'no' }],
      ['the options must be an object', 'fast'],
    ])('should refuse a bad call option (%s) with a config_error in invoke and stream, before any request', async (named, options) => {
      const customFetch = vi.fn(async () => new Response(JSON.stringify(toolCallResponse('done', { text: 'x' }))))
      const tools = { done: defineTool({ inputSchema: z.object({ text: z.string() }) }) }
      const client = createClient({ ...base, customFetch })
      const messages = [{ role: 'user' as const, content: 'hi' }]
      for (const [where, outcome] of [
        ['client.invoke', client.invoke(messages, tools, options as never)],
        ['client.stream', client.stream(messages, tools, options as never).result],
      ] as const) {
        const error = await outcome.catch((caught: unknown) => caught)
        expect(isInvokeError(error) && error.type).toBe('config_error')
        expect((error as Error).message).toContain(`${where}: ${named}`)
      }
      expect(customFetch).not.toHaveBeenCalled()
    })

    it.each([[null], [{ content: 'no role' }], ['hello']])('should refuse a message that is not a chat message (%j), before any request', async (message) => {
      const customFetch = vi.fn(async () => new Response(JSON.stringify(toolCallResponse('done', { text: 'x' }))))
      const tools = { done: defineTool({ inputSchema: z.object({ text: z.string() }) }) }
      const error = await createClient({ ...base, customFetch })
        .invoke([{ role: 'user', content: 'hi' }, message] as never, tools)
        .catch((caught: unknown) => caught)
      expect(isInvokeError(error) && error.type).toBe('config_error')
      expect((error as Error).message).toContain('invoke: messages[1] must be a chat message with a "role"')
      expect(customFetch).not.toHaveBeenCalled()
    })

    it('should take null call options as none', async () => {
      const customFetch = vi.fn(async () => new Response(JSON.stringify(toolCallResponse('done', { text: 'x' }))))
      const tools = { done: defineTool({ inputSchema: z.object({ text: z.string() }) }) }
      const client = createClient({ ...base, customFetch })
      expect((await client.invoke([{ role: 'user', content: 'hi' }], tools, null as never)).toolCall.args).toEqual({ text: 'x' })
      expect((await client.stream([{ role: 'user', content: 'hi' }], tools, null as never).result).toolCall.args).toEqual({ text: 'x' })
    })

    it('should never echo the API key when rejecting it', () => {
      const error = configError({ ...base, apiKey: 'sk-very-secret-key\nsecond-line' })
      expect(error.message).not.toContain('sk-very-secret-key')
    })

    it('should accept a minimal config and trailing whitespace around the key', () => {
      expect(createClient(base).model).toBe('gpt-4.1-mini')
      expect(() => createClient({ ...base, apiKey: 'sk-abc\n' })).not.toThrow()
      expect(() => createClient({ ...base, retry: { limit: 0, jitter: false }, maxRetries: 0, timeoutMs: 1, headers: { 'X-Org': 'acme' } })).not.toThrow()
      expect(() => createClient({ ...base, deadlineMs: Number.POSITIVE_INFINITY })).not.toThrow()
    })
  })

  describe('temperature', () => {
    let server: ScriptedServer
    beforeAll(async () => {
      server = await startScriptedServer({ script: [{ body: toolCallResponse('done', { text: 'ok' }) }] })
    })
    afterAll(() => server.close())
    afterEach(() => vi.restoreAllMocks())

    const tools = { done: defineTool({ inputSchema: z.object({ text: z.string() }) }) }
    const messages = [{ role: 'user', content: 'hi' }]

    it('should warn once per logger that temperature is deprecated, and still send it', async () => {
      const logger = { warn: vi.fn() }
      const first = createClient({ baseURL: server.url, model: 'm', temperature: 0.3, logger })
      createClient({ baseURL: server.url, model: 'm', temperature: 0.7, logger })
      expect(logger.warn).toHaveBeenCalledTimes(1)
      expect(logger.warn.mock.calls[0]![0]).toMatch(/^\[wildcall\] "temperature" is deprecated/)
      await first.invoke(messages, tools)
      expect(server.requests.at(-1)!.body.temperature).toBe(0.3)
    })

    it('should not warn without a temperature and send none', async () => {
      const logger = { warn: vi.fn() }
      await createClient({ baseURL: server.url, model: 'm', logger }).invoke(messages, tools)
      expect(logger.warn).not.toHaveBeenCalled()
      expect(server.requests.at(-1)!.body).not.toHaveProperty('temperature')
    })

    it('should print nothing at all without a logger', async () => {
      const spies = (['warn', 'log', 'error', 'info', 'debug'] as const).map((method) => vi.spyOn(console, method).mockImplementation(() => {}))
      const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
      await createClient({ baseURL: server.url, model: 'm', temperature: 0.5 }).invoke(messages, tools)
      for (const spy of spies) expect(spy).not.toHaveBeenCalled()
      expect(write).not.toHaveBeenCalled()
    })
  })
})
