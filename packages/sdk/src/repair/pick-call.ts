/**
 * The pick stage: the first valid candidate is the step, and every other call the response held is
 * reported in `dropped` (the candidates that failed before it with their failure, the ones after it
 * as `extra`) and as the fix `dropped-calls:N`. When none is valid, {@link explainFailure} turns the
 * failure that got furthest into the error.
 */
import { InvokeError } from '../errors/invoke-error'
import type { ChatResponseMessage, DroppedCall } from '../types'
import { findTool, Rank, stringField, type Context, type Failure, type ValidCall } from './repair-context'
import { droppedOf, type RawCall } from './unwrap'

/** The step: a valid call with every other call dropped, and the text written before it. */
export interface PickedCall extends ValidCall {
  textBefore?: string
}

const failures = new WeakMap<RawCall, string>()
const failureOf = (raw: RawCall) => failures.get(raw) ?? 'invalid'

/**
 * `raws[index]` resolved to `result`: the step, with the candidates `tried` before it and those after
 * it dropped, each under the declared name its written name means (`math_factorial` → `math.factorial`, `Search` → `search`).
 */
export function pickCall(result: ValidCall, raws: RawCall[], index: number, tried: RawCall[], context: Context): PickedCall {
  const dropped: DroppedCall[] = [
    ...tried.flatMap((raw) => droppedOf(raw, failureOf(raw))),
    ...raws.slice(index + 1).flatMap((raw) => droppedOf(raw, 'extra')),
    ...result.dropped,
  ]
  for (const call of dropped) {
    const found = call.name === undefined ? undefined : findTool(call.name, context)
    if (found) call.name = found.action ?? found.toolName
  }
  const fixes = [...result.fixes]
  if (dropped.length > 0) fixes.push(`dropped-calls:${dropped.length}`)
  const before = raws[index]!.before
  return before === undefined ? { ...result, fixes, dropped } : { ...result, fixes, dropped, textBefore: before }
}

/** A candidate that did not resolve: kept to explain the failure, and dropped if another is taken. */
export function recordFailure(outcome: Failure, raw: RawCall, context: Context, tried: RawCall[]): void {
  // In the reasoning only a call of a declared tool counts: an unknown name, reflection without an
  // action or JSON naming none there is an example or data, not a failed call.
  if (context.reasoning && outcome.rank < Rank.Invalid) return
  context.failures.push(outcome)
  // JSON that is no call at all (`[1]`, a citation) is not reported as a call that was not taken.
  if (!outcome.message) return
  failures.set(raw, outcome.message)
  tried.push(raw)
}

/** The error for a response without a valid call: the failure that got furthest, else what the model wrote instead. */
export function explainFailure(context: Context, answer: string, reasoning: string[], message: ChatResponseMessage): InvokeError {
  let best: Failure | undefined
  for (const failure of context.failures) if (!best || failure.rank > best.rank) best = failure
  if (best && best.rank > Rank.NoTool) return new InvokeError('invalid_tool_args', best.message)
  const said = answer.trim() || reasoning.join(' ').trim() || stringField(message.refusal).trim()
  const preview = said.slice(0, 999).replace(/\s+/g, ' ').slice(0, 200)
  // Only what the model did write is named: prose, citations and stray brackets add no detail.
  const detail = best?.message ? ` ${best.message}` : ''
  if (context.unclosed) {
    return new InvokeError(
      'no_tool_call',
      `The answer ends inside a call or JSON value that is never closed, though the output was not cut off (the model stopped on its own): malformed, not executed.${detail} Retrying usually helps.`,
    )
  }
  return new InvokeError(
    'no_tool_call',
    said
      ? `The model answered without a usable tool call: "${preview}${said.length > 200 ? '…' : ''}".${detail} Retrying usually helps; a model that never calls tools may need an adapter.`
      : `The model answered with neither a tool call nor text.${detail} Retrying usually helps.`,
  )
}
