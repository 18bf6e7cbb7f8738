import type { ChatMessage, ToolCall, Usage } from '../types'

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

const NOT_RETRYABLE: ReadonlySet<InvokeErrorType> = new Set<InvokeErrorType>([
  'config_error',
  'auth_error',
  'quota_exceeded',
  'model_not_found',
  'bad_request',
  'context_length',
  'output_truncated',
  'content_filter',
])

/** Whether an error of this type can succeed on a second try. */
export function isRetryableType(type: InvokeErrorType): boolean {
  return !NOT_RETRYABLE.has(type)
}

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

// A registered symbol, so two copies of the SDK (or two realms) recognise each other's errors.
const MARKER = Symbol.for('wildcall.InvokeError')

/**
 * The one error type wildcall throws (besides the caller's own `AbortError`).
 * `type` says what happened, `retryable` whether trying again can help.
 *
 * @example
 * ```ts
 * try {
 *   await client.invoke(messages, tools)
 * } catch (error) {
 *   if (isInvokeError(error) && error.type === 'context_length') shortenHistory()
 *   else throw error
 * }
 * ```
 */
export class InvokeError extends Error {
  override readonly name = 'InvokeError'
  readonly type: InvokeErrorType
  readonly retryable: boolean
  readonly status?: number
  readonly retryAfterMs?: number
  /** The response the error was read from (parsed body, or its text), API key redacted. */
  readonly rawResponse?: unknown
  /** Errors of earlier attempts, oldest first; empty when the step was tried once. */
  readonly attempts: InvokeError[]
  /** Tokens the step spent before it failed (summed over its attempts), when an invoke raised it. */
  readonly usage?: Usage
  /** `tool_execution_error`: the validated call whose tool threw. */
  readonly toolCall?: ToolCall
  /**
   * `tool_execution_error`: the assistant turn and a `role: 'tool'` message carrying the error text,
   * to append to the history so the model sees its error on the next step.
   */
  readonly messages?: ChatMessage[]
  readonly [MARKER] = true

  constructor(type: InvokeErrorType, message: string, options: InvokeErrorOptions = {}) {
    super(message.startsWith('[wildcall]') ? message : `[wildcall] ${message}`, options.cause === undefined ? undefined : { cause: options.cause })
    this.type = type
    this.retryable = options.retryable ?? isRetryableType(type)
    if (options.status !== undefined) this.status = options.status
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs
    if (options.rawResponse !== undefined) this.rawResponse = options.rawResponse
    this.attempts = options.attempts ?? []
    if (options.usage !== undefined) this.usage = options.usage
    if (options.toolCall !== undefined) this.toolCall = options.toolCall
    if (options.messages !== undefined) this.messages = options.messages
  }
}

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
