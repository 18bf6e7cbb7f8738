import type { Adapter, ChatMessage, ChatToolDefinition } from '@wildcall/sdk'

/** A `reasoning_effort` Gemini's OpenAI-compatible endpoint accepts. */
export type GeminiReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high'

/** Options of {@link geminiAdapter}. */
export interface GeminiAdapterOptions {
  /** Overrides the per-model `reasoning_effort` (see the adapter's description). */
  reasoningEffort?: GeminiReasoningEffort
}

// JSON Schema keywords Gemini's function declarations reject ("Unknown name …" / "Invalid JSON
// payload"). The tool's own schema still validates the answer locally, so loosening what the model
// is shown costs nothing.
const DROPPED = new Set(['$schema', '$id', '$comment', 'propertyNames', 'additionalProperties', 'patternProperties', 'unevaluatedProperties'])
// Keywords whose value maps names to schemas: a property called `additionalProperties` is a property.
const SCHEMA_MAPS = new Set(['properties', '$defs', 'definitions'])
// Keywords Gemini does not have, and the nearest one it has (an exclusive bound becomes inclusive:
// close enough for the model, and local validation stays exact). The keyword's own spelling wins.
const RENAMED = new Map([['oneOf', 'anyOf'], ['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']])

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Gemini through its OpenAI-compatible endpoint (`generativelanguage.googleapis.com/v1beta/openai`,
 * Vertex, or a gateway). Sets `reasoning_effort`: `'none'` on 2.5 Flash/Flash-Lite, `'minimal'` on
 * 3.x Flash/Flash-Lite, `'low'` on every other thinking Gemini (Pro cannot turn thinking off), and
 * nothing on 1.x/2.0, which do not think. Rewrites tool parameters into the schema subset Gemini
 * accepts (drops `$schema`, `additionalProperties`, `propertyNames` …; `const` → `enum`, `oneOf` →
 * `anyOf`, `type: [T, 'null']` → `nullable`) on copies of the tools. On Gemini 3 and later, gives
 * the first tool call of each assistant history message that has no thought signature Google's
 * `skip_thought_signature_validator` (in `extra_content.google.thought_signature`, on copies), so a
 * history rebuilt from `result.toolCall` is not refused; `result.messages` keeps the real signature
 * (`extra_content` is declared in `echoFields`). Classifies `TOO_MANY_TOOL_CALLS` as
 * malformed (retryable); the SDK itself already reads Gemini's other upper-case finish reasons and
 * its error wording (`API key not valid`, "input token count exceeds the maximum", a zero quota
 * (`limit: 0`), `retryDelay` and "retry in 37.5s").
 *
 * Every request patch here is a model quirk: every Gemini is served by Google's API, whatever the
 * host in front of it.
 *
 * @example
 * ```ts
 * import { createClient } from '@wildcall/sdk'
 * import { geminiAdapter } from '@wildcall/adapter-gemini'
 *
 * const client = createClient({
 *   baseURL: 'https://generativelanguage.googleapis.com/v1beta/openai',
 *   model: 'gemini-2.5-flash',
 *   apiKey: process.env.GEMINI_API_KEY,
 *   adapters: [geminiAdapter()],
 * })
 * ```
 */
export function geminiAdapter(options: GeminiAdapterOptions = {}): Adapter {
  return {
    name: 'gemini',
    match: { models: ['gemini'] },
    // Gemini 3's thought signature rides on the tool call entry: `result.messages` keeps it.
    echoFields: { toolCall: ['extra_content'] },
    patchRequest(body, context) {
      const effort = options.reasoningEffort ?? defaultEffort(context.modelId)
      if (effort) body.reasoning_effort = effort
      if (Array.isArray(body.tools)) body.tools = body.tools.map(toGeminiTool)
      // Normalised names lose their dots (2.5 → 25, 3.1 → 31): the first digit is the major version.
      if (/^gemini-[3-9]/.test(context.modelId) && Array.isArray(body.messages)) body.messages = body.messages.map(signFirstCall)
    },
    classifyFinish(reason) {
      // The SDK's own reading already classifies Gemini's other upper-case reasons (STOP, MAX_TOKENS,
      // SAFETY, MALFORMED_FUNCTION_CALL …; see the tests); this one it would call unknown. Too many
      // calls in one answer is a malformed answer: a new try usually works.
      // test() reads a null or missing reason as the text "null" / "undefined": neither matches.
      return /^too_many_tool_calls$/i.test(reason as string) ? 'malformed' : undefined
    },
  }
}

