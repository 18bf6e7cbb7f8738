import {
  InvokeError,
  type Adapter,
  type ChatToolDefinition,
  type ErrorContext,
  type FinishClass,
  type InvokeErrorType,
} from '@wildcall/sdk'

/** A `reasoning_effort` Gemini's OpenAI-compatible endpoint accepts. */
export type GeminiReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high'

/** Options of {@link geminiAdapter}. */
export interface GeminiAdapterOptions {
  /** Overrides the per-model `reasoning_effort` (see the adapter's description). */
  reasoningEffort?: GeminiReasoningEffort
}

// Gemini's finish reasons, upper case as its API spells them (a proxy may pass them through).
const FINISH: Record<string, FinishClass> = {
  stop: 'ok',
  max_tokens: 'truncated',
  safety: 'filtered',
  recitation: 'filtered',
  blocklist: 'filtered',
  prohibited_content: 'filtered',
  spii: 'filtered',
  image_safety: 'filtered',
  language: 'filtered',
  // The model wrote a call Gemini could not parse (or one it was not offered): a new try usually works.
  malformed_function_call: 'malformed',
  unexpected_tool_call: 'malformed',
  too_many_tool_calls: 'malformed',
  other: 'unknown',
  finish_reason_unspecified: 'unknown',
}

// JSON Schema keywords Gemini's function declarations reject ("Unknown name …" / "Invalid JSON
// payload"). The tool's own schema still validates the answer locally, so loosening what the model
// is shown costs nothing.
const DROPPED = new Set(['$schema', '$id', '$comment', 'propertyNames', 'additionalProperties', 'patternProperties', 'unevaluatedProperties'])
const SCHEMA_MAPS = new Set(['properties', '$defs', 'definitions'])
const SCHEMA_LISTS = new Set(['anyOf', 'allOf', 'prefixItems'])
const SCHEMA_VALUES = new Set(['items', 'not', 'contains', 'additionalItems', 'if', 'then', 'else'])

/**
 * Gemini through its OpenAI-compatible endpoint (`generativelanguage.googleapis.com/v1beta/openai`,
 * Vertex, or a gateway). Sets `reasoning_effort`: `'none'` on 2.5 Flash/Flash-Lite, `'minimal'` on
 * 3.x Flash/Flash-Lite, `'low'` on every other thinking Gemini (Pro cannot turn thinking off), and
 * nothing on 1.x/2.0, which do not think. Rewrites tool parameters into the schema subset Gemini
 * accepts (drops `$schema`, `additionalProperties`, `propertyNames` …; `const` → `enum`, `oneOf` →
 * `anyOf`, `type: [T, 'null']` → `nullable`) on copies of the tools. Classifies Gemini's upper-case
 * finish reasons (`MALFORMED_FUNCTION_CALL` → retryable) and error wording (`API key not valid` →
 * `auth_error`, a zero free-tier quota → `quota_exceeded`; the SDK itself reads `retryDelay` and "retry in 37.5s").
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
    kind: 'model',
    match: { models: ['gemini'] },
    patchRequest(body, context) {
      const effort = options.reasoningEffort ?? defaultEffort(context.modelId)
      if (effort) body.reasoning_effort = effort
      if (Array.isArray(body.tools)) body.tools = body.tools.map(toGeminiTool)
    },
    classifyFinish(reason) {
      return typeof reason === 'string' ? FINISH[reason.toLowerCase()] : undefined
    },
    classifyError(error, context) {
      const text = context.bodyText
      if (/API key not valid|API_KEY_INVALID/i.test(text)) {
        return context.reclassify('auth_error', 'Gemini rejected the API key (API key not valid). Check the key; retrying does not help.')
      }
      if (/input token count.*exceeds the maximum/i.test(text)) {
        return context.reclassify('context_length', "The prompt is over the model's context window (\"input token count exceeds the maximum\"). Shorten the history.")
      }
      if (/RESOURCE_EXHAUSTED|quota/i.test(text) && /\blimit:\s*0\b/.test(text)) {
        return context.reclassify('quota_exceeded', 'This model has no quota on your plan (Gemini says "limit: 0"). Enable billing or pick another model; retrying does not help.')
      }
      return undefined
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

// Tool definitions are frozen and cached by the SDK: convert each one once, and never convert a
// converted one again (the hook must be idempotent).
const converted = new WeakMap<ChatToolDefinition, ChatToolDefinition>()
const results = new WeakSet<ChatToolDefinition>()

function toGeminiTool(tool: ChatToolDefinition): ChatToolDefinition {
  if (typeof tool !== 'object' || tool === null || results.has(tool)) return tool
  const cached = converted.get(tool)
  if (cached) return cached
  const parameters = tool.function?.parameters
  const next: ChatToolDefinition =
    typeof parameters === 'object' && parameters !== null ? { ...tool, function: { ...tool.function, parameters: toGeminiSchema(parameters) as Record<string, unknown> } } : tool
  converted.set(tool, next)
  results.add(next)
  return next
}

/**
 * A copy of `schema` in the subset Gemini's function declarations accept.
 *
 * @example
 * ```ts
 * toGeminiSchema({ type: 'object', properties: { kind: { const: 'a' } }, additionalProperties: false })
 * // { type: 'object', properties: { kind: { type: 'string', enum: ['a'] } } }
 * ```
 */
export function toGeminiSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toGeminiSchema)
  if (typeof schema !== 'object' || schema === null) return schema
  const source = schema as Record<string, unknown>
  const result: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(source)) {
    if (DROPPED.has(key)) continue
    if (SCHEMA_MAPS.has(key) && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      result[key] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, toGeminiSchema(child)]))
    } else if (key === 'oneOf' && Array.isArray(value)) {
      // Gemini has no oneOf; anyOf shows the same alternatives.
      result.anyOf = value.map(toGeminiSchema)
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      result[key] = value.map(toGeminiSchema)
    } else if (SCHEMA_VALUES.has(key)) {
      result[key] = toGeminiSchema(value)
    } else if (key === 'const') {
      // Gemini's enum holds strings only; other constants are left to local validation.
      if (typeof value === 'string') {
        result.enum = [value]
        result.type ??= 'string'
      }
    } else if (key === 'exclusiveMinimum' || key === 'exclusiveMaximum') {
      const bound = key === 'exclusiveMinimum' ? 'minimum' : 'maximum'
      if (typeof value === 'number' && source[bound] === undefined) result[bound] = value
    } else if (key === 'type' && Array.isArray(value)) {
      const types = value.filter((type) => type !== 'null')
      if (types.length < value.length) result.nullable = true
      if (types.length === 1) result.type = types[0]
      else if (types.length > 1) result.anyOf = types.map((type) => ({ type }))
    } else {
      result[key] = value
    }
  }
  return result
}

