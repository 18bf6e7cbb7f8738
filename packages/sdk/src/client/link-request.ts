/** Why a request's own signal aborted. */
export type RequestStop = 'caller' | 'idle' | 'deadline'

/**
 * The signal of one HTTP request, of its own: fetch (and the platform's listeners) hang on it, not
 * on the caller's signal, so a signal reused for thousands of calls never collects listeners.
 */
export interface RequestLink {
  /**
   * Given to fetch; aborts when the caller's signal does, when the idle gap or the deadline elapses.
   * A method, not a getter: an object literal with a getter is slow to make, and one is made per request.
   */
  signal(): AbortSignal
  /**
   * Calls `listener` once when the request stops (at once when it has), without making a signal:
   * how a stream cancels its pending read.
   */
  onStop(listener: () => void): void
  /** Why the signal aborted, once it has. */
  stopped(): RequestStop | undefined
  /** Something arrived: the idle gap starts again (the other limits are read by `stopped()`). */
  touch(): void
  /** The request is over: clears the timer and unlinks from the caller's signal. Safe to call twice. */
  release(): void
}

// setTimeout fires at once for a delay above 2^31 - 1 ms (about 24.8 days).
const MAX_TIMER_MS = 2_147_483_647

/**
 * Links a request's own signal to the caller's (one listener, removed on release) and arms one
 * timer for both limits: `idleMs` without anything arriving (see `touch`), and the absolute
 * `deadlineAt` (a `Date.now()` time) of the whole call. The timer re-arms itself instead of being
 * replaced on every chunk, so a fast stream costs no timer churn.
 *
 * The signal is made when `signal()` is first called, the listener and the timer when `signal()`
 * or `onStop()` is: a custom fetch that never looks at its signal (an in-memory transport, a test
 * double) costs none of them, and `stopped()` then reads the limits off the clock.
 *
 * @example
 * ```ts
 * const link = linkRequest(options.signal, 30_000, Date.now() + 600_000)
 * try {
 *   const response = await fetch(url, { signal: link.signal() })
 * } finally {
 *   link.release()
 * }
 * ```
 */
export function linkRequest(caller: AbortSignal | undefined, idleMs: number | undefined, deadlineAt: number | undefined): RequestLink {
  let controller: AbortController | undefined
  let onStop: (() => void) | undefined
  let stop: RequestStop | undefined
  let stopCause: unknown
  let timer: ReturnType<typeof setTimeout> | undefined
  // Only an idle limit reads the time of the last activity.
  let lastActivity = idleMs === undefined ? 0 : Date.now()
  const abort = (reason: RequestStop, cause?: unknown) => {
    if (stop) return
    stop = reason
    stopCause = cause
    release()
    controller?.abort(cause)
    onStop?.()
  }
  const onCallerAbort = () => abort('caller', caller!.reason)
  // Until somebody waits on the link (fetch on its signal, a stream on `onStop`) no timer runs:
  // the same limits, read off the clock when asked.
  const overdue = (now: number) => {
    if (caller?.aborted) abort('caller', caller.reason)
    else if (deadlineAt !== undefined && now >= deadlineAt) abort('deadline')
    else if (idleMs !== undefined && now - lastActivity >= idleMs) abort('idle')
  }
  const check = () => {
    timer = undefined
    const now = Date.now()
    overdue(now)
    if (!stop) arm(now)
  }
  const arm = (now: number) => {
    let wait = Number.POSITIVE_INFINITY
    if (deadlineAt !== undefined) wait = deadlineAt - now
    if (idleMs !== undefined) wait = Math.min(wait, lastActivity + idleMs - now)
    if (wait > MAX_TIMER_MS) return
    timer = setTimeout(check, Math.max(0, wait))
  }
  let watched = false
  let released = false
  // Somebody waits on the link from now on: the caller's signal is listened to and the timer armed (once).
  const watch = () => {
    if (watched || released) return
    watched = true
    overdue(Date.now())
    if (stop) return
    caller?.addEventListener('abort', onCallerAbort, { once: true })
    arm(Date.now())
  }
  function release() {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    caller?.removeEventListener('abort', onCallerAbort)
  }
  return {
    signal() {
      if (!controller) {
        controller = new AbortController()
        watch()
        if (stop) controller.abort(stopCause)
      }
      return controller.signal
    },
    onStop(listener) {
      onStop = listener
      watch()
      if (stop) listener()
    },
    stopped() {
      if (!watched && !stop) overdue(Date.now())
      return stop
    },
    touch() {
      // Only an idle limit reads the time of the last activity (and checks the gap before it resets
      // it); the caller's signal and the deadline are read by `stopped()`.
      if (idleMs === undefined) return
      const now = Date.now()
      if (!watched && !stop) overdue(now)
      lastActivity = now
    },
    release() {
      released = true
      onStop = undefined
      release()
    },
  }
}
