import { describe, expect, it, vi } from 'vitest'
import { InvokeError } from '../errors/invoke-error'
import { computeDelay, DEFAULT_RETRY, resolveRetryOptions, sleep, withRetry } from './with-retry'

const fast = { ...DEFAULT_RETRY, baseDelayMs: 1, maxDelayMs: 4, jitter: false }

describe('computeDelay', () => {
  const plain = new InvokeError('server_error', 'boom')

  it('should grow exponentially and stop at maxDelayMs', () => {
    const options = { ...DEFAULT_RETRY, baseDelayMs: 100, factor: 2, maxDelayMs: 350, jitter: false }
    expect([1, 2, 3, 4].map((retry) => computeDelay(plain, retry, options))).toEqual([100, 200, 350, 350])
  })

  it('should jitter between half and all of the computed delay', () => {
    const options = { ...DEFAULT_RETRY, baseDelayMs: 1_000 }
    expect(computeDelay(plain, 1, options, () => 0)).toBe(500)
    expect(computeDelay(plain, 1, options, () => 0.999_999)).toBe(1_000)
    expect(computeDelay(plain, 2, options, () => 0.5)).toBe(1_500)
  })

  it('should honour a server-given delay without jitter', () => {
    const limited = new InvokeError('rate_limit', 'slow down', { retryAfterMs: 1_234 })
    expect(computeDelay(limited, 1, DEFAULT_RETRY, () => 0)).toBe(1_234)
    expect(computeDelay(limited, 3, DEFAULT_RETRY, () => 0.7)).toBe(1_234)
  })

  it('should refuse to wait for a server delay over maxRetryAfterMs', () => {
    const limited = new InvokeError('rate_limit', 'slow down', { retryAfterMs: 61_000 })
    expect(computeDelay(limited, 1, DEFAULT_RETRY)).toBeUndefined()
    expect(computeDelay(limited, 1, { ...DEFAULT_RETRY, maxRetryAfterMs: 120_000 })).toBe(61_000)
  })

  it('should fall back to backoff for a NaN server delay', () => {
    const odd = new InvokeError('rate_limit', 'slow down', { retryAfterMs: Number.NaN })
    expect(computeDelay(odd, 1, fast)).toBe(1)
  })
})

describe('resolveRetryOptions', () => {
  it('should default to two retries', () => {
    expect(resolveRetryOptions(undefined, undefined)).toEqual(DEFAULT_RETRY)
    expect(DEFAULT_RETRY.limit).toBe(2)
  })

  it('should take a number as the limit and maxRetries when retry is not an object with a limit', () => {
    expect(resolveRetryOptions(5, 1).limit).toBe(5)
    expect(resolveRetryOptions(undefined, 0).limit).toBe(0)
    expect(resolveRetryOptions({ baseDelayMs: 10 }, 4)).toMatchObject({ limit: 4, baseDelayMs: 10 })
    expect(resolveRetryOptions({ limit: 1, baseDelayMs: undefined }, 4)).toMatchObject({ limit: 1, baseDelayMs: 500 })
  })
})

describe('withRetry', () => {
  it('should retry retryable errors and report each retry', async () => {
    const onRetry = vi.fn()
    let calls = 0
    const result = await withRetry(async (attempt) => {
      calls++
      if (attempt < 3) throw new InvokeError('server_error', `fail ${attempt}`)
      return 'ok'
    }, fast, { onRetry })
    expect(result).toBe('ok')
    expect(calls).toBe(3)
    expect(onRetry.mock.calls.map(([info]) => [info.attempt, info.maxAttempts, info.delayMs, info.error.message])).toEqual([
      [1, 3, 1, '[wildcall] fail 1'],
      [2, 3, 2, '[wildcall] fail 2'],
    ])
  })

  it('should not retry an error that is not retryable', async () => {
    let calls = 0
    const error = await withRetry(async () => {
      calls++
      throw new InvokeError('auth_error', 'no')
    }, fast).catch((caught) => caught)
    expect(error.type).toBe('auth_error')
    expect(error.attempts).toEqual([])
    expect(calls).toBe(1)
  })

  it('should throw the last error with every earlier one in attempts', async () => {
    const error = await withRetry(async (attempt) => {
      throw new InvokeError(attempt === 3 ? 'bad_request' : 'rate_limit', `fail ${attempt}`)
    }, { ...fast, limit: 5 }).catch((caught) => caught)
    expect(error.type).toBe('bad_request')
    expect(error.attempts.map((earlier: InvokeError) => earlier.message)).toEqual(['[wildcall] fail 1', '[wildcall] fail 2'])
  })

  it('should stop after limit retries', async () => {
    let calls = 0
    const error = await withRetry(async () => {
      calls++
      throw new InvokeError('timeout', 'slow')
    }, { ...fast, limit: 1 }).catch((caught) => caught)
    expect(calls).toBe(2)
    expect(error.attempts).toHaveLength(1)
  })

  it('should never list an error in its own attempts', async () => {
    const same = new InvokeError('server_error', 'again')
    const error = await withRetry(async () => {
      throw same
    }, fast).catch((caught) => caught)
    expect(error).toBe(same)
    expect(error.attempts).not.toContain(same)
  })

  it('should throw a too-long server delay at once with retryAfterMs set', async () => {
    const onRetry = vi.fn()
    let calls = 0
    const started = Date.now()
    const error = await withRetry(async () => {
      calls++
      throw new InvokeError('rate_limit', 'later', { retryAfterMs: 3_600_000 })
    }, fast, { onRetry }).catch((caught) => caught)
    expect(calls).toBe(1)
    expect(onRetry).not.toHaveBeenCalled()
    expect(error.retryAfterMs).toBe(3_600_000)
    expect(Date.now() - started).toBeLessThan(500)
  })

  it('should pass through non-InvokeErrors and aborts unretried', async () => {
    let calls = 0
    const boom = new TypeError('bug')
    await expect(withRetry(async () => {
      calls++
      throw boom
    }, fast)).rejects.toBe(boom)
    expect(calls).toBe(1)
  })

  it('should reject at once with the caller\'s reason when aborted during backoff', async () => {
    const controller = new AbortController()
    const reason = new DOMException('stop', 'AbortError')
    let calls = 0
    const started = Date.now()
    const pending = withRetry(async () => {
      calls++
      throw new InvokeError('server_error', 'fail', { retryAfterMs: 5_000 })
    }, fast, { signal: controller.signal, onRetry: () => setTimeout(() => controller.abort(reason), 5) })
    await expect(pending).rejects.toBe(reason)
    expect(calls).toBe(1)
    expect(Date.now() - started).toBeLessThan(1_000)
  })

  it('should prefer the abort over an error thrown while aborting', async () => {
    const controller = new AbortController()
    const pending = withRetry(async () => {
      controller.abort()
      throw new InvokeError('tool_execution_error', 'torn down')
    }, fast, { signal: controller.signal })
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' })
  })
})

describe('sleep', () => {
  it('should reject at once when the signal is already aborted', async () => {
    const reason = new Error('gone')
    await expect(sleep(10_000, AbortSignal.abort(reason))).rejects.toBe(reason)
  })

  it('should resolve after the delay', async () => {
    const started = Date.now()
    await sleep(20)
    expect(Date.now() - started).toBeGreaterThanOrEqual(15)
  })
})
