import { type InvokeError, isAbortError, isInvokeError } from '../errors/invoke-error'

/**
 * How failed steps are retried. Only retryable {@link InvokeError}s are retried.
 *
 * @example
 * ```ts
 * // Up to 4 retries, backing off from about 1 s; a server that asks for more than 30 s is not waited for.
 * const retry: RetryOptions = { limit: 4, baseDelayMs: 1_000, maxRetryAfterMs: 30_000 }
 * const client = createClient({ baseURL, model, retry })
 * ```
 */
export interface RetryOptions {
  /** Retries after the first attempt. Default 2. */
  limit?: number | undefined
  /** First backoff delay. Default 500 ms. */
  baseDelayMs?: number | undefined
  /** Backoff growth per retry. Default 2. */
  factor?: number | undefined
  /** Cap of a computed backoff delay. Default 8,000 ms. */
  maxDelayMs?: number | undefined
  /** Randomise computed delays (full jitter between half and all of the delay). Default true. */
  jitter?: boolean | undefined
  /** A server-given delay longer than this is not waited for: the error is thrown with `retryAfterMs`. Default 60,000 ms. */
  maxRetryAfterMs?: number | undefined
}

export type ResolvedRetryOptions = Required<RetryOptions>

export const DEFAULT_RETRY: ResolvedRetryOptions = {
  limit: 2,
  baseDelayMs: 500,
  factor: 2,
  maxDelayMs: 8_000,
  jitter: true,
  maxRetryAfterMs: 60_000,
}

export interface RetryHooks {
  signal?: AbortSignal
  /** The call's deadline (`Date.now()` time): a retry that could not start before it is not waited for. */
  deadlineAt?: number | undefined
  onRetry?: (info: { attempt: number; maxAttempts: number; error: InvokeError; delayMs: number }) => void
  /** For tests and benches: the random source of jitter. */
  random?: () => number
}

/** The delay before retry number `retry` (1-based), or `undefined` when the error's server delay is too long. */
export function computeDelay(error: InvokeError, retry: number, options: ResolvedRetryOptions, random: () => number = Math.random): number | undefined {
  // A server-given delay is honoured as is (no jitter); an adapter's NaN falls back to backoff.
  if (error.retryAfterMs !== undefined && !Number.isNaN(error.retryAfterMs)) {
    return error.retryAfterMs > options.maxRetryAfterMs ? undefined : Math.max(0, error.retryAfterMs)
  }
  const raw = Math.min(options.maxDelayMs, options.baseDelayMs * options.factor ** (retry - 1))
  return options.jitter ? Math.round(raw / 2 + (raw / 2) * random()) : raw
}

/**
 * Runs `attempt` until it succeeds, throws something that is not retryable, or the retries run out.
 * The error finally thrown carries the earlier attempts' errors in `attempts`. `first` is what
 * attempt 1 threw when the caller made that attempt itself (a step that succeeds at once then pays
 * for no retry loop): the loop starts at the decision to retry it.
 */
export async function withRetry<T>(attempt: (attemptNumber: number) => Promise<T>, options: ResolvedRetryOptions, hooks: RetryHooks = {}, first?: { error: unknown }): Promise<T> {
  const maxAttempts = options.limit + 1
  const errors: InvokeError[] = []
  for (let number = 1; ; number++) {
    try {
      if (first && number === 1) throw first.error
      return await attempt(number)
    } catch (caught) {
      // The caller's abort wins over whatever the attempt threw while it was being torn down.
      if (hooks.signal?.aborted) throw abortReason(hooks.signal)
      if (isAbortError(caught) || !isInvokeError(caught)) throw caught
      const error = caught
      let delay = error.retryable && number < maxAttempts ? computeDelay(error, number, options, hooks.random) : undefined
      if (delay !== undefined && hooks.deadlineAt !== undefined && Date.now() + delay >= hooks.deadlineAt) delay = undefined
      if (delay === undefined) {
        // An attempt may rethrow the same error object (a tool that throws a stored error): never list an error in its own attempts.
        if (errors.length > 0) (error as { attempts: InvokeError[] }).attempts = [...errors.filter((earlier) => earlier !== error), ...error.attempts]
        throw error
      }
      errors.push(error)
      hooks.onRetry?.({ attempt: number, maxAttempts, error, delayMs: delay })
      await sleep(delay, hooks.signal)
    }
  }
}

/** Resolves after `ms`, or rejects at once with the signal's reason when it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal))
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(abortReason(signal!))
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/** The caller's abort reason, as an `AbortError` when the caller gave none. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError')
}

/** Turns `retry` / `maxRetries` config into full options. */
export function resolveRetryOptions(retry: number | RetryOptions | undefined, maxRetries: number | undefined): ResolvedRetryOptions {
  if (typeof retry === 'number') return { ...DEFAULT_RETRY, limit: retry }
  return { ...DEFAULT_RETRY, ...(maxRetries === undefined ? {} : { limit: maxRetries }), ...stripUndefined(retry ?? {}) }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}
