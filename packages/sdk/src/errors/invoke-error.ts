import type { ChatMessage, ToolCall, Usage } from '../types'
import { InvokeError as InvokeErrorClass, MARKER } from './invoke-error-class'

export { isRetryableType } from './invoke-error-class'

/**
 * Every kind of failure wildcall reports. See the README's error table.
 *
 * @example
 * ```ts
 * const giveUp: InvokeErrorType[] = ['auth_error', 'quota_exceeded', 'model_not_found']
 * if (isInvokeError(error) && giveUp.includes(error.type)) stopAgent(error.message)
 * ```
 */
export type InvokeErrorType =
  | 'network_error'
  | 'timeout'
  | 'rate_limit'
  | 'server_error'
  | 'no_tool_call'
  | 'invalid_tool_args'
  | 'tool_execution_error'
  | 'invalid_response'
  | 'invalid_schema'
  | 'unknown'
  | 'config_error'
  | 'auth_error'
  | 'quota_exceeded'
  | 'model_not_found'
  | 'bad_request'
  | 'context_length'
  | 'output_truncated'
  | 'content_filter'

/**
 * Options of an {@link InvokeError}.
 *
 * @example
 * ```ts
 * // e.g. from an adapter's classifyError or a tool's execute: retried after 5 s, not after the backoff
 * throw new InvokeError('rate_limit', 'Acme is busy.', { status: 429, retryAfterMs: 5_000 })
 * ```
 */
export interface InvokeErrorOptions {
  status?: number
  retryAfterMs?: number
  cause?: unknown
  rawResponse?: unknown
  /** Overrides the type's default retryability. */
  retryable?: boolean
  /** The errors of earlier attempts, oldest first (set on the error a retry loop finally throws). */
  attempts?: InvokeError[]
  /** What the step spent before it failed. */
  usage?: Usage
  /** The call whose tool failed (`tool_execution_error`). */
  toolCall?: ToolCall
  /** For `tool_execution_error`: the assistant turn and a tool message with the error, to show the model. */
  messages?: ChatMessage[]
}

/**
 * The one error type wildcall throws (besides the caller's own `AbortError`).
 * `type` says what happened, `retryable` whether trying again can help. Checking `type` narrows:
 * a `tool_execution_error` from `invoke` or `stream` carries the call whose tool threw (`toolCall`)
 * and the history that shows the model its error (`messages`).
 *
 * @example
 * ```ts
 * try {
 *   await client.invoke(messages, tools)
 * } catch (error) {
 *   if (isInvokeError(error) && error.type === 'context_length') shortenHistory()
 *   else if (isInvokeError(error) && error.type === 'tool_execution_error') messages.push(...error.messages)
 *   else throw error
 * }
 * ```
 */
export type InvokeError =
  | (InvokeErrorClass & { readonly type: 'tool_execution_error'; readonly toolCall: ToolCall; readonly messages: ChatMessage[] })
  | (InvokeErrorClass & { readonly type: Exclude<InvokeErrorType, 'tool_execution_error'> })

/**
 * The constructor of {@link InvokeError}: `new InvokeError(type, message, options)`, and
 * `error instanceof InvokeError` narrows as {@link isInvokeError} does (within one copy of the SDK;
 * `isInvokeError` works across copies).
 *
 * @example
 * ```ts
 * throw new InvokeError('rate_limit', 'Acme is busy.', { status: 429, retryAfterMs: 5_000 })
 * ```
 */
export interface InvokeErrorConstructor {
  new (type: InvokeErrorType, message: string, options?: InvokeErrorOptions): InvokeError
  readonly prototype: InvokeError
}

/**
 * Creates an {@link InvokeError}.
 *
 * @example
 * ```ts
 * throw new InvokeError('config_error', 'acme: pass an apiKey.')
 * ```
 */
export const InvokeError = InvokeErrorClass as unknown as InvokeErrorConstructor

/**
 * True for an {@link InvokeError} from any copy of the SDK (checks a registered marker, not `instanceof`).
 *
 * @example
 * ```ts
 * catch (error) { if (isInvokeError(error) && error.retryable) scheduleLater() }
 * ```
 */
export function isInvokeError(value: unknown): value is InvokeError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true
}

/** The message of anything thrown: an `Error`'s message, anything else as text. */
export const errorMessage = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause))

/** True for the `AbortError` a fetch or an aborted signal throws. */
export function isAbortError(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { name?: unknown }).name === 'AbortError'
}
