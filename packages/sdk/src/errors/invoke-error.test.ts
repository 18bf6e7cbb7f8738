import { describe, expect, it } from 'vitest'
import { InvokeError, isAbortError, isInvokeError, isRetryableType, type InvokeErrorType } from './invoke-error'

const RETRYABLE: InvokeErrorType[] = ['network_error', 'timeout', 'rate_limit', 'server_error', 'no_tool_call', 'invalid_tool_args', 'tool_execution_error', 'invalid_response', 'invalid_schema', 'unknown']
const FINAL: InvokeErrorType[] = ['config_error', 'auth_error', 'quota_exceeded', 'model_not_found', 'bad_request', 'context_length', 'output_truncated', 'content_filter']

describe('InvokeError', () => {
  it.each(RETRYABLE)('should make %s retryable by default', (type) => {
    expect(new InvokeError(type, 'x').retryable).toBe(true)
    expect(isRetryableType(type)).toBe(true)
  })

  it.each(FINAL)('should make %s final by default', (type) => {
    expect(new InvokeError(type, 'x').retryable).toBe(false)
  })

  it('should let an option override retryability', () => {
    expect(new InvokeError('bad_request', 'x', { retryable: true }).retryable).toBe(true)
    expect(new InvokeError('server_error', 'x', { retryable: false }).retryable).toBe(false)
  })

  it('should prefix the message once and keep the options', () => {
    const cause = new Error('root')
    const earlier = new InvokeError('server_error', 'first')
    const error = new InvokeError('rate_limit', 'Slow down.', { status: 429, retryAfterMs: 1_500, cause, rawResponse: { error: {} }, attempts: [earlier] })
    expect(error).toBeInstanceOf(Error)
    expect(error.name).toBe('InvokeError')
    expect(error.message).toBe('[wildcall] Slow down.')
    expect(new InvokeError('unknown', '[wildcall] [qwen] already prefixed').message).toBe('[wildcall] [qwen] already prefixed')
    expect(error).toMatchObject({ type: 'rate_limit', status: 429, retryAfterMs: 1_500, rawResponse: { error: {} }, attempts: [earlier] })
    expect(error.cause).toBe(cause)
  })

  it('should leave unset options absent and attempts empty', () => {
    const error = new InvokeError('timeout', 'late')
    expect(error.status).toBeUndefined()
    expect(error.retryAfterMs).toBeUndefined()
    expect(error.cause).toBeUndefined()
    expect(error.attempts).toEqual([])
  })
})

describe('isInvokeError', () => {
  it('should recognise errors from another copy of the SDK by the registered marker', () => {
    const foreign = Object.assign(new Error('[wildcall] from elsewhere'), { type: 'timeout', [Symbol.for('wildcall.InvokeError')]: true })
    expect(isInvokeError(foreign)).toBe(true)
    expect(isInvokeError(new InvokeError('timeout', 'x'))).toBe(true)
  })

  it.each([new Error('plain'), { type: 'timeout' }, null, undefined, 'InvokeError', Object.assign(new Error(), { name: 'InvokeError' })])('should reject %j', (value) => {
    expect(isInvokeError(value)).toBe(false)
  })
})

describe('isAbortError', () => {
  it('should recognise abort errors of fetch and signals', () => {
    expect(isAbortError(new DOMException('stop', 'AbortError'))).toBe(true)
    expect(isAbortError(AbortSignal.abort().reason)).toBe(true)
    expect(isAbortError(new Error('stop'))).toBe(false)
    expect(isAbortError(AbortSignal.timeout(0))).toBe(false)
  })
})
