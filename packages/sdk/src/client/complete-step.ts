// Everything after the HTTP response of an attempt: the shape check, the finish classification, the
// adapters' `fixResponse`, repair and validation, then the tool's execution and the step's result.

// Imports in the order that bundles smallest: module order moves the gzip size (node scripts/check-size.mjs).
import { repairWithReaders } from '../repair/repair-tool-call'
import { runHook } from '../adapters/run-hook'
import { classifyFinish, type FinishClass } from '../errors/classify-finish'
import { InvokeError } from '../errors/invoke-error'
import { isPlainObject } from '../repair/coerce'
import { buildAssistantTurn, buildToolMessage, generateCallId, toolOutputContent } from './build-history'
import { executeTool } from './execute-tool'
import { sumUsage } from './normalize-usage'
import { reportedRequest } from './send-request'
import type { ChatResponse, ToolCall } from '../types'
import type { StepState } from './client-state'
import type { InvokeResult } from './invoke-result'

const FINISH_ERRORS: Record<Exclude<FinishClass, 'ok'>, (reason: string) => [InvokeError['type'], string]> = {
  truncated: (r) => ['output_truncated', `The model ran out of output tokens (finish_reason "${r}"); the cut call was not executed. Raise maxTokens or shorten the task.`],
  filtered: (r) => ['content_filter', `The provider's safety filter stopped the answer (finish_reason "${r}"). Rephrase the request.`],
  malformed: (r) => ['invalid_schema', `The provider reports a malformed function call (finish_reason "${r}"). Retrying usually helps.`],
  server_error: (r) => ['server_error', `The provider failed while generating (finish_reason "${r}"). Retrying usually helps.`],
  unknown: (r) => ['invalid_schema', `Unknown finish_reason "${r}": the answer cannot be trusted.`],
}

/**
 * Brings near-misses of the chat-completions shape into it (only when the shape is off, so a clean
 * response is untouched): `choices` as one object (`choices-object`), a choice carrying `delta`
 * (a stream chunk's shape) instead of `message` (`delta-as-message`), the completions API's `text`
 * (`completion-text`), a choice that is itself the message (`choice-as-message`), one `message`
 * and no `choices` (Ollama's and Cohere's own shapes: `message-as-choice`), and a message whose
 * `content` is the call's object rather than text (`object-content`).
 */
function normalizeShape(parsed: ChatResponse, fixes: string[]): ChatResponse {
  if (!isPlainObject(parsed)) return parsed
  let choices: unknown = parsed.choices
  if (choices === undefined && isPlainObject(parsed.message)) {
    const body = parsed as Record<string, unknown>
    choices = [{ index: 0, message: parsed.message, finish_reason: body.finish_reason ?? body.done_reason ?? body.stop_reason ?? null }]
    fixes.push('message-as-choice')
  } else if (isPlainObject(choices) && ('message' in choices || 'delta' in choices || 'text' in choices)) {
    choices = [choices]
    fixes.push('choices-object')
  }
  if (!Array.isArray(choices)) return parsed
  const first: unknown = choices[0]
  if (!isPlainObject(first)) return choices === parsed.choices ? parsed : { ...parsed, choices: choices as ChatResponse['choices'] }
  let message = first.message
  if (!isPlainObject(message)) {
    if (isPlainObject(first.delta)) {
      message = first.delta
      fixes.push('delta-as-message')
    } else if (typeof first.text === 'string') {
      message = { role: 'assistant', content: first.text }
      fixes.push('completion-text')
    } else if ('tool_calls' in first || 'content' in first || 'function_call' in first) {
      const { tool_calls, content, function_call } = first
      message = { role: 'assistant', content, tool_calls, function_call }
      fixes.push('choice-as-message')
    }
  }
  if (isPlainObject(message) && isPlainObject(message.content)) {
    message = { ...message, content: JSON.stringify(message.content) }
    fixes.push('object-content')
  }
  if (message !== first.message) choices = [{ ...first, message }, ...choices.slice(1)]
  return choices === parsed.choices ? parsed : { ...parsed, choices: choices as ChatResponse['choices'] }
}

/**
 * Everything after the HTTP response: shape check, finish classification, adapters' fixResponse,
 * repair, validation, execution.
 */
