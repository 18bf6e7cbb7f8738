/**
 * Exit codes scripts can rely on.
 *
 * | code | meaning |
 * |---|---|
 * | 0 | ok: the endpoint works (clean or repaired), or the response was repaired into a valid call |
 * | 1 | the model or endpoint fails in a way retrying will not fix (auth, quota, model, unrepairable) |
 * | 2 | usage error: unknown command or flag, missing argument, unreadable file |
 * | 3 | transient failure: a retry may help (network, timeout, rate limit, server error, a bad sample) |
 * | 4 | `doctor` only: the server could not be reached at all (connection refused, unknown host) |
 */
export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  transient: 3,
  unreachable: 4,
} as const

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode]
