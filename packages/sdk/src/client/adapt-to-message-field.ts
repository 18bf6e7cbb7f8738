import type { InvokeError } from '../errors/invoke-error'
import type { ChatMessage, ChatRequest } from '../types'
import { isRecord } from '../util/is-record'
import { tryStringify } from '../util/stringify'
import { REJECTED } from './adapt-to-rejected-field'
import type { ResolvedEchoFields } from './collect-echo-fields'
import type { MessageFieldRule } from './endpoint-profile'

/**
 * Whether a message field holds the model's reasoning (`reasoning_content`, `reasoning`,
 * `reasoning_details`, `thinking` …): `result.messages` keeps every one the server sent, and a
 * request sends it back only where an adapter or the endpoint asks for it.
 */
export const isReasoningField = (key: string): boolean => key.startsWith('reasoning') || key.startsWith('thinking')

// The turn's own fields: what makes it a message, never stripped or filled.
export const TURN_FIELDS: ReadonlySet<string> = new Set(['role', 'content', 'tool_calls', 'tool_call_id', 'name'])
// How servers say a field of a history turn must be there: DeepSeek ("Missing `reasoning_content`
// field in the assistant message"), Kimi ("reasoning_content is missing in assistant tool call
// message"), "must be passed back", pydantic's "Field required".
const DEMANDED = /missing|required|must be (?:passed|sent|provided|included|returned)|passed back|must (?:include|contain|have)/i

const isAssistant = (message: unknown): message is ChatMessage => isRecord(message) && message.role === 'assistant'

/**
 * The assistant turns of `messages` as this request sends them: a reasoning field goes back only
 * when the adapters declare it (`echoFields`) or the endpoint asked for it (`rules`: `echo`, and a
 * tool-calling turn without it gets `''`); a field the endpoint refused (`strip`) never goes.
 * Returns `messages` itself when nothing changes; changed turns are copies. The code of each learnt
 * rule that changed a turn is added to `fixes` (`echoed-message-field:x`, `stripped-message-field:x`).
 *
 * @example
 * ```ts
 * sendMessageFields([{ role: 'assistant', content: null, reasoning_content: 'Look first.', tool_calls }], { message: [], toolCall: [] }, {}, [])
 * // [{ role: 'assistant', content: null, tool_calls }]: no one asked for the reasoning
 * ```
 */
export function sendMessageFields(messages: ChatMessage[], echo: ResolvedEchoFields, rules: Record<string, MessageFieldRule>, fixes: string[]): ChatMessage[] {
  if (!Array.isArray(messages)) return messages
  // The array and its turns are copied only when a turn changes: a long history costs no copies per step.
  let sent: ChatMessage[] | undefined
  const note = (code: string) => fixes.includes(code) || fixes.push(code)
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]
    if (!isAssistant(message)) continue
    const turn = sendTurn(message, echo, rules, note)
    if (turn !== message) (sent ??= messages.slice())[index] = turn
  }
  return sent ?? messages
}

/** One assistant turn as sent: itself when nothing changes, else a copy. */
function sendTurn(message: ChatMessage, echo: ResolvedEchoFields, rules: Record<string, MessageFieldRule>, note: (code: string) => unknown): ChatMessage {
  let turn: ChatMessage | undefined
  for (const key in message) {
    const rule = Object.hasOwn(rules, key) && rules[key]
    if (rule) note(`${rule === 'echo' ? 'echoed' : 'stripped'}-message-field:${key}`)
    if (rule === 'strip' || (!rule && isReasoningField(key) && !echo.message.includes(key))) delete (turn ??= { ...message })[key]
  }
  for (const key in rules) {
    if (rules[key] === 'echo' && message[key] == null && message.tool_calls?.length) {
      ;(turn ??= { ...message })[key] = ''
      note(`echoed-message-field:${key}`)
    }
  }
  return turn ?? message
}

/**
 * Learns from a 400/422 about a field of the history's assistant turns: one the server refuses
 * (Groq's `property 'reasoning_content' is unsupported`, pydantic's "Extra inputs are not
 * permitted" at `messages.1.reasoning_content`) is stripped from then on, one it says is missing or
 * must be passed back is echoed. The field must be named in the error (a field of those turns, or a
 * `reasoning_…`/`thinking_…` name outside a URL or path), the error must speak of messages, and a top-level field of the
 * request is left to {@link findFieldChanges}. Records the rules in `rules`; returns whether one changed.
 *
 * @example
 * ```ts
 * const rules = {}
 * learnMessageFields(error, body.messages, messages, body, rules) // true for "Missing `reasoning_content` field in the assistant message at message index 2"
 * rules // { reasoning_content: 'echo' }
 * ```
 */
export function learnMessageFields(error: InvokeError, sent: ChatMessage[], given: ChatMessage[], body: ChatRequest, rules: Record<string, MessageFieldRule>): boolean {
  const raw = error.rawResponse
  const text = (typeof raw === 'string' ? raw : (tryStringify(raw) ?? '')).slice(0, 20_000)
  if (error.type !== 'bad_request' || (error.status !== 400 && error.status !== 422) || !/message/i.test(text)) return false
  const outgoing = [sent].flat().filter(isAssistant)
  // A field is named when it is one of the text's words (a whole run of word characters): one
  // pass over the text for any number of fields.
  const words = new Set(text.match(/\w+/g))
  let changed = false
  for (const field of new Set([...[given, outgoing].flat().filter(isAssistant).flatMap(Object.keys), ...(text.match(/(?<![\w/#.-])(?:reasoning|thinking)_\w+/g) ?? [])])) {
    if (TURN_FIELDS.has(field) || Object.hasOwn(body, field) || !/^[a-z]\w*$/i.test(field) || !words.has(field)) continue
    const rule = outgoing.some((turn) => turn[field] != null) && REJECTED.test(text) ? 'strip' : DEMANDED.test(text) && rules[field] !== 'echo' && 'echo'
    if (rule && rules[field] !== rule) changed = !!(rules[field] = rule)
  }
  return changed
}
