import type { InvokeError } from '../errors/invoke-error'
import type { ChatRequest } from '../types'
import { tryStringify } from '../util/stringify'

/**
 * A change to every later request of a client, learnt from a server that rejected a field of the
 * request: drop the field, send it under the name the server asked for, or (for a named
 * `tool_choice`) ask for any tool instead.
 */
export interface FieldChange {
  field: string
  /** Send the value under this name instead (`max_tokens` → `max_completion_tokens`). */
  rename?: string
  /** Replace a named `tool_choice` with `'required'` rather than dropping it. */
  required?: true
}

// Without these there is no request to make: a server that rejects them is not one to adapt to.
export const ESSENTIAL = new Set(['model', 'messages', 'tools', 'stream'])
// How servers say they do not take a field: OpenAI ("Unsupported parameter", "is not supported with
// this model"), Azure ("Unrecognized request argument supplied"), pydantic behind vLLM and others
// ("Extra inputs are not permitted"), Google ("Unknown name … Cannot find field"), Python servers
// ("unexpected keyword argument").
export const REJECTED = /unsupported|not supported|unrecogni[sz]ed|unknown (?:name|field|parameter|argument)|extra (?:inputs?|fields?)|not permitted|not allowed|does(?: not|n't) support|unexpected (?:keyword )?argument|cannot find field|invalid (?:parameter|field)/i
const INSTEAD = /\buse\s+['"`]?(\w+)['"`]?\s+instead/i
// A `tool_choice` form refused in other words: LM Studio ("Invalid tool_choice type: 'object'.
// Supported string values: none, auto, required"), thinking models ("tool_choice 'required' is
// incompatible with thinking enabled", Anthropic's "may not be enabled when tool_choice forces tool use").
const CHOICE = /tool[_ ]choice|forc\w{0,3} tool|named tool/i
const CHOICE_REFUSED = /invalid|incompatible|may not|cannot|can't|only|must be/i

/**
 * The changes a 400/422 asks for, when it says which top-level fields of `body` the server does not
 * take: every field it names as the culprit (its `param`, pydantic's `loc` — one per refused field —
 * or Google's `Unknown name`), else the one field its message names. Essential fields and `kept`
 * (the fields the caller's `transformRequestBody` set: its word is last) are never changed, and the
 * message must use the words of a refusal (`unsupported`, `not permitted`, `unknown name`, …).
 *
 * @example
 * ```ts
 * findFieldChanges({ model: 'o3-mini', messages, tools, parallel_tool_calls: false }, error)
 * // [{ field: 'parallel_tool_calls' }] for "Unsupported parameter: 'parallel_tool_calls' is not supported with this model."
 * ```
 */
export function findFieldChanges(body: ChatRequest, error: InvokeError, kept: ReadonlySet<string> = new Set()): FieldChange[] {
  if (error.type !== 'bad_request' || (error.status !== 400 && error.status !== 422)) return []
  const raw = error.rawResponse
  const text = typeof raw === 'string' ? raw : tryStringify(raw)
  if (typeof text !== 'string') return []
  // A named choice becomes 'required', 'required' becomes none ('auto', the call asked for in the prompt).
  if (body.tool_choice !== undefined && !kept.has('tool_choice') && CHOICE.test(text) && (REJECTED.test(text) || CHOICE_REFUSED.test(text))) return [changeFor(body, 'tool_choice', '')]
  if (!REJECTED.test(text)) return []
  const fields = Object.keys(body).filter((key) => !ESSENTIAL.has(key) && !kept.has(key))
  // regex-bounded: the pattern is the request's own field names, escaped, between literals and `\s*` runs that literals separate (test: packages/sdk/src/linear-time.test.ts)
  const named = (pattern: (field: string) => string) => fields.filter((field) => new RegExp(pattern(field.replace(/\W/g, '\\$&')), 'i').test(text))
  const culprits = named((field) => `"param"\\s*:\\s*"${field}"|"loc"\\s*:\\s*\\[\\s*"body"\\s*,\\s*"${field}"|unknown name \\\\?"${field}\\\\?"`)
  // A name the server asks for instead is only clear when one field is refused.
  if (culprits.length > 0) return culprits.map((field) => changeFor(body, field, culprits.length === 1 ? text : ''))
  // Named in quotes, then named at all: only when exactly one field is.
  const mentioned = [named((field) => `['\`]${field}['\`]|\\\\"${field}\\\\"`), named((field) => `(?<![\\w.])${field}(?![\\w])`)].find((found) => found.length > 0)
  return mentioned?.length === 1 ? [changeFor(body, mentioned[0]!, text)] : []
}

/** How `body` constrains decoding: `response_format` (prompt mode), strict tools, or neither. */
export const constrainedBy = (body: ChatRequest) => (body.response_format ? 'response_format' : body.tools?.some((tool) => tool.function?.strict) ? 'strict' : undefined)

/**
 * The constrained-decoding field of `body` that `error` refuses: `response_format` (prompt mode) or
 * `strict` (the tools'), when a 400/422 or a 5xx names it, or names a schema or a grammar (a server
 * whose grammar compiler fails on a keyword). Servers word it their own way: "This response_format
 * type is unavailable now", "response_format type must be one of "text" or "json_object"", "JSON
 * schema conversion failed", a validation error at `tools.0.function.strict`, "Unrecognized request
 * argument supplied: strict", "property 'strict' is unsupported", "`strict` mode on function call is
 * currently not supported", "All function tools should have the same strictness".
 *
 * @example
 * ```ts
 * refusedConstraint({ model, messages, response_format }, error) // 'response_format' for a 400 "This response_format type is unavailable now"
 * ```
 */
export function refusedConstraint(body: ChatRequest, error: InvokeError): 'response_format' | 'strict' | undefined {
  const field = constrainedBy(body)
  // regex-bounded: a literal field name or word, no quantifier (test: packages/sdk/src/linear-time.test.ts)
  return field && (error.type === 'bad_request' || error.type === 'server_error') && RegExp(`\\b${field}|schema|grammar`, 'i').test(tryStringify(error.rawResponse)!) ? field : undefined
}

function changeFor(body: ChatRequest, field: string, text: string): FieldChange {
  if (field === 'tool_choice' && typeof body.tool_choice === 'object' && body.tool_choice !== null) return { field, required: true }
  const rename = INSTEAD.exec(text)?.[1]
  return rename && rename !== field && !Object.hasOwn(body, rename) ? { field, rename } : { field }
}

/**
 * `body` asking in its system message for the call that a refused `tool_choice` no longer forces
 * (the caller's messages are not modified: the system turn is a copy, or a new first message).
 */
export function instructToCall(body: ChatRequest, toolName: string | undefined): ChatRequest {
  const instruction = `Answer only by calling ${toolName ? `the tool "${toolName}"` : 'one of the tools'}, never in plain text.`
  if (!Array.isArray(body.messages)) return body
  const [first, ...rest] = body.messages
  const system = first?.role === 'system' && typeof first.content === 'string'
  return { ...body, messages: system ? [{ ...first, content: `${first.content}\n\n${instruction}` }, ...rest] : [{ role: 'system', content: instruction }, ...body.messages] }
}

/** `body` with `change` applied (a new top-level object; the caller's nested values are shared, not copied). */
export function applyFieldChange(body: ChatRequest, change: FieldChange): ChatRequest {
  if (!Object.hasOwn(body, change.field)) return body
  const next: Record<string, unknown> = { ...body }
  if (change.required) next.tool_choice = 'required'
  else {
    const value = next[change.field]
    delete next[change.field]
    if (change.rename) next[change.rename] = value
  }
  return next as ChatRequest
}

/** The fix code that reports `change`: `dropped-parameter:x`, `renamed-parameter:x`, `tool-choice-required`. */
export function describeFieldChange(change: FieldChange): string {
  return change.required ? 'tool-choice-required' : `${change.rename ? 'renamed' : 'dropped'}-parameter:${change.field}`
}

/** The top-level fields of a body as JSON, to see afterwards which ones a hook such as `transformRequestBody` set. */
export function snapshotFields(body: ChatRequest): Map<string, string | undefined> {
  const fields = new Map<string, string | undefined>()
  for (const key of Object.keys(body)) if (key !== 'messages' && key !== 'tools') fields.set(key, tryStringify(body[key]))
  return fields
}

/** The fields of `body` that are new or different since `before` was taken. */
export function changedFields(before: Map<string, string | undefined>, body: unknown): ReadonlySet<string> {
  if (typeof body !== 'object' || body === null) return new Set()
  const record = body as Record<string, unknown>
  return new Set(Object.keys(record).filter((key) => key !== 'messages' && key !== 'tools' && before.get(key) !== tryStringify(record[key])))
}
