// What `client.stream()` returns (`StreamRun`) and what iterating it yields (`StreamEvent`).

import type { InvokeError } from '../errors/invoke-error'
import type { DeepPartial } from '../types'
import type { InvokeResult } from './invoke-result'

/**
 * One `client.stream()` call: iterate it for live deltas, await `result` for the step's outcome.
 * Both are optional and independent: awaiting `result` alone neither leaks nor hangs (events are
 * buffered until iterated), iterating alone surfaces a failure by throwing from the loop, and an
 * unobserved failure never becomes an unhandled rejection (it is still emitted as the client's
 * `error` event). Breaking out of the loop stops the events, not the step: abort it with `signal`.
 *
 * @example
 * ```ts
 * const run: StreamRun = client.stream(messages, { AgentOutput }, { toolChoiceName: 'AgentOutput', signal })
 * for await (const event of run) {
 *   if (event.type === 'reset') clearPanel()
 *   if (event.type === 'partial') showReflection(event.args)
 * }
 * const { toolCall, toolResult } = await run.result
 * ```
 */
export interface StreamRun<Args = unknown, Output = unknown, Name extends string = string, Result = InvokeResult<Args, Output, Name>>
  extends AsyncIterable<StreamEvent<Args>> {
  /** Exactly what `invoke` resolves to: the repaired, validated and executed call (one result type per tool). */
  readonly result: Promise<Result>
}

/**
 * What iterating a `client.stream()` run yields. `reasoning`, `text` and `arguments` are raw deltas,
 * one per delta the server sent; `partial` is a best-effort parse of a tool call's arguments so far
 * (a preview, never executed; at most one per call and network read, fewer as long arguments grow);
 * `reset` says a retry restarts the stream, so a UI should clear what it showed.
 *
 * @example
 * ```ts
 * for await (const event of client.stream(messages, tools)) {
 *   if (event.type === 'partial') panel.textContent = event.args.memory ?? '' // { memory?: string; action?: … } for { AgentOutput }
 * }
 * ```
 */
export type StreamEvent<Args = unknown> =
  | { type: 'reasoning'; delta: string }
  | { type: 'text'; delta: string }
  /** `index`: the position of the tool call in this response (0 for the first). */
  | { type: 'arguments'; delta: string; index: number; name?: string }
  /** `args`: the arguments written so far, any field or item possibly missing (typed from the tools). */
  | { type: 'partial'; args: DeepPartial<Args>; index: number; name?: string }
  /** `attempt`: the attempt that failed (as in the client's `retry` event); `error`: why. */
  | { type: 'reset'; attempt: number; error: InvokeError }