function defaultEffort(modelId: string): GeminiReasoningEffort | undefined {
  // 1.x and 2.0 do not think, and reject a reasoning_effort.
  if (/^gemini-(?:1|20)(?:-|$)/.test(modelId)) return undefined
  if (/^gemini-25-(?!pro)/.test(modelId)) return 'none'
  if (/^gemini-3\d*-flash/.test(modelId)) return 'minimal'
  return 'low'
}

// Gemini 3 and later answer 400 "Function call is missing a thought_signature" when the first call
// of an assistant message in the history lacks the signature its response carried (only the first
// call of a step has one). Apps that rebuild that message from `result.toolCall` drop it; for them
// Google documents this value. A real signature is kept; the caller's message is copied, not changed.
function signFirstCall(message: ChatMessage): ChatMessage {
  const [first, ...rest] = message?.role === 'assistant' && Array.isArray(message.tool_calls) ? message.tool_calls : []
  const extra = first?.extra_content as Record<string, { thought_signature?: unknown } | undefined> | undefined
  if (!isObject(first) || Object.values({ ...extra }).some((space) => space?.thought_signature)) return message
  return { ...message, tool_calls: [{ ...first, extra_content: { ...extra, google: { ...extra?.google, thought_signature: 'skip_thought_signature_validator' } } }, ...rest] }
}

// Tool definitions are frozen and cached by the SDK: convert each one once. A converted copy maps to
// itself, so converting it again changes nothing (the hook must be idempotent).
const converted = new WeakMap<ChatToolDefinition, ChatToolDefinition>()

function toGeminiTool(tool: ChatToolDefinition): ChatToolDefinition {
  const parameters = tool?.function?.parameters
  if (!isObject(parameters)) return tool
  let next = converted.get(tool)
  if (!next) {
    next = { ...tool, function: { ...tool.function, parameters: toGeminiSchema(parameters) as Record<string, unknown> } }
    converted.set(tool, next).set(next, next)
  }
  return next
}

/**
 * A copy of `schema` in the subset Gemini's function declarations accept: one walk over every
 * nested value, dropping the keywords Gemini rejects, then rewriting the ones it spells otherwise.
 * Data values (`enum`, `default`) are walked too: they are strings and plain values in practice, and
 * what the model is shown never changes how the tool's own schema validates the answer.
 *
 * @example
 * ```ts
 * toGeminiSchema({ type: 'object', properties: { kind: { const: 'a' } }, additionalProperties: false })
 * // { type: 'object', properties: { kind: { type: 'string', enum: ['a'] } } }
 * ```
 */
export function toGeminiSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toGeminiSchema)
  if (!isObject(schema)) return schema
  const result: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key)) continue
    const rewritten = SCHEMA_MAPS.has(key) && isObject(value) ? Object.fromEntries(Object.entries(value).map(([name, child]) => [name, toGeminiSchema(child)])) : toGeminiSchema(value)
    const renamed = RENAMED.get(key)
    if (renamed) result[renamed] ??= rewritten
    else result[key] = rewritten
  }
  const { const: constant, type } = result
  delete result.const
  // Gemini's enum holds strings only; other constants are left to local validation.
  if (typeof constant === 'string') {
    result.enum = [constant]
    result.type ??= 'string'
  }
  // `type: [T, 'null']` → `type: T, nullable: true`; several types → anyOf.
  if (Array.isArray(type)) {
    const types = type.filter((item) => item !== 'null')
    delete result.type
    if (types.length < type.length) result.nullable = true
    if (types.length === 1) result.type = types[0]
    else if (types.length > 1) result.anyOf = types.map((item) => ({ type: item }))
  }
  return result
}
