import type { ChatMessage, ToolCall, Usage } from '../types'
import type { InvokeError as AnyInvokeError, InvokeErrorOptions, InvokeErrorType } from './invoke-error'

// The class of every InvokeError, in a module of its own so that it keeps its name at run time
// (stack traces and `inspect` show it) while `./invoke-error` exports the name `InvokeError` as a
// union discriminated by `type` (a class cannot be one) and this class as its constructor.

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

