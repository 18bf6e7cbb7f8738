// The typed event map of `client.events`: what each event of a step carries.

import type { InvokeError } from '../errors/invoke-error'
import type { ChatRequest } from '../types'
import type { EndpointProfile } from './endpoint-profile'
import type { AttemptDetail, InvokeResult } from './invoke-result'

/**
 * The typed event map of `client.events`. Every event carries the step's `callId` (one per `invoke` /
 * `stream` call), so the events of concurrent calls on one client can be told apart; the events of
 * one HTTP request also carry its `attempt` (a resend after a refused field keeps the number).
 *
 * @example
 * ```ts
 * const onRetry = (event: ClientEvents['retry']) => console.warn(`${event.callId}: attempt ${event.attempt}/${event.maxAttempts} failed (${event.error.type})`)
 * client.events.on('retry', onRetry)
 * client.events.on('response', ({ callId, status, usage, finishReason }) => console.debug(callId, status, finishReason, usage.totalTokens))
 * client.events.on('action', ({ name, durationMs }) => console.debug(`${name} took ${durationMs} ms`))
 * ```
 */
export type ClientEvents = {
  /** A request is sent (`body` with credentials redacted). */
  request: { callId: string; attempt: number; url: string; body: ChatRequest }
  /**
   * A request ended: its body was read (`rawResponse`, parsed; `usage` and `finishReason` from it),
   * or it failed (`error`: the InvokeError or the caller's abort; `status` undefined when no
   * response came). Exactly one follows each `request`; `durationMs` runs to the end of the body.
   */
  response: Omit<AttemptDetail, 'error'> & { callId: string; attempt: number; finishReason?: string | undefined; error?: unknown }
  retry: { callId: string; attempt: number; maxAttempts: number; error: InvokeError; delayMs: number }
  /** Repairs applied to an answer (`reader:<name>` names the reader that read a call from text). */
  fix: { callId: string; attempt: number; codes: string[] }
  error: { callId: string; error: InvokeError }
  /** A tool's `execute` ran (`error` when it threw). */
  tool: { callId: string; attempt: number; name: string; toolCallId: string; input: unknown; output?: unknown; error?: unknown; durationMs: number }
  /** A macro tool's chosen action ran. */
  action: { callId?: string; attempt?: number; name: string; input: unknown; output?: unknown; error?: unknown; durationMs: number }
  /** The step ended: its `result`, or the `error` it threw (an abort included). The last event of every step. */
  done: { callId: string; result?: InvokeResult; error?: unknown }
  /** The client learnt something about its endpoint: `profile` is the new `client.profile`. */
  learned: { callId: string; profile: EndpointProfile }
}
