import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it, vi, type Mock } from 'vitest'
import { z } from 'zod'
import type { Adapter } from '../adapters/types'
import { InvokeError, isInvokeError, type InvokeErrorType } from '../errors/invoke-error'
import { startScriptedServer, toolCallResponse, contentResponse, type ScriptedReply, type ScriptedServer } from '../testing'
import { defineTool } from '../tool/define-tool'
import type { ChatResponse } from '../types'
import type { ClientEvents } from './client-events'
import { createClient } from './create-client'
import type { ClientConfig } from './config'

const API_KEY = 'sk-test-SECRET-0123456789abcdef'
const messages = [{ role: 'user', content: 'click the third button' }]
const fastRetry = { limit: 1, baseDelayMs: 1, maxDelayMs: 2, jitter: false }

let server: ScriptedServer
let executed: Mock<(input: { index: number }) => Promise<string>>

function makeTools() {
  executed = vi.fn(async ({ index }: { index: number }) => `clicked ${index}`)
  return {
    click: defineTool({ description: 'Click an element', inputSchema: z.object({ index: z.number().int() }), execute: executed }),
    done: defineTool({ description: 'Finish', inputSchema: z.object({ text: z.string() }) }),
  }
}

function makeClient(overrides: Partial<ClientConfig> = {}) {
  return createClient({ baseURL: server.url, model: 'gpt-4.1-mini', apiKey: API_KEY, retry: fastRetry, ...overrides })
}

function script(...replies: ScriptedReply[]) {
  server.setScript(replies)
}

async function invokeError(client = makeClient(), options: { signal?: AbortSignal } = {}): Promise<InvokeError> {
  const error = await client.invoke(messages, makeTools(), options).then(
    () => undefined,
    (caught: unknown) => caught,
  )
  if (!isInvokeError(error)) throw new Error(`expected an InvokeError, got ${String(error)}`)
  return error
}

beforeAll(async () => {
  server = await startScriptedServer({ script: [{ body: toolCallResponse('click', { index: 3 }) }] })
})
afterAll(() => server.close())