export async function completeStep(step: StepState, parsed: ChatResponse): Promise<InvokeResult> {
  const { client, context, fixes } = step
  let response = normalizeShape(parsed, fixes)
  if (typeof response !== 'object' || response === null || !Array.isArray(response.choices)) {
    throw new InvokeError('invalid_schema', 'The response has no "choices" array: the server does not speak the OpenAI chat-completions format.', { rawResponse: parsed })
  }
  if (response.choices.length === 0) {
    throw new InvokeError('no_tool_call', 'The response has an empty "choices" array: the model returned nothing.', { rawResponse: parsed })
  }
  if (typeof response.choices[0] !== 'object' || response.choices[0] === null) {
    throw new InvokeError('invalid_schema', 'The first entry of "choices" is not an object: the server does not speak the OpenAI chat-completions format.', { rawResponse: parsed })
  }
  const reason = response.choices[0].finish_reason
  let finish: FinishClass | undefined
  for (const adapter of client.chain) {
    const hook = adapter.classifyFinish
    if (hook) finish = runHook(adapter, 'classifyFinish', hook, reason, context)
    if (finish) break
  }
  // An adapter answering something that is not a FinishClass must not crash the lookup below.
  if (finish !== undefined && !Object.hasOwn(FINISH_ERRORS, finish) && finish !== 'ok') finish = 'unknown'
  finish ??= classifyFinish(reason)
  const limit = step.body.max_tokens ?? step.body.max_completion_tokens
  const completion = response.usage?.completion_tokens
  if (finish === 'ok' && typeof limit === 'number' && typeof completion === 'number' && completion >= limit) finish = 'truncated'
  if (finish !== 'ok') {
    const [type, message] = FINISH_ERRORS[finish](String(reason))
    throw new InvokeError(type, message, { rawResponse: parsed })
  }
  for (const adapter of client.responseChain) {
    const hook = adapter.fixResponse
    if (hook) response = runHook(adapter, 'fixResponse', hook, response, context) ?? response
  }
  const message = response.choices?.[0]?.message
  if (typeof message !== 'object' || message === null) {
    throw new InvokeError('invalid_schema', 'The first choice has no "message" object.', { rawResponse: parsed })
  }
  step.answer = message
  // The context carries `toolChoiceName`, all the repair's options it needs (the readers come apart).
  const repaired = repairWithReaders(message, step.tools, context, client.readers)
  // Strict tools and response_format have no optional fields: the model writes null for one it
  // leaves out, and removing that null is the form the request asked for, not a repair.
  const sent = step.body
  let repairs = repaired.fixes
  if (repairs.includes('dropped-null') && (sent.response_format !== undefined || sent.tools?.some((tool) => tool.function?.strict === true))) repairs = repairs.filter((code) => code !== 'dropped-null')
  if (repairs.length > 0) fixes.push(...repairs)
  if (fixes.length > 0) client.events.emit('fix', { callId: step.callId, attempt: step.attempt, codes: [...fixes] })
  const { tool } = repaired
  const modelId = repaired.toolCall.id
  // One id everywhere: the result, the tool's context and the history.
  const toolCall: ToolCall = { id: modelId || generateCallId(), name: repaired.toolCall.name, args: repaired.toolCall.args }
  const turn = buildAssistantTurn({ message, textBefore: repaired.textBefore, fromReasoning: repaired.fixes.includes('call-in-reasoning'), modelId }, toolCall, client.echo)
  const toolResult = tool.execute ? await executeTool(step, tool, toolCall, turn, parsed) : undefined
  return {
    toolName: toolCall.name,
    toolCall,
    toolResult,
    messages: [turn, buildToolMessage(toolCall, toolOutputContent(tool, toolResult))],
    usage: sumUsage(step.details),
    fixes: [...fixes],
    dropped: repaired.dropped,
    adapters: [...context.adapters],
    // A plain field: an object literal with a getter is slower to make than the search for a secret.
    rawRequest: reportedRequest(step),
    rawResponse: parsed,
    attempts: step.details.length,
    // The step's own list: nothing adds to it once the step has its result.
    attemptDetails: step.details,
  }
}
