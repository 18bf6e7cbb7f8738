import { describe, expect, it } from 'vitest'
import { assertLinear, sizesBetween } from '../testing/measure-growth'
import { classifyHttpError, readProviderError } from './classify-http'

function classify(status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    parsed = undefined
  }
  return classifyHttpError(status, new Headers(headers), text, parsed)
}

const openai = (message: string, code: string | null = null, type = 'invalid_request_error') => ({ error: { message, type, param: null, code } })

describe('classifyHttpError', () => {
  describe('context window, in every provider wording', () => {
    it.each([
      ['OpenAI', 400, openai("This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. Please reduce the length of the messages.", 'context_length_exceeded')],
      ['OpenAI (code only)', 400, openai('Request too big.', 'context_length_exceeded')],
      ['DeepSeek', 400, openai("This model's maximum context length is 65536 tokens. However, you requested 70000 tokens (66000 in the messages, 4000 in the completion). Please reduce the length of the messages or completion.", 'invalid_request_error')],
      ['Anthropic', 400, { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 208310 tokens > 200000 maximum' } }],
      ['DashScope', 400, { error: { code: 'invalid_parameter_error', message: '<400> InternalError.Algo.InvalidParameter: Range of input length should be [1, 129024]', type: 'invalid_request_error' } }],
      ['Gemini', 400, { error: { code: 400, message: 'The input token count (1048580) exceeds the maximum number of tokens allowed (1048576).', status: 'INVALID_ARGUMENT' } }],
      ['Gemini wrapped in an array', 400, [{ error: { code: 400, message: 'The input token count (1048580) exceeds the maximum number of tokens allowed (1048576).', status: 'INVALID_ARGUMENT' } }]],
      ['vLLM', 400, { object: 'error', message: "This model's maximum context length is 32768 tokens. However, you requested 40000 tokens in the messages, Please reduce the length of the messages.", type: 'BadRequestError', param: null, code: 400 }],
      ['vLLM (short)', 400, { object: 'error', message: 'Input length exceeds maximum context length of 8192.', type: 'BadRequestError', code: 400 }],
      ['llama.cpp', 400, { error: { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error', n_prompt_tokens: 9000, n_ctx: 8192 } }],
      ['llama.cpp with status 500', 500, { error: { code: 500, message: 'the request exceeds the available context size, try increasing it', type: 'server_error' } }],
      ['Kimi', 400, { error: { message: 'Invalid request: Your request exceeded model token limit: 131072', type: 'invalid_request_error' } }],
      ['Grok', 400, { code: 'Client specified an invalid argument', error: "This model's maximum prompt length is 131072 but the request contains 250000 tokens." }],
      ['OpenRouter relaying the upstream', 400, { error: { message: 'Provider returned error', code: 400, metadata: { raw: '{"error":{"message":"prompt is too long: 210000 tokens > 200000 maximum"}}', provider_name: 'Anthropic' } } }],
      ['a plain-text body', 413, 'Prompt is too long for this model'],
    ])('should classify %s as context_length', (_name, status, body) => {
      const error = classify(status, body)
      expect(error.type).toBe('context_length')
      expect(error.retryable).toBe(false)
      expect(error.status).toBe(status)
      expect(error.message).toMatch(/Shorten the conversation/)
    })

    it('should not mistake an unrelated 400 for a context error', () => {
      expect(classify(400, openai("Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", 'unsupported_parameter')).type).toBe('bad_request')
      expect(classify(400, openai('Invalid \'messages[1].content\': string too long. Expected a string with maximum length 10485760.', 'string_above_max_length')).type).toBe('bad_request')
    })
  })

  describe('quota versus rate limit', () => {
    it.each([
      ['a monthly usage limit that resets in days', 'Monthly usage limit reached. Resets in 16 days.', { 'retry-after': '1382400' }, 1_382_400_000, 'it resets in 16 d'],
      ['a monthly usage limit that says its reset only in words', 'Monthly usage limit reached. Resets in 16 days.', {}, 1_382_400_000, 'it resets in 16 d'],
      ['a daily quota', 'Daily request quota exceeded for this key.', {}, undefined, 'usage limit was reached'],
      ['a reset hours away', 'Too many requests. Please try again in 3 hours.', {}, 10_800_000, 'it resets in 3 h'],
    ])('should make a 429 with %s a non-retryable quota_exceeded that keeps retryAfterMs and says a usage limit was reached', (_name, message, headers, retryAfterMs, says) => {
      const error = classifyHttpError(429, new Headers(headers), JSON.stringify({ error: { message } }), { error: { message } })
      expect(error).toMatchObject({ type: 'quota_exceeded', retryable: false })
      expect(error.retryAfterMs).toBe(retryAfterMs)
      expect(error.message).toContain('a usage limit was reached')
      expect(error.message).toContain(says)
      expect(error.message).not.toMatch(/credits|balance|Top up/)
    })

    it.each([
      ['a Retry-After of two hours', { 'retry-after': '7200' }, 7_200_000],
      ['a request window that resets in three minutes', { 'x-ratelimit-reset-requests': '2m59.56s', 'x-ratelimit-remaining-requests': '0' }, 179_560],
    ])('should keep a 429 with %s a retryable rate_limit with its retryAfterMs, however long the wait', (_name, headers, retryAfterMs) => {
      const message = 'Rate limit reached for requests'
      const error = classifyHttpError(429, new Headers(headers), JSON.stringify({ error: { message } }), { error: { message } })
      expect(error).toMatchObject({ type: 'rate_limit', retryable: true, retryAfterMs })
    })

    it('should keep a per-minute rate limit that says when to retry a rate_limit', () => {
      const message = 'Rate limit reached for gpt-4.1 on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.'
      const error = classifyHttpError(429, new Headers({ 'retry-after': '20' }), JSON.stringify({ error: { message } }), { error: { message } })
      expect(error).toMatchObject({ type: 'rate_limit', retryable: true, retryAfterMs: 20_000 })
    })

    it('should read a hostile 429 body of repeated "resets in" in linear time', () => {
      expect(classifyHttpError(429, undefined, 'resets in '.repeat(20_000), undefined).type).toBe('rate_limit')
      assertLinear((count) => {
        const message = 'resets in '.repeat(count)
        return () => classifyHttpError(429, undefined, message, undefined)
      }, sizesBetween(2_000, 20_000))
    })

    it('should classify 429 insufficient_quota as quota_exceeded, never rate_limit', () => {
      const error = classify(429, openai('You exceeded your current quota, please check your plan and billing details.', 'insufficient_quota', 'insufficient_quota'), { 'retry-after': '1' })
      expect(error.type).toBe('quota_exceeded')
      expect(error.retryable).toBe(false)
      expect(error.retryAfterMs).toBeUndefined()
    })

    it.each([
      ['DeepSeek 402', 402, { error: { message: 'Insufficient Balance', type: 'unknown_error', param: null, code: 'invalid_request_error' } }],
      ['OpenRouter 402', 402, { error: { message: 'Insufficient credits. Add more using https://openrouter.ai/credits', code: 402 } }],
      ['Anthropic credit balance', 400, { type: 'error', error: { type: 'invalid_request_error', message: 'Your credit balance is too low to access the Anthropic API.' } }],
      ['Kimi', 429, { error: { message: 'Your account org-1 is suspended due to insufficient balance', type: 'exceeded_current_quota_error' } }],
      ['DashScope arrears', 400, { code: 'Arrearage', message: 'Access denied, please make sure your account is in good standing.' }],
    ])('should classify %s as quota_exceeded', (_name, status, body) => {
      const error = classify(status, body)
      expect(error.type).toBe('quota_exceeded')
      expect(error.message).toMatch(/Top up/)
    })

    it('should keep a quota message that says when to retry a rate limit (per-minute quotas)', () => {
      const body = [{ error: { code: 429, message: 'You exceeded your current quota, please check your plan and billing details. Please retry in 4.2s.', status: 'RESOURCE_EXHAUSTED' } }]
      const error = classify(429, body)
      expect(error.type).toBe('rate_limit')
      expect(error.retryAfterMs).toBe(4_200)
    })

    it('should keep a quota of "limit: 0" final even when Gemini says when to retry', () => {
      const body = [{ error: { code: 429, message: 'You exceeded your current quota, please check your plan and billing details.\n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 0, model: gemini-2.5-pro\nPlease retry in 41.7s.', status: 'RESOURCE_EXHAUSTED' } }]
      const error = classify(429, body)
      expect(error.type).toBe('quota_exceeded')
      expect(error.retryable).toBe(false)
    })

    it('should classify a plain 429 as rate_limit with the server delay', () => {
      const error = classify(429, openai('Rate limit reached for gpt-4o in organization org-1 on tokens per min (TPM): Limit 30000, Used 29000, Requested 2000. Please try again in 9.816s.', 'rate_limit_exceeded', 'tokens'))
      expect(error.type).toBe('rate_limit')
      expect(error.retryable).toBe(true)
      expect(error.retryAfterMs).toBe(9_816)
      expect(error.message).toContain('Please try again in 9.816s')
    })

    it.each([
      ['OpenAI 429', 429, openai('Request too large for gpt-4o in organization org-1 on tokens per min (TPM): Limit 30000, Requested 50000. The input or output tokens must be reduced in order to run successfully.', 'rate_limit_exceeded', 'tokens')],
      ['Groq 413', 413, openai('Request too large for model `llama-3.3-70b-versatile` in organization `org_1` service tier `on_demand` on tokens per minute (TPM): Limit 12000, Requested 15000, please reduce your message size and try again.', 'rate_limit_exceeded', 'tokens')],
    ])('should not retry a request larger than the whole per-minute limit (%s)', (_name, status, body) => {
      const error = classify(status, body, { 'retry-after': '3' })
      expect(error.type).toBe('bad_request')
      expect(error.retryable).toBe(false)
      expect(error.message).toMatch(/larger than the provider's per-minute token limit.*shorten the conversation/)
    })

    it('should keep retrying a request that fits the per-minute limit once the minute has passed', () => {
      const error = classify(429, openai('Rate limit reached for gpt-4o on tokens per min (TPM): Limit 30000, Used 29000, Requested 2000. Please try again in 2s.', 'rate_limit_exceeded', 'tokens'))
      expect(error.type).toBe('rate_limit')
    })

    it.each([
      ['Zhipu 1113', { error: { code: '1113', message: '余额不足或无可用资源包,请充值。' } }],
      ['a recharge request', { code: 50001, message: '账户已欠费，请充值后重试' }],
    ])('should read a Chinese out-of-balance message as quota_exceeded (%s)', (_name, body) => {
      expect(classify(429, body).type).toBe('quota_exceeded')
    })

    it('should read Google\'s RetryInfo detail when the message gives no delay', () => {
      const body = [{ error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED', details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '12s' }] } }]
      const error = classify(429, body)
      expect(error.type).toBe('rate_limit')
      expect(error.retryAfterMs).toBe(12_000)
    })

    it('should take the headers over the message', () => {
      expect(classify(429, openai('Slow down. Please try again in 20s.'), { 'retry-after': '2' }).retryAfterMs).toBe(2_000)
      expect(classify(429, openai('Slow down.'), { 'x-ratelimit-reset-tokens': '7.66s' }).retryAfterMs).toBe(7_660)
    })
  })

  describe('status families', () => {
    it.each([
      [401, openai('Incorrect API key provided: sk-abc***. You can find your API key at https://platform.openai.com.', 'invalid_api_key'), 'auth_error'],
      [403, { error: { message: 'Project does not have access to model gpt-5', type: 'invalid_request_error' } }, 'auth_error'],
      [400, [{ error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' } }], 'auth_error'],
      [404, openai('The model `gpt-9` does not exist or you do not have access to it.', 'model_not_found'), 'model_not_found'],
      [404, { error: 'model "llama9" not found, try pulling it first' }, 'model_not_found'],
      [404, { error: { message: 'No models loaded. Please load a model in the developer page or use the `lms load` command.', type: 'invalid_request_error', code: 'model_not_found' } }, 'model_not_found'],
      [400, { error: { message: 'Model Not Exist', type: 'invalid_request_error' } }, 'model_not_found'],
      [404, 'Not Found', 'model_not_found'],
      [429, { error: { message: 'Too Many Requests' } }, 'rate_limit'],
      [500, { error: { message: 'Internal error' } }, 'server_error'],
      [502, '', 'server_error'],
      [503, { error: { code: 503, message: 'Loading model', type: 'unavailable_error' } }, 'server_error'],
      [529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 'server_error'],
      [400, openai("Invalid value for 'tool_choice': 'required' is not supported."), 'bad_request'],
      [413, { error: { message: 'Request too large for model on tokens per minute (TPM): Limit 6000, Requested 9000.' } }, 'bad_request'],
      [422, { detail: [{ loc: ['body', 'messages'], msg: 'field required', type: 'missing' }] }, 'bad_request'],
      [408, '', 'timeout'],
      [409, '', 'unknown'],
      [302, '', 'unknown'],
    ] as const)('should classify HTTP %i %j as %s', (status, body, type) => {
      const error = classify(status, body)
      expect(error.type).toBe(type)
      expect(error.status).toBe(status)
      expect(error.message).toMatch(/^\[wildcall\] HTTP \d{3}/)
    })

    it('should say a model is loading and that retrying helps', () => {
      const error = classify(503, { error: { code: 503, message: 'Loading model', type: 'unavailable_error' } }, { 'retry-after': '1' })
      expect(error.message).toContain('still loading')
      expect(error.retryable).toBe(true)
      expect(error.retryAfterMs).toBe(1_000)
    })

    it('should set retryAfterMs only on retryable server-side errors', () => {
      expect(classify(400, openai('bad'), { 'retry-after': '1' }).retryAfterMs).toBeUndefined()
      expect(classify(401, openai('no'), { 'retry-after': '1' }).retryAfterMs).toBeUndefined()
      expect(classify(529, { error: { type: 'overloaded_error', message: 'Overloaded' } }, { 'retry-after-ms': '30' }).retryAfterMs).toBe(30)
    })
  })

  describe('bodies that are not JSON', () => {
    it('should classify an HTML error page by its status and quote its title', () => {
      const page = '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>'
      const error = classify(502, page)
      expect(error.type).toBe('server_error')
      expect(error.message).toContain('"502 Bad Gateway"')
      expect(error.message).toContain('HTML page')
      expect(error.message).not.toContain('<center>')
      expect(error.rawResponse).toBe(page)
    })

    it('should classify an HTML 401 page as auth_error', () => {
      expect(classify(401, '<html><head><title>401 Authorization Required</title></head></html>').type).toBe('auth_error')
    })

    it('should quote a plain-text body', () => {
      const error = classify(500, 'upstream connect error or disconnect/reset before headers')
      expect(error.type).toBe('server_error')
      expect(error.message).toContain('upstream connect error')
    })

    it('should cut a long provider message', () => {
      const error = classify(400, openai('x'.repeat(5_000)))
      expect(error.message.length).toBeLessThan(800)
      expect(error.message).toContain('…')
    })
  })

  describe('HTTP 200 carrying an error', () => {
    it.each([
      [{ error: { message: 'Rate limit exceeded. Please try again in 2s.', code: 429 } }, 'rate_limit'],
      [{ error: { message: 'Upstream overloaded', code: 'overloaded_error' } }, 'server_error'],
      [{ error: { message: "This model's maximum context length is 4096 tokens." } }, 'context_length'],
      [{ error: { message: 'Invalid API key', type: 'authentication_error' } }, 'auth_error'],
      [[{ error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } }], 'server_error'],
      [{ error: { message: 'Something odd happened' } }, 'invalid_schema'],
      [{ error: 'internal error' }, 'server_error'],
      [{ error: { message: 'Invalid tools', type: 'invalid_request_error' } }, 'bad_request'],
    ] as const)('should classify %j as %s', (body, type) => {
      const error = classify(200, body)
      expect(error.type).toBe(type)
      expect(error.status).toBe(200)
      expect(error.message).toContain('HTTP 200 with an error body')
    })

    it('should fill retryAfterMs from the message of a 200 rate-limit body', () => {
      expect(classify(200, { error: { message: 'Rate limit exceeded. Please try again in 2s.', code: 429 } }).retryAfterMs).toBe(2_000)
    })
  })

  it('should quote the provider message and code and say what to do', () => {
    const error = classify(401, openai('Incorrect API key provided.', 'invalid_api_key'))
    expect(error.message).toBe('[wildcall] HTTP 401, the API key was rejected or has no access: "Incorrect API key provided." (invalid_api_key, invalid_request_error). Check apiKey (it must belong to this baseURL\'s provider) and that your account may use this model.')
  })

  it('should name the status with the server\'s reason phrase, and only the number when HTTP/2 sends none', () => {
    const said = classifyHttpError(503, undefined, '{}', {}, 'Service Temporarily Unavailable')
    expect(said.message).toMatch(/^\[wildcall\] HTTP 503 Service Temporarily Unavailable, /)
    expect(classifyHttpError(503, undefined, '{}', {}, '').message).toMatch(/^\[wildcall\] HTTP 503, /)
  })

  it('should keep the parsed body as rawResponse', () => {
    const body = openai('nope')
    expect(classify(400, body).rawResponse).toEqual(body)
  })

  // Wordings the field guide does not list, from other providers and servers.
  it.each([
    ['Azure content filter', 400, { error: { code: 'content_filter', message: "The response was filtered due to the prompt triggering Azure OpenAI's content management policy." } }, 'content_filter'],
    ['a moderation refusal', 403, { error: { message: 'Your input was flagged by the moderation system.', code: 403 } }, 'content_filter'],
    ['a Chinese sensitive-content refusal', 400, { error: { code: '1301', message: '系统检测到输入或生成内容可能包含不安全或敏感内容' } }, 'content_filter'],
    ['Together', 400, { error: { message: 'Input validation error: `inputs` tokens + `max_new_tokens` must be <= 8193. Given: 9000 `inputs` tokens and 512 `max_new_tokens`', type: 'invalid_request_error' } }, 'context_length'],
    ['TGI', 422, { error: 'Input validation error: `inputs` must have less than 4096 tokens. Given: 5000', error_type: 'validation' }, 'context_length'],
    ['Cohere-style', 400, { message: 'too many tokens: total number of tokens in the prompt cannot exceed 4081 - received 5000' }, 'context_length'],
    ['SGLang', 400, { object: 'error', message: "The input (5000 tokens) is longer than the model's context length (4096 tokens).", type: 'BadRequestError', code: 400 }, 'context_length'],
    ['Zhipu in Chinese', 400, { error: { code: '1261', message: 'Prompt 超长' } }, 'context_length'],
    ['a decommissioned model', 400, { error: { message: 'The model `mixtral-8x7b-32768` has been decommissioned and is no longer supported.', type: 'invalid_request_error', code: 'model_decommissioned' } }, 'model_not_found'],
    ['max_tokens over the model limit (not the prompt)', 400, { error: { message: 'max_tokens is too large: 100000. This model supports at most 16384 completion tokens, whereas you provided 100000.', code: 'invalid_value' } }, 'bad_request'],
    ['a server without tool parsing', 400, { error: { message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set', type: 'BadRequestError' } }, 'bad_request'],
  ])('should classify %s', (_name, status, body, type) => {
    expect(classifyHttpError(status, undefined, JSON.stringify(body), body).type).toBe(type)
  })

  it('should quote a message that holds quotes itself once, not as ""auto" …"', () => {
    const body = { error: { message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set', type: 'BadRequestError' } }
    const error = classifyHttpError(400, undefined, JSON.stringify(body), body)
    expect(error.message).not.toContain('""')
    expect(error.message).toContain(`: "'auto' tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set"`)
    expect(classify(400, openai('plain words')).message).toContain(': "plain words"')
  })

  it('should accept plain-record headers and none at all', () => {
    expect(classifyHttpError(429, { 'Retry-After': '3' }, '', undefined).retryAfterMs).toBe(3_000)
    expect(classifyHttpError(429, undefined, '', undefined).type).toBe('rate_limit')
  })
})

describe('readProviderError', () => {
  it.each([
    [{ error: { message: 'm', code: 'c', type: 't' } }, { message: 'm', code: 'c', type: 't' }],
    [{ error: 'plain' }, { message: 'plain' }],
    [[{ error: { code: 400, message: 'g', status: 'INVALID_ARGUMENT' } }], { message: 'g', code: '400', status: 'INVALID_ARGUMENT' }],
    [{ object: 'error', message: 'v', type: 'BadRequestError', code: 400 }, { message: 'v', type: 'BadRequestError', code: '400' }],
    [{ code: 'Throttling', message: 'd' }, { message: 'd', code: 'Throttling' }],
    [{ detail: 'Not Found' }, { message: 'Not Found' }],
    [{ errors: [{ message: 'cf', code: 1000 }] }, { message: 'cf', code: '1000' }],
    [{ error: { message: 'Failed to call a function.', code: 'tool_use_failed', failed_generation: '<function=a>{}</function>' } }, { message: 'Failed to call a function.', code: 'tool_use_failed', failedGeneration: '<function=a>{}</function>' }],
    ['just a string', { message: 'just a string' }],
    [42, { message: '42' }],
  ])('should read %j', (body, expected) => {
    expect(readProviderError(body, JSON.stringify(body))).toEqual(expected)
  })

  it('should read the title of an HTML page', () => {
    expect(readProviderError(undefined, '<html><head><title>503 Service Temporarily Unavailable</title></head></html>')).toEqual({ message: '503 Service Temporarily Unavailable', html: true })
  })

  it('should decode the character references of an HTML page title, and each only once', () => {
    const page = '<html><head><title>Can&#x27;t reach &quot;api&quot;&nbsp;&#8212; &amp;lt;proxy&amp;gt; &copy;</title></head></html>'
    expect(readProviderError(undefined, page)).toEqual({ message: 'Can\'t reach "api" \u2014 &lt;proxy&gt; &copy;', html: true })
  })

  it('should return nothing for an empty body', () => {
    expect(readProviderError(undefined, '  ')).toEqual({})
  })
})
