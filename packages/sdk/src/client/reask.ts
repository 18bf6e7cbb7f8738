import type { InvokeError } from '../errors/invoke-error'
import { isPlainObject } from '../repair/coerce'
import type { ChatMessage, ChatResponseMessage, ChatToolCall } from '../types'
import type { ToolSet } from '../tool/types'
import { tryStringify } from '../util/stringify'
import { copyEchoed, generateCallId } from './build-history'
import type { ResolvedEchoFields } from './collect-echo-fields'

/** The failures a model can fix itself once told what was wrong. */
export function isReaskable(error: InvokeError): boolean {
  return error.type === 'invalid_tool_args' || error.type === 'no_tool_call'
}

// A failed answer is sent back as the model wrote it, up to this many characters per text: enough
// for the model to see its mistake, bounded so a runaway answer does not double the next prompt.
const MAX_ECHOED = 4_000

/**
 * The messages a reask appends to the step's history: the model's failed answer as it wrote it (its
 * tool calls with their ids, its text, the provider fields its family needs echoed), then what was
 * wrong and what to do — as the tool result of a native call, or as a user message after text.
 *
 * @example
 * ```ts
 * reaskMessages(error, { role: 'assistant', content: 'I will click.' }, { click, done }, undefined, echo)
 * // [{ role: 'assistant', content: 'I will click.' },
 * //  { role: 'user', content: 'Your last answer contained no tool call. … Call one of the tools click, done …' }]
 * ```
 */
export function reaskMessages(error: InvokeError, answer: ChatResponseMessage, tools: ToolSet, toolChoiceName: string | undefined, echo: ResolvedEchoFields): ChatMessage[] {
  const feedback = describeFailure(error, tools, toolChoiceName)
  const calls = Array.isArray(answer.tool_calls) ? answer.tool_calls.filter(isPlainObject) : []
  const text = typeof answer.content === 'string' ? clip(answer.content) : ''
  const turn = copyEchoed(answer, { role: 'assistant', content: text === '' ? null : text }, echo)
  if (calls.length === 0) {
    // An empty assistant turn is refused by some servers: then the feedback alone says it.
    return turn.content === null ? [{ role: 'user', content: feedback }] : [turn, { role: 'user', content: feedback }]
  }
  const echoed = calls.map((call) => echoCall(call as ChatToolCall, echo))
  turn.tool_calls = echoed
  // Every call of an assistant turn needs its tool message; the first one carries the feedback.
  return [turn, ...echoed.map((call, index) => ({ role: 'tool', tool_call_id: call.id, content: index === 0 ? feedback : 'Not executed: call exactly one tool per answer.' }))]
}

/** What was wrong and what to do, in words for the model. */
export function describeFailure(error: InvokeError, tools: ToolSet, toolChoiceName: string | undefined): string {
  const names = Object.keys(tools)
  const target = toolChoiceName !== undefined && Object.hasOwn(tools, toolChoiceName) ? toolChoiceName : names.length === 1 ? names[0] : undefined
  const call = target === undefined ? `Call exactly one of the tools ${names.join(', ')}` : `Call the tool ${target}`
  if (error.type === 'no_tool_call') {
    return `Your last answer contained no tool call. ${call} now, with JSON arguments that match its schema; do not answer in prose.`
  }
  const reason = error.message.replace(/^\[wildcall\] /, '').replace(/ ?Retrying usually helps\.?$/, '')
  return `Your last tool call was invalid: ${reason} ${call} again with arguments that match its schema.`
}

function echoCall(call: ChatToolCall, echo: ResolvedEchoFields): ChatToolCall {
  const fn: Record<string, unknown> = isPlainObject(call.function) ? call.function : {}
  const raw = fn.arguments
  const args = clip(typeof raw === 'string' ? raw : (tryStringify(raw ?? {}) ?? '{}'))
  const echoed: ChatToolCall = {
    id: typeof call.id === 'string' && call.id !== '' ? call.id : generateCallId(),
    type: 'function',
    function: { name: typeof fn.name === 'string' ? fn.name : '', arguments: args },
  }
  for (const field of echo.toolCall) if (call[field] !== undefined && !(field in echoed)) echoed[field] = call[field]
  return echoed
}

function clip(text: string): string {
  return text.length > MAX_ECHOED ? `${text.slice(0, MAX_ECHOED)}…` : text
}
