// What a step resolves to (`InvokeResult`), and the record of each HTTP request it took
// (`AttemptDetail`).

import type { InvokeError } from '../errors/invoke-error'
import type { ChatMessage, ChatRequest, DroppedCall, ToolCall, Usage } from '../types'

/**
 * One HTTP request of a step, as `result.attemptDetails` lists them: retries after a failure and
 * resends after a refused field are each one entry.
 *
 * @example
 * ```ts
 * const result = await client.invoke(messages, tools)
 * for (const attempt of result.attemptDetails) console.debug(attempt.status, attempt.error?.type, attempt.usage.totalTokens, `${attempt.durationMs} ms`)
 * ```
 */
export interface AttemptDetail {
  /** The HTTP status; `undefined` when no response came (connection refused, timeout before the headers). */
  status: number | undefined
  /** What this request spent, as the server reported it. */
  usage: Usage
  /** Why this attempt failed; absent on the attempt that succeeded. */
  error?: InvokeError
  /** The parsed body (or the raw text when it was not JSON), API key redacted; `undefined` when no body came. */
  rawResponse: unknown
  /** From sending the request to the end of its body. */
  durationMs: number
}

/**
 * What `invoke` resolves to.
 *
 * @example
 * ```ts
 * const result: InvokeResult = await client.invoke(messages, tools)
 * if (result.fixes.length > 0) console.debug('repaired:', result.fixes.join(', '))
 * console.debug(`${result.toolCall.name} in ${result.attempts} attempt(s), ${result.usage.totalTokens} tokens`)
 * ```
 */
export interface InvokeResult<Args = unknown, Output = unknown, Name extends string = string> {
  /**
   * The called tool's name (`toolCall.name`), at the top: one `if (result.toolName === 'click')`
   * narrows `toolCall` and `toolResult` together (TypeScript narrows no parent through a nested field).
   */
  toolName: Name
  toolCall: ToolCall<Args, Name>
  /** What the tool's `execute` returned (for a macro tool: `{ input, action: { name, input }, output }`); `undefined` without `execute`. */
  toolResult: Output
  /**
   * What to append to the conversation to continue it: the assistant turn (exactly the executed
   * call, with its id, the prose the model wrote besides it, and the provider fields the next request
   * must echo) and the `role: 'tool'` message answering it. `messages.push(...result.messages)`.
   */
  messages: ChatMessage[]
  /** Summed over every HTTP attempt of the step; each attempt's own is in `attemptDetails`. */
  usage: Usage
  /** Stable repair codes applied to reach a valid call, in order, e.g. `['content-json', 'coerced:number']`. */
  fixes: string[]
  /** Calls the model made besides the one taken (only the first valid call is a step); never executed. */
  dropped: DroppedCall[]
  /** Names of the adapters that matched, in patch order, e.g. `['qwen', 'openrouter']` (the default `openai` adapter is named only for GPT models). */
  adapters: string[]
  /** The body sent on the last attempt (API key never included). */
  rawRequest: ChatRequest
  /** The parsed response body of the last attempt. */
  rawResponse: unknown
  /** How many HTTP requests the step took (1 without retries; resends after a refused field count). */
  attempts: number
  /** Every HTTP request of the step, oldest first: status, usage, error, raw response, duration. */
  attemptDetails: AttemptDetail[]
}
