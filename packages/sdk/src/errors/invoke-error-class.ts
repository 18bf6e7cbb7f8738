import type { ChatMessage, ToolCall, Usage } from '../types'

// The class of every InvokeError, in a module of its own so that it keeps its name at run time
// (stack traces and `inspect` show it) while `./invoke-error` exports the name `InvokeError` as a
// union discriminated by `type` (a class cannot be one) and this class as its constructor.

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
  attempts?: AnyInvokeError[]
  /** What the step spent before it failed. */
  usage?: Usage
  /** The call whose tool failed (`tool_execution_error`). */
  toolCall?: ToolCall
  /** For `tool_execution_error`: the assistant turn and a tool message with the error, to show the model. */
  messages?: ChatMessage[]
}

// `InvokeError` as `./invoke-error` exports it (the union discriminated by `type`), for the fields
// that hold other errors: written here too, since this module cannot import that one back.
type AnyInvokeError =
  | (InvokeError & { readonly type: 'tool_execution_error'; readonly toolCall: ToolCall; readonly messages: ChatMessage[] })
  | (InvokeError & { readonly type: Exclude<InvokeErrorType, 'tool_execution_error'> })

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

// A registered symbol, so two copies of the SDK (or two realms) recognise each other's errors.
export const MARKER = Symbol.for('wildcall.InvokeError')

const OPTIONAL_KEYS = ['status', 'retryAfterMs', 'rawResponse', 'attempts', 'usage', 'toolCall', 'messages'] as const

/** The class behind {@link AnyInvokeError}: see `./invoke-error`. */
export class InvokeError extends Error {
  override readonly name = 'InvokeError'
  readonly type: InvokeErrorType
  readonly retryable: boolean
  readonly status?: number
  readonly retryAfterMs?: number
  /** The response the error was read from (parsed body, or its text), API key redacted. */
  readonly rawResponse?: unknown
  /** Errors of earlier attempts, oldest first; empty when the step was tried once. */
  readonly attempts!: AnyInvokeError[]
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
    // In this order (an error's keys list as they always did); `attempts` always, the others when given.
    for (const key of OPTIONAL_KEYS) {
      const value = key === 'attempts' ? (options.attempts ?? []) : options[key]
      if (value !== undefined) (this as Record<string, unknown>)[key] = value
    }
  }
}

