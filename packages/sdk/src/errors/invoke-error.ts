import type { ChatMessage, ToolCall } from '../types'
import { InvokeError as InvokeErrorClass, MARKER, type InvokeErrorOptions, type InvokeErrorType } from './invoke-error-class'

export { isRetryableType } from './invoke-error-class'
export type { InvokeErrorOptions, InvokeErrorType } from './invoke-error-class'

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
