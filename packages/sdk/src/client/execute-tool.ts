// Running the tool of a validated call, once, and what its failure becomes.

import { errorMessage, InvokeError, isAbortError, isInvokeError } from '../errors/invoke-error'
import { isPlainObject } from '../repair/coerce'
import { abortReason } from '../retry/with-retry'
import type { Tool, ToolExecuteContext } from '../tool/types'
import type { ChatMessage, ToolCall } from '../types'
import { buildToolMessage } from './build-history'
import type { StepState } from './client-state'
import { listens } from './step-events'

/**
 * Runs the tool of a validated call, once. A throw ends the step with `tool_execution_error`,
 * retryable only when the tool (or, for a macro tool, the chosen action) opted in with
 * `retryOnError`; it carries the call and the history to show the model its error.
 */
export async function executeTool(step: StepState, tool: Tool, toolCall: ToolCall, turn: ChatMessage, rawResponse: unknown): Promise<unknown> {
  const { signal, client, callId, attempt } = step
  if (signal?.aborted) throw abortReason(signal)
  const startedAt = performance.now()
  let output: unknown
  let error: unknown
  try {
    const executeContext: ToolExecuteContext = { emit: client.events.emit, toolCallId: toolCall.id, callId, attempt }
    if (signal) executeContext.signal = signal
    return (output = await tool.execute!(toolCall.args, executeContext))
  } catch (cause) {
    error = cause
    if (signal?.aborted) throw abortReason(signal)
    if (isAbortError(cause)) throw cause
    const retryable = retriesOnError(tool, toolCall.args)
    // A tool's own InvokeError keeps its type, but a tool that ran is never run again unless it opted in.
    const type = isInvokeError(cause) ? cause.type : 'tool_execution_error'
    const detail = errorMessage(cause).replace(/^\[wildcall\] /, '')
    const messages = [turn, buildToolMessage(toolCall, `Error: ${detail}`)]
    throw new InvokeError(type, `Tool "${toolCall.name}" failed: ${detail}`, {
      cause,
      retryable: retryable && (!isInvokeError(cause) || cause.retryable),
      toolCall,
      messages,
      rawResponse,
      ...(isInvokeError(cause) && cause.status !== undefined ? { status: cause.status } : {}),
    })
  } finally {
    if (listens(client.events, 'tool')) client.events.emit('tool', { callId, attempt, name: toolCall.name, toolCallId: toolCall.id, input: toolCall.args, output, error, durationMs: performance.now() - startedAt })
  }
}

/** Whether a tool (or the action a macro tool's input chose) opted in to whole-step retries. */
function retriesOnError(tool: Tool, args: unknown): boolean {
  if (tool.retryOnError === true) return true
  const action = tool.macro && isPlainObject(args) && isPlainObject(args.action) ? Object.keys(args.action)[0] : undefined
  return action !== undefined && Object.hasOwn(tool.macro!.actions, action) && tool.macro!.actions[action]!.retryOnError === true
}