describe('invoke', () => {
  describe('HTTP error table over a real server', () => {
    const contextBodies: Array<[string, number, unknown]> = [
      ['OpenAI', 400, { error: { message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.", type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } }],
      ['DeepSeek', 400, { error: { message: "This model's maximum context length is 65536 tokens. However, you requested 70000 tokens.", type: 'invalid_request_error', code: 'invalid_request_error' } }],
      ['Anthropic', 400, { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 208310 tokens > 200000 maximum' } }],
      ['DashScope', 400, { error: { message: 'Range of input length should be [1, 129024]', type: 'invalid_request_error', code: 'invalid_parameter_error' } }],
      ['Gemini in an array', 400, [{ error: { code: 400, message: 'The input token count (1048580) exceeds the maximum number of tokens allowed (1048576).', status: 'INVALID_ARGUMENT' } }]],
      ['vLLM', 400, { object: 'error', message: "This model's maximum context length is 32768 tokens. However, you requested 40000 tokens.", type: 'BadRequestError', code: 400 }],
      ['llama.cpp 500', 500, { error: { code: 500, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error' } }],
    ]

    it.each(contextBodies)('should throw context_length for the %s wording without retrying', async (_name, status, body) => {
      script({ status, body })
      const error = await invokeError()
      expect(error.type).toBe('context_length')
      expect(error.retryable).toBe(false)
      expect(error.status).toBe(status)
      expect(server.requests).toHaveLength(1)
    })

    const table: Array<[string, ScriptedReply, InvokeErrorType, number]> = [
      ['401', { status: 401, body: { error: { message: 'Invalid API key', code: 'invalid_api_key' } } }, 'auth_error', 1],
      ['403', { status: 403, body: { error: { message: 'Forbidden' } } }, 'auth_error', 1],
      ['402 balance', { status: 402, body: { error: { message: 'Insufficient Balance' } } }, 'quota_exceeded', 1],
      ['429 insufficient_quota', { status: 429, headers: { 'retry-after-ms': '1' }, body: { error: { message: 'You exceeded your current quota.', type: 'insufficient_quota', code: 'insufficient_quota' } } }, 'quota_exceeded', 1],
      ['429 rate limit', { status: 429, headers: { 'retry-after-ms': '1' }, body: { error: { message: 'Rate limit reached', code: 'rate_limit_exceeded' } } }, 'rate_limit', 2],
      ['404 model', { status: 404, body: { error: { message: 'The model `gpt-9` does not exist', code: 'model_not_found' } } }, 'model_not_found', 1],
      ['LM Studio no model loaded', { status: 404, body: { error: { message: 'No models loaded. Please load a model.' } } }, 'model_not_found', 1],
      ['400', { status: 400, body: { error: { message: "Invalid value for 'top_logprobs'." } } }, 'bad_request', 1],
      ['422', { status: 422, body: { detail: [{ msg: 'field required' }] } }, 'bad_request', 1],
      ['500', { status: 500, body: { error: { message: 'Internal error' } } }, 'server_error', 2],
      ['502 HTML page', { status: 502, body: '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>' }, 'server_error', 2],
      ['503 loading', { status: 503, body: { error: { code: 503, message: 'Loading model', type: 'unavailable_error' } } }, 'server_error', 2],
      ['529 overloaded', { status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } }, 'server_error', 2],
      ['500 empty body', { status: 500, body: '' }, 'server_error', 2],
      ['200 {error}', { status: 200, body: { error: { message: 'upstream hiccup' } } }, 'invalid_schema', 2],
      ['200 {error} rate limit', { status: 200, body: { error: { message: 'Too many requests', code: 429 } } }, 'rate_limit', 2],
      ['200 {error} with choices: null', { status: 200, body: { choices: null, error: { message: 'Prompt is too long' } } }, 'context_length', 1],
      ['200 HTML page', { status: 200, body: '<!doctype html><html><body>Login</body></html>' }, 'invalid_response', 2],
      ['200 not JSON', { status: 200, body: 'OK' }, 'invalid_response', 2],
      ['200 empty body', { status: 200, body: '' }, 'invalid_response', 2],
      ['200 JSON of the wrong shape', { status: 200, body: { result: 'hello' } }, 'invalid_schema', 2],
      ['200 JSON null', { status: 200, body: 'null' }, 'invalid_schema', 2],
      ['200 choices not an array', { status: 200, body: { choices: { 0: {} } } }, 'invalid_schema', 2],
      ['200 empty choices', { status: 200, body: { choices: [] } }, 'no_tool_call', 2],
      ['200 choice without message', { status: 200, body: { choices: [{ finish_reason: 'stop' }] } }, 'invalid_schema', 2],
      ['200 text answer', { status: 200, body: contentResponse('I clicked it.') }, 'no_tool_call', 2],
    ]

    it.each(table)('should classify %s and send the right number of requests', async (_name, reply, type, requests) => {
      script(reply)
      const error = await invokeError()
      expect(error.type).toBe(type)
      expect(error.message).toMatch(/^\[wildcall\] /)
      expect(server.requests).toHaveLength(requests)
      expect(error.attempts).toHaveLength(requests - 1)
      expect(executed).not.toHaveBeenCalled()
    })

    it('should quote an HTML page readably, never a JSON.parse message', async () => {
      script({ status: 502, body: '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>' })
      const error = await invokeError(makeClient({ retry: 0 }))
      expect(error.message).toContain('"502 Bad Gateway"')
      expect(error.message).not.toMatch(/JSON|Unexpected token/)
    })

    it('should quote the title of an HTML page served with status 200', async () => {
      script({ status: 200, body: '<!doctype html><html><head><title>Sign in - Corp Proxy</title></head><body><form></form></body></html>' })
      const error = await invokeError(makeClient({ retry: 0 }))
      expect(error.type).toBe('invalid_response')
      expect(error.message).toContain('HTML page ("Sign in - Corp Proxy")')
      expect(error.message).not.toContain('<form>')
    })

    it('should emit the error event with the thrown error', async () => {
      script({ status: 401, body: { error: { message: 'no' } } })
      const client = makeClient()
      const seen: InvokeError[] = []
      client.events.on('error', ({ error }) => seen.push(error))
      const error = await invokeError(client)
      expect(seen).toEqual([error])
    })
  })

  describe('transport failures', () => {
    it('should retry a connection reset as network_error', async () => {
      script({ reset: true })
      const error = await invokeError()
      expect(error.type).toBe('network_error')
      expect(error.retryable).toBe(true)
      expect(server.requests).toHaveLength(2)
      expect(error.message).toContain(server.url)
    })

    it('should classify a reset in the middle of the body as network_error', async () => {
      script({ body: toolCallResponse('click', { index: 3 }), resetAfterBytes: 12 })
      const error = await invokeError(makeClient({ retry: 0 }))
      expect(error.type).toBe('network_error')
      expect(executed).not.toHaveBeenCalled()
    })

    it('should recover when a retry succeeds after a reset', async () => {
      script({ reset: true }, { body: toolCallResponse('click', { index: 4 }) })
      const result = await makeClient().invoke(messages, makeTools())
      expect(result.toolResult).toBe('clicked 4')
      expect(result.attempts).toBe(2)
    })

    it('should report a refused connection as network_error', async () => {
      const closed = await startScriptedServer({ script: [] })
      await closed.close()
      const client = createClient({ baseURL: closed.url, model: 'm', retry: 0 })
      const error = await invokeError(client)
      expect(error.type).toBe('network_error')
      expect(error.message).toMatch(/Could not reach .*ECONNREFUSED/)
    })

    it('should throw timeout when timeoutMs elapses', async () => {
      script({ delayMs: 1_500, body: toolCallResponse('click', { index: 1 }) })
      const started = Date.now()
      const error = await invokeError(makeClient({ retry: 0, timeoutMs: 40 }))
      expect(error.type).toBe('timeout')
      expect(error.retryable).toBe(true)
      expect(error.message).toContain('40 ms')
      expect(Date.now() - started).toBeLessThan(1_000)
    })

    it('should throw timeout when the body stalls after the headers', async () => {
      script({ chunks: ['{"choices": [', { text: ']}', delayMs: 1_500 }] })
      const started = Date.now()
      const error = await invokeError(makeClient({ retry: 0, timeoutMs: 60 }))
      expect(error.type).toBe('timeout')
      expect(Date.now() - started).toBeLessThan(1_000)
    })

    it('should reject with the caller\'s reason when aborted while the body is read', async () => {
      script({ chunks: ['{"choices": [', { text: ']}', delayMs: 1_500 }] })
      const controller = new AbortController()
      const reason = new DOMException('enough', 'AbortError')
      const client = makeClient()
      // The headers and the first chunk come at once, the rest 1.5 s later: the abort lands while the body is read.
      client.events.on('request', () => setTimeout(() => controller.abort(reason), 200))
      const started = Date.now()
      const error = await client.invoke(messages, makeTools(), { signal: controller.signal }).catch((caught) => caught)
      expect(error).toBe(reason)
      expect(Date.now() - started).toBeLessThan(1_000)
      expect(server.requests).toHaveLength(1)
    })

    it('should throw config_error when customFetch resolves with something that is not a Response', async () => {
      const client = createClient({ baseURL: 'http://127.0.0.1:9/v1', model: 'm', customFetch: (async () => ({ nope: true })) as unknown as typeof fetch })
      const error = await invokeError(client)
      expect(error.type).toBe('config_error')
      expect(error.message).toContain('customFetch')
    })
  })

  describe('finish reasons', () => {
    it.each(['tool_calls', 'function_call', 'stop', 'eos', 'eos_token', 'end_turn', 'tool_use', '', null])('should execute the call when finish_reason is %j', async (reason) => {
      script({ body: toolCallResponse('click', { index: 7 }, { finishReason: reason }) })
      const result = await makeClient().invoke(messages, makeTools())
      expect(result.toolCall).toMatchObject({ name: 'click', args: { index: 7 } })
      expect(result.toolResult).toBe('clicked 7')
      expect(executed).toHaveBeenCalledTimes(1)
    })

    it.each(['length', 'max_tokens', 'max_output_tokens', 'MAX_TOKENS'])('should throw output_truncated for %j and never execute the cut call', async (reason) => {
      script({ body: toolCallResponse('click', '{"index": 1', { finishReason: reason }) })
      const error = await invokeError()
      expect(error.type).toBe('output_truncated')
      expect(error.retryable).toBe(false)
      expect(server.requests).toHaveLength(1)
      expect(executed).not.toHaveBeenCalled()
    })

    it('should treat tool_calls as truncated when completion_tokens reached max_tokens', async () => {
      script({ body: toolCallResponse('click', { index: 1 }, { finishReason: 'tool_calls', usage: { prompt_tokens: 10, completion_tokens: 64, total_tokens: 74 } }) })
      const error = await invokeError(makeClient({ maxTokens: 64 }))
      expect(error.type).toBe('output_truncated')
      expect(server.requests[0]!.body.max_tokens).toBe(64)
      expect(executed).not.toHaveBeenCalled()
    })

    it('should execute a call whose completion_tokens stayed under max_tokens', async () => {
      script({ body: toolCallResponse('click', { index: 1 }, { usage: { prompt_tokens: 10, completion_tokens: 63, total_tokens: 73 } }) })
      const result = await makeClient({ maxTokens: 64 }).invoke(messages, makeTools())
      expect(result.toolResult).toBe('clicked 1')
    })

    it.each(['content_filter', 'sensitive', 'SAFETY', 'PROHIBITED_CONTENT', 'refusal', 'RECITATION'])('should throw content_filter for %j', async (reason) => {
      script({ body: toolCallResponse('click', { index: 1 }, { finishReason: reason }) })
      const error = await invokeError()
      expect(error.type).toBe('content_filter')
      expect(error.retryable).toBe(false)
      expect(server.requests).toHaveLength(1)
      expect(executed).not.toHaveBeenCalled()
    })

    it.each([
      ['MALFORMED_FUNCTION_CALL', 'invalid_schema'],
      ['error', 'server_error'],
      ['insufficient_system_resource', 'server_error'],
    ] as const)('should retry %j as %s', async (reason, type) => {
      script({ body: toolCallResponse('click', { index: 1 }, { finishReason: reason }) }, { body: toolCallResponse('click', { index: 2 }) })
      const retried: Array<ClientEvents['retry']> = []
      const client = makeClient()
      client.events.on('retry', (event) => retried.push(event))
      const result = await client.invoke(messages, makeTools())
      expect(result.toolResult).toBe('clicked 2')
      expect(retried.map((event) => event.error.type)).toEqual([type])
      expect(server.requests).toHaveLength(2)
    })

    it('should throw retryable invalid_schema for an unknown finish_reason', async () => {
      script({ body: toolCallResponse('click', { index: 1 }, { finishReason: 'banana' }) })
      const error = await invokeError()
      expect(error.type).toBe('invalid_schema')
      expect(error.message).toContain('"banana"')
      expect(server.requests).toHaveLength(2)
    })
  })

  describe('Retry-After', () => {
    async function observedDelay(reply: ScriptedReply, retry: ClientConfig['retry'] = { limit: 1, baseDelayMs: 7, jitter: false }): Promise<number> {
      script(reply, { body: toolCallResponse('click', { index: 1 }) })
      const client = makeClient({ retry })
      const delays: number[] = []
      client.events.on('retry', ({ delayMs }) => delays.push(delayMs))
      await client.invoke(messages, makeTools())
      expect(delays).toHaveLength(1)
      return delays[0]!
    }

    it('should wait retry-after-ms exactly, without jitter', async () => {
      expect(await observedDelay({ status: 429, headers: { 'retry-after-ms': '30' } }, { limit: 1, baseDelayMs: 1_000, jitter: true })).toBe(30)
    })

    it('should wait Retry-After seconds', async () => {
      expect(await observedDelay({ status: 503, headers: { 'retry-after': '0.02' } })).toBe(20)
    })

    it('should wait until a Retry-After HTTP date (one in the past means now)', async () => {
      expect(await observedDelay({ status: 429, headers: { 'retry-after': new Date(Date.now() - 5_000).toUTCString() } })).toBe(0)
    })

    it('should wait the x-ratelimit-reset-* delay', async () => {
      expect(await observedDelay({ status: 429, headers: { 'x-ratelimit-reset-tokens': '25ms', 'x-ratelimit-remaining-tokens': '0' } })).toBe(25)
    })

    it('should wait the delay the message asks for', async () => {
      expect(await observedDelay({ status: 429, body: { error: { message: 'Rate limit reached. Please try again in 0.015s.' } } })).toBe(15)
    })

    it('should fall back to ordinary backoff for a malformed header', async () => {
      expect(await observedDelay({ status: 429, headers: { 'retry-after': 'soon-ish' } })).toBe(7)
    })

    it.each([
      ['a Retry-After of an hour', { 'retry-after': '3600' }, 3_600_000],
      ['a request window that resets in three minutes', { 'x-ratelimit-reset-requests': '2m59.56s', 'x-ratelimit-remaining-requests': '0' }, 179_560],
    ])('should throw at once a retryable rate_limit that keeps retryAfterMs when the server asks for longer than maxRetryAfterMs (%s)', async (_name, headers, retryAfterMs) => {
      script({ status: 429, headers, body: { error: { message: 'Rate limit reached for requests' } } })
      const started = Date.now()
      const error = await invokeError(makeClient({ retry: { limit: 3, maxRetryAfterMs: 10_000 } }))
      expect(error).toMatchObject({ type: 'rate_limit', retryable: true, retryAfterMs })
      expect(error.message).not.toMatch(/quota|credits|balance/)
      expect(server.requests).toHaveLength(1)
      expect(Date.now() - started).toBeLessThan(1_000)
    })
  })

  describe('retry loop', () => {
    it('should emit retry events and keep every earlier error on the final one', async () => {
      script({ status: 500, body: { error: { message: 'one' } } }, { status: 503, body: { error: { message: 'two' } } }, { status: 400, body: { error: { message: 'three' } } })
      const client = makeClient({ retry: { limit: 4, baseDelayMs: 1, factor: 2, jitter: false } })
      const retried: Array<ClientEvents['retry']> = []
      client.events.on('retry', (event) => retried.push(event))
      const error = await invokeError(client)
      expect(error.type).toBe('bad_request')
      expect(error.attempts.map((earlier) => [earlier.type, earlier.status])).toEqual([['server_error', 500], ['server_error', 503]])
      expect(retried.map(({ attempt, maxAttempts, delayMs, error: earlier }) => ({ attempt, maxAttempts, delayMs, status: earlier.status }))).toEqual([
        { attempt: 1, maxAttempts: 5, delayMs: 1, status: 500 },
        { attempt: 2, maxAttempts: 5, delayMs: 2, status: 503 },
      ])
      expect(server.requests).toHaveLength(3)
    })

    it('should honour maxRetries', async () => {
      script({ status: 500 })
      const client = createClient({ baseURL: server.url, model: 'm', maxRetries: 3, retry: { baseDelayMs: 1, jitter: false } })
      await invokeError(client)
      expect(server.requests).toHaveLength(4)
    })

    it('should report attempts on success', async () => {
      script({ status: 500 }, { status: 502 }, { body: toolCallResponse('click', { index: 9 }) })
      const result = await makeClient({ retry: { limit: 2, baseDelayMs: 1, jitter: false } }).invoke(messages, makeTools())
      expect(result.attempts).toBe(3)
      expect(result.toolResult).toBe('clicked 9')
    })
  })

  describe('abort', () => {
    it('should reject at once with the caller\'s reason when aborted during the request', async () => {
      const controller = new AbortController()
      const reason = new DOMException('user left', 'AbortError')
      // Abort once the server holds the request, whatever the machine's load.
      server.setScript(() => {
        setTimeout(() => controller.abort(reason), 10)
        return { delayMs: 1_500, body: toolCallResponse('click', { index: 1 }) }
      })
      const started = Date.now()
      const error = await makeClient().invoke(messages, makeTools(), { signal: controller.signal }).catch((caught) => caught)
      expect(error).toBe(reason)
      expect(Date.now() - started).toBeLessThan(1_000)
      expect(server.requests).toHaveLength(1)
    })

    it('should reject with an AbortError when aborted without a reason', async () => {
      script({ delayMs: 2_000 })
      const controller = new AbortController()
      setTimeout(() => controller.abort(), 20)
      const error = await makeClient().invoke(messages, makeTools(), { signal: controller.signal }).catch((caught) => caught)
      expect(error).toMatchObject({ name: 'AbortError' })
      expect(isInvokeError(error)).toBe(false)
    })

    it('should reject at once when aborted during backoff, without another request', async () => {
      script({ status: 503, headers: { 'retry-after-ms': '5000' } }, { body: toolCallResponse('click', { index: 1 }) })
      const controller = new AbortController()
      const reason = new DOMException('stop', 'AbortError')
      const client = makeClient({ retry: { limit: 2 } })
      client.events.on('retry', () => setTimeout(() => controller.abort(reason), 10))
      const started = Date.now()
      const error = await client.invoke(messages, makeTools(), { signal: controller.signal }).catch((caught) => caught)
      expect(error).toBe(reason)
      expect(Date.now() - started).toBeLessThan(1_000)
      await new Promise((resolve) => setTimeout(resolve, 20))
      expect(server.requests).toHaveLength(1)
    })

    it('should not send anything when the signal is already aborted', async () => {
      script({ body: toolCallResponse('click', { index: 1 }) })
      const reason = new Error('already gone')
      const error = await makeClient().invoke(messages, makeTools(), { signal: AbortSignal.abort(reason) }).catch((caught) => caught)
      expect(error).toBe(reason)
      expect(server.requests).toHaveLength(0)
    })
  })

  describe('redaction of the API key', () => {
    it('should keep an echoed key out of the error message and rawResponse', async () => {
      script({ status: 401, body: { error: { message: `Incorrect API key provided: ${API_KEY}. Check it.`, code: 'invalid_api_key' } } })
      const error = await invokeError()
      expect(error.type).toBe('auth_error')
      expect(error.message).not.toContain(API_KEY)
      expect(error.message).toContain('[REDACTED]')
      expect(JSON.stringify(error.rawResponse)).not.toContain(API_KEY)
    })

    it('should keep an echoed key out of an HTML error page', async () => {
      script({ status: 500, body: `<html><title>Error for ${API_KEY}</title></html>` })
      const error = await invokeError(makeClient({ retry: 0 }))
      expect(error.message).not.toContain(API_KEY)
      expect(String(error.rawResponse)).not.toContain(API_KEY)
    })

    it('should keep an echoed key out of a 200 response and a 200 error body', async () => {
      script({ body: toolCallResponse('click', { index: 1 }, { message: { content: `your key is ${API_KEY}` } }) })
      const result = await makeClient().invoke(messages, makeTools())
      expect(JSON.stringify(result.rawResponse)).not.toContain(API_KEY)
      script({ body: { error: { message: `bad key ${API_KEY}` } } })
      const error = await invokeError(makeClient({ retry: 0 }))
      expect(error.message).not.toContain(API_KEY)
      expect(JSON.stringify(error.rawResponse)).not.toContain(API_KEY)
    })

    it('should keep the key out of rawRequest and the request event when transformRequestBody puts it in the body', async () => {
      script({ body: toolCallResponse('click', { index: 1 }) })
      const client = makeClient({
        transformRequestBody: (body) => {
          body.api_key = API_KEY
        },
      })
      const sentBodies: string[] = []
      client.events.on('request', ({ body }) => sentBodies.push(JSON.stringify(body)))
      const result = await client.invoke(messages, makeTools())
      expect(server.requests[0]!.body.api_key).toBe(API_KEY)
      expect(result.rawRequest.api_key).toBe('[REDACTED]')
      expect(sentBodies.join()).not.toContain(API_KEY)
    })

    it.each([
      ['api-key (Azure)', { 'api-key': 'azure-SECRET-0123456789' }, 'azure-SECRET-0123456789'],
      ['x-api-key', { 'x-api-key': 'xk-SECRET-0123456789' }, 'xk-SECRET-0123456789'],
      ['Authorization, echoed whole', { Authorization: 'Bearer tok-SECRET-0123456789' }, 'Bearer tok-SECRET-0123456789'],
      ['Authorization, token echoed alone', { Authorization: 'Bearer tok-SECRET-0123456789' }, 'tok-SECRET-0123456789'],
      ['a session token', { 'X-Session-Token': 'sess-SECRET-0123456789' }, 'sess-SECRET-0123456789'],
    ])('should keep a credential sent in headers (%s) out of the error message and rawResponse', async (_label, headers, echoed) => {
      script({ status: 401, body: { error: { message: `Key ${echoed} is not valid for this deployment.` } } })
      const error = await invokeError(makeClient({ apiKey: undefined, headers }))
      expect(error.type).toBe('auth_error')
      expect(error.message).not.toContain(echoed)
      expect(error.message).toContain('[REDACTED]')
      expect(JSON.stringify(error.rawResponse)).not.toContain(echoed)
    })

    it('should keep a key sent as a query parameter out of a 200 rawResponse, and leave other headers alone', async () => {
      script({ body: toolCallResponse('click', { index: 1 }, { message: { content: 'echo: key=q-SECRET-0123456789 trace=trace-0123456789' } }) })
      const result = await makeClient({ query: { key: 'q-SECRET-0123456789' }, headers: { 'x-trace-id': 'trace-0123456789' } }).invoke(messages, makeTools())
      expect(server.requests[0]!.path).toContain('key=q-SECRET-0123456789')
      expect(JSON.stringify(result.rawResponse)).not.toContain('q-SECRET-0123456789')
      expect(JSON.stringify(result.rawResponse)).toContain('trace=trace-0123456789')
    })

    it('should not mangle responses when the key is a short placeholder', async () => {
      script({ body: toolCallResponse('click', { index: 5 }) })
      const result = await makeClient({ apiKey: 'x' }).invoke(messages, makeTools())
      expect(result.toolCall.args).toEqual({ index: 5 })
      expect(server.requests[0]!.headers.authorization).toBe('Bearer x')
    })
  })

  describe('tool lookup and execution', () => {
    it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('should throw invalid_tool_args listing the tools when the model calls %j', async (name) => {
      script({ body: toolCallResponse(name, { index: 1 }) })
      const error = await invokeError(makeClient({ retry: 0 }))
      expect(error.type).toBe('invalid_tool_args')
      expect(error.message).toContain('click')
      expect(error.message).toContain('done')
      expect(executed).not.toHaveBeenCalled()
    })

    it('should throw tool_execution_error with the cause when execute throws, and not run the step again', async () => {
      script({ body: toolCallResponse('click', { index: 1 }) })
      const boom = new Error('element is gone')
      const tools = { click: defineTool({ inputSchema: z.object({ index: z.number() }), execute: () => { throw boom } }) }
      const error = await makeClient().invoke(messages, tools).catch((caught) => caught)
      expect(isInvokeError(error) && error.type).toBe('tool_execution_error')
      expect(error.message).toContain('element is gone')
      expect(error.cause).toBe(boom)
      expect(error.retryable).toBe(false)
      expect(server.requests).toHaveLength(1)
    })

    it('should keep the type of a tool\'s own InvokeError, with it as the cause and the call attached', async () => {
      script({ body: toolCallResponse('click', { index: 1 }) })
      const own = new InvokeError('rate_limit', 'the page refused')
      const tools = { click: defineTool({ inputSchema: z.object({ index: z.number() }), execute: () => { throw own } }) }
      const error = await makeClient().invoke(messages, tools).catch((caught) => caught)
      expect(error).toMatchObject({ type: 'rate_limit', retryable: false, toolCall: { name: 'click', args: { index: 1 } } })
      expect(error.cause).toBe(own)
      // A rate_limit is retryable, but the tool already ran: it is not run a second time.
      expect(server.requests).toHaveLength(1)
    })
  })

  describe('Groq failed_generation', () => {
    const groqError = (generation: string) => ({
      status: 400,
      body: { error: { message: "Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details.", type: 'invalid_request_error', code: 'tool_use_failed', failed_generation: generation } },
    })

    // Stands in for any repair: reads a JSON call out of `content`.
    const contentJsonAdapter: Adapter = {
      name: 'content-json-test',
      match: () => true,
      fixResponse(response: ChatResponse) {
        const message = response.choices[0]!.message
        if (typeof message.content !== 'string' || message.tool_calls) return
        const call = JSON.parse(message.content) as { name: string; arguments: unknown }
        message.tool_calls = [{ id: 'call_fg', type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } }]
      },
    }

    it('should hand the failed generation to the repair layers as the assistant message', async () => {
      script(groqError('{"name": "click", "arguments": {"index": 6}}'))
      const fixes: string[][] = []
      const client = makeClient({ adapters: [contentJsonAdapter] })
      client.events.on('fix', ({ codes }) => fixes.push(codes))
      const result = await client.invoke(messages, makeTools())
      expect(result.toolResult).toBe('clicked 6')
      expect(result.fixes[0]).toBe('failed-generation')
      expect(fixes[0]?.[0]).toBe('failed-generation')
      expect(server.requests).toHaveLength(1)
    })

    it('should throw the repair layer\'s own error when nothing is repairable', async () => {
      script(groqError('I would rather not call any tool today.'))
      const error = await invokeError(makeClient({ retry: 0 }))
      expect(error.type).toBe('no_tool_call')
      expect(error.retryable).toBe(true)
    })

    it('should classify tool_use_failed without failed_generation as bad_request', async () => {
      script({ status: 400, body: { error: { message: 'Failed to call a function.', code: 'tool_use_failed' } } })
      expect((await invokeError()).type).toBe('bad_request')
    })
  })

  describe('hooks on the error paths', () => {
    it('should throw config_error without a request when transformRequestBody throws', async () => {
      script({ body: toolCallResponse('click', { index: 1 }) })
      const error = await invokeError(makeClient({ transformRequestBody: () => { throw new Error('no body for you') } }))
      expect(error.type).toBe('config_error')
      expect(error.message).toContain('no body for you')
      expect(server.requests).toHaveLength(0)
    })

    it('should throw config_error when transformRequestBody returns something that is not a body', async () => {
      script({ body: toolCallResponse('click', { index: 1 }) })
      const error = await invokeError(makeClient({ transformRequestBody: (() => 'model=gpt') as unknown as ClientConfig['transformRequestBody'] }))
      expect(error.type).toBe('config_error')
      expect(error.message).toContain('returned string')
      expect(server.requests).toHaveLength(0)
    })

    it('should let an adapter reword an HTTP error with its own InvokeError', async () => {
      script({ status: 400, body: { error: { message: 'ERR_FAMILY_7' } } })
      const adapter: Adapter = { name: 'family', match: () => true, classifyError: (error, context) => (context.bodyText.includes('ERR_FAMILY_7') ? new InvokeError('context_length', `[family] ${error.message}`) : undefined) }
      const error = await invokeError(makeClient({ adapters: [adapter] }))
      expect(error.type).toBe('context_length')
    })

    it('should keep the classification when an adapter answers classifyError with something else', async () => {
      script({ status: 401, body: { error: { message: 'nope' } } })
      const adapter = { name: 'sloppy', match: () => true, classifyError: () => 'auth' } as unknown as Adapter
      expect((await invokeError(makeClient({ adapters: [adapter] }))).type).toBe('auth_error')
    })

    it('should treat a classifyFinish answer that is not a finish class as unknown', async () => {
      script({ body: toolCallResponse('click', { index: 1 }) })
      const adapter = { name: 'sloppy', match: () => true, classifyFinish: () => 'fine' } as unknown as Adapter
      const error = await invokeError(makeClient({ adapters: [adapter], retry: 0 }))
      expect(error.type).toBe('invalid_schema')
      expect(executed).not.toHaveBeenCalled()
    })

    it('should call a first choice that is not an object the wrong shape', async () => {
      script({ body: { choices: [5] } })
      expect((await invokeError(makeClient({ retry: 0 }))).type).toBe('invalid_schema')
    })
  })

  describe('result', () => {
    it('should normalise usage and report adapters, fixes and the raw exchange', async () => {
      const usage = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120, prompt_tokens_details: { cached_tokens: 64 }, completion_tokens_details: { reasoning_tokens: 12 } }
      script({ body: toolCallResponse([{ name: 'click', args: { index: 2 }, id: 'call_abc' }], undefined, { usage }) })
      const result = await makeClient().invoke(messages, makeTools(), { toolChoiceName: 'click' })
      expect(result).toMatchObject({
        toolCall: { id: 'call_abc', name: 'click', args: { index: 2 } },
        toolResult: 'clicked 2',
        usage: { promptTokens: 100, completionTokens: 20, totalTokens: 120, cachedTokens: 64, reasoningTokens: 12 },
        fixes: [],
        attempts: 1,
      })
      expect(result.adapters.at(-1)).toBe('openai')
      expect(result.rawRequest.tool_choice).toEqual({ type: 'function', function: { name: 'click' } })
      expect((result.rawResponse as ChatResponse).choices[0]!.message.tool_calls![0]!.id).toBe('call_abc')
    })
  })

  describe('any input from the server', () => {
    const finishReasons = fc.oneof(
      fc.constantFrom('tool_calls', 'stop', 'length', 'content_filter', 'MALFORMED_FUNCTION_CALL', 'error', '', 'eos', 'SAFETY'),
      fc.constant(null),
      fc.string({ maxLength: 12 }),
      fc.anything({ maxDepth: 1 }),
    )
    const toolCall = fc.record(
      {
        id: fc.oneof(fc.string({ maxLength: 8 }), fc.constant(null), fc.integer()),
        type: fc.constantFrom('function', 'tool', ''),
        function: fc.oneof(
          fc.record({
            name: fc.oneof(fc.constantFrom('click', 'done', 'constructor', '__proto__', 'toString'), fc.string({ maxLength: 10 }), fc.constant(null)),
            arguments: fc.oneof(fc.json({ maxDepth: 2 }), fc.constantFrom('{"index": 3}', '{"index": "3"}', '{"text": 1}', '', 'null', '{"index": 3'), fc.anything({ maxDepth: 2 })),
          }, { requiredKeys: [] }),
          fc.anything({ maxDepth: 1 }),
        ),
      },
      { requiredKeys: [] },
    )
    const message = fc.oneof(
      fc.record({
        role: fc.constantFrom('assistant', 'tool', ''),
        content: fc.oneof(fc.string({ maxLength: 40 }), fc.constant(null), fc.json({ maxDepth: 1 }), fc.anything({ maxDepth: 1 })),
        tool_calls: fc.oneof(fc.array(toolCall, { maxLength: 3 }), fc.constant(null), fc.anything({ maxDepth: 1 })),
      }, { requiredKeys: [] }),
      fc.anything({ maxDepth: 1 }),
    )
    const chatBody = fc.record(
      {
        choices: fc.oneof(fc.array(fc.record({ message, finish_reason: finishReasons, index: fc.integer() }, { requiredKeys: [] }), { maxLength: 2 }), fc.anything({ maxDepth: 1 })),
        usage: fc.oneof(fc.record({ prompt_tokens: fc.anything({ maxDepth: 0 }), completion_tokens: fc.anything({ maxDepth: 0 }) }, { requiredKeys: [] }), fc.anything({ maxDepth: 1 })),
        error: fc.oneof(fc.constant(undefined), fc.anything({ maxDepth: 2 })),
      },
      { requiredKeys: [] },
    )
    const body = fc.oneof(
      chatBody.map((value) => JSON.stringify(value) ?? ''),
      fc.json({ maxDepth: 3 }),
      fc.string({ maxLength: 60 }),
      fc.constantFrom('<html><head><title>502 Bad Gateway</title></head></html>', '<html><body><h1>Oops', '', 'null', '[]', '[{"error":{}}]', '{"error":null}', '{"error":{"failed_generation":""}}'),
      fc.record({ error: fc.record({ message: fc.oneof(fc.string({ maxLength: 30 }), fc.anything({ maxDepth: 1 })), code: fc.anything({ maxDepth: 0 }), failed_generation: fc.oneof(fc.string({ maxLength: 30 }), fc.anything({ maxDepth: 0 })) }, { requiredKeys: [] }) }).map((value) => JSON.stringify(value)),
    )
    const headerValue = fc.oneof(fc.constantFrom('0', '1', '0.001', '-1', 'soon', '1m', '250ms', 'Wed, 21 Oct 2015 07:28:00 GMT', ''), fc.stringMatching(/^[\x20-\x7E]{0,16}$/))
    const headers = fc.dictionary(fc.constantFrom('retry-after', 'retry-after-ms', 'x-ratelimit-reset-requests', 'x-ratelimit-reset-tokens', 'x-ratelimit-reset', 'x-ratelimit-remaining-tokens', 'content-type'), headerValue, { maxKeys: 4 })

    function respond(status: number, headerMap: Record<string, string>, text: string): Response {
      // Response cannot represent every status (1xx, 204, 304 …): duck-type those like a fetch polyfill would.
      try {
        return new Response(text, { status, headers: headerMap })
      } catch {
        return { status, ok: status >= 200 && status < 300, statusText: '', headers: new Headers(headerMap), text: async () => text, body: null } as unknown as Response
      }
    }

    it('should only ever resolve or reject with a classified InvokeError', async () => {
      const tools = {
        click: defineTool({ inputSchema: z.object({ index: z.number().int() }), execute: ({ index }) => index }),
        done: defineTool({ inputSchema: z.object({ text: z.string() }) }),
      }
      let rejected = 0
      await fc.assert(
        fc.asyncProperty(fc.oneof(fc.constant(200), fc.integer({ min: 100, max: 599 })), headers, body, async (status, headerMap, text) => {
          const client = createClient({ baseURL: 'http://127.0.0.1:9/v1', model: 'fuzz', apiKey: API_KEY, retry: 0, maxTokens: 50, customFetch: async () => respond(status, headerMap, text) })
          try {
            await client.invoke(messages, tools)
          } catch (error) {
            rejected++
            expect(isInvokeError(error), String(error)).toBe(true)
            const invoke = error as InvokeError
            // `unknown` with a cause would be a crash the pipeline wrapped, not a classification.
            expect(invoke.type === 'unknown' && invoke.cause !== undefined, `${invoke.message} ${String(invoke.cause)}`).toBe(false)
            expect(invoke.message.startsWith('[wildcall] ')).toBe(true)
          }
        }),
        { numRuns: 300 },
      )
      expect(rejected).toBeGreaterThan(0)
    })
  })
})
