import { isPlainObject } from '../repair/coerce'
import { splitReasoning } from '../repair/split-reasoning'
import type { ChatMessage, ChatResponseMessage, ChatToolCall, ToolCall } from '../types'
import type { Tool } from '../tool/types'
import { tryStringify } from '../util/stringify'
import { isReasoningField } from './adapt-to-message-field'
import type { ResolvedEchoFields } from './collect-echo-fields'

let counter = 0

/**
 * An id for a call the model gave none (a call repaired out of text): unique within the process and
 * unlikely to collide across processes, in the `call_…` shape servers use.
 */
export function generateCallId(): string {
  counter = (counter + 1) % 0x100000
  return `call_${Date.now().toString(36)}${counter.toString(36).padStart(4, '0')}${Math.random().toString(36).slice(2, 8)}`
}

/** The text a tool message carries for a tool's output: the tool's own conversion, a string as is, anything else as JSON. */
export function toolOutputContent(tool: Tool | undefined, output: unknown): string {
  if (tool?.toModelOutput) return String(tool.toModelOutput(output))
  return formatToolOutput(output)
}

/**
 * The default rendering of a tool's output for the model: a string as it is, nothing as `''`,
 * anything else as JSON (a value JSON cannot hold — a cycle, a BigInt — as its `String`).
 */
export function formatToolOutput(output: unknown): string {
  if (typeof output === 'string') return output
  return output === undefined ? '' : (tryStringify(output) ?? String(output))
}

/** What the history needs to know about the answer a call was taken from. */
export interface AnswerSource {
  /** The assistant message of the response (after the adapters' `fixResponse`). */
  message: ChatResponseMessage
  /** Text the model wrote before a call it wrote into its text (undefined for a native call). */
  textBefore?: string | undefined
  /** Whether the call was read from the model's reasoning (then no prose belongs to the turn). */
  fromReasoning?: boolean
  /** The id the model gave the call, if any (before one was generated). */
  modelId?: string | undefined
}

/**
 * The assistant turn that records an executed call: exactly that call in `tool_calls` (arguments as
 * validated), the prose the model wrote besides it as `content` (reasoning blocks and the call's own
 * text left out), and the provider fields the adapters declared as needing an echo, copied from the
 * response's message and from the call's own entry.
 */
export function buildAssistantTurn(source: AnswerSource, toolCall: ToolCall, echo: ResolvedEchoFields): ChatMessage {
  const { message } = source
  const call: ChatToolCall = { id: toolCall.id, type: 'function', function: { name: toolCall.name, arguments: tryStringify(toolCall.args ?? {}) ?? '{}' } }
  const entry = echo.toolCall.length > 0 ? sourceEntry(message, toolCall, source.modelId) : undefined
  if (entry) for (const field of echo.toolCall) if (entry[field] !== undefined && !(field in call)) call[field] = entry[field]
  // A family that reads its own reasoning blocks back (MiniMax) declares `content`: a native call's
  // turn then keeps the content exactly as written. A call read out of the text keeps only the prose.
  const verbatim = echo.message.includes('content') && source.textBefore === undefined && !source.fromReasoning && typeof message.content === 'string' && message.content !== ''
  return copyEchoed(message, { role: 'assistant', content: verbatim ? (message.content as string) : proseOf(source), tool_calls: [call] }, echo)
}

/**
 * Copies the declared message fields of a response's message, and every reasoning field it carries
 * (whatever the family calls it), onto a history turn (never the turn's own role, content or calls).
 * What of it goes back is decided per request (`sendMessageFields`).
 */
export function copyEchoed(message: ChatResponseMessage, turn: ChatMessage, echo: ResolvedEchoFields): ChatMessage {
  const copy = (field: string) => {
    if (field === 'role' || field === 'content' || field === 'tool_calls') return
    const value = (message as Record<string, unknown>)[field]
    if (value !== undefined && value !== null) turn[field] = value
  }
  echo.message.forEach(copy)
  for (const key in message) if (isReasoningField(key)) copy(key)
  return turn
}

/** The `role: 'tool'` message that answers the call. */
export function buildToolMessage(toolCall: ToolCall, content: string): ChatMessage {
  return { role: 'tool', tool_call_id: toolCall.id, content }
}

/** The prose of the answer besides the call, or `null` when there is none. */
function proseOf(source: AnswerSource): string | null {
  if (source.fromReasoning || (source.textBefore === undefined && !source.message.content)) return null
  const text = source.textBefore !== undefined ? stripOpeners(source.textBefore) : textOf(source.message.content)
  const prose = splitReasoning(text).answer.trim()
  return prose === '' ? null : prose
}

// What opens a call written as text: a code fence, a wrapper tag, a special token, a bracketed marker.
const OPENER = /(?:```[\w-]*|<[\w:.|-]{1,40}>|<\|[^|<>\s]{1,40}\|>|\[[A-Z_]{2,30}\])\s*$/

/** The text before a call without the marks that opened the call (only the tail is looked at, so the cost is bounded). */
function stripOpeners(text: string): string {
  let rest = text.trimEnd()
  for (;;) {
    const tail = rest.slice(-64)
    const found = OPENER.exec(tail)
    if (!found) return rest
    rest = rest.slice(0, rest.length - tail.length + found.index).trimEnd()
  }
}

function textOf(content: ChatResponseMessage['content']): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .filter((part) => isPlainObject(part) && part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text as string)
    .join('\n')
}

/** The `tool_calls` entry the executed call came from: by the model's id, else the one entry of its name, else the only entry. */
function sourceEntry(message: ChatResponseMessage, toolCall: ToolCall, modelId: string | undefined): Record<string, unknown> | undefined {
  const entries = Array.isArray(message.tool_calls) ? message.tool_calls.filter(isPlainObject) : []
  if (modelId) return entries.find((entry) => entry.id === modelId)
  const named = entries.filter((entry) => isPlainObject(entry.function) && entry.function.name === toolCall.name)
  if (named.length === 1) return named[0]
  return entries.length === 1 ? entries[0] : undefined
}
