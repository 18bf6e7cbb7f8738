import { InvokeError } from '../errors/invoke-error'

/**
 * The whole-call deadline when none is set: ten minutes, retries and backoff included (the
 * OpenAI SDK waits as long for one request). A server that accepts the connection and then
 * never answers, or trickles a byte now and then, ends in a `timeout` instead of a hang.
 */
export const DEFAULT_DEADLINE_MS = 600_000

/** What a `deadlineMs` must be, for the client's and a call's alike. */
export const DEADLINE_RULE = 'must be a positive number of milliseconds, or Infinity for none'

/** A number (not a numeric string, which `Date.now() + …` would concatenate) above 0; Infinity is none. */
export const isDeadline = (value: unknown): boolean => typeof value === 'number' && value > 0

/**
 * The `timeout` of a call past its deadline. Retryable as every timeout is (calling again may
 * succeed), but the call that raised it is not retried: its time is spent.
 */
export function deadlineError(step: { deadlineMs?: number }, cause?: unknown): InvokeError {
  return new InvokeError('timeout', `The call did not finish within deadlineMs (${step.deadlineMs} ms, retries included). Raise deadlineMs, or set timeoutMs to give up sooner on a server that stalls.`, cause === undefined ? {} : { cause })
}
