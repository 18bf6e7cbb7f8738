/**
 * The one step that turns a value written as text by a markup format (a Qwen3 `<parameter>`, a
 * GLM `<arg_value>`, a MiniMax or DSML parameter …) into a value, guided by the field's JSON Schema.
 * Readers decide what is layout and what is text; this decides what the text means.
 */
import { NUMBER_TEXT, pushFix, schemaAtPath, type JsonSchemaNode } from '../coerce'
import { parseLenientJson } from '../lenient-json'
import type { ReaderContext } from '../reader'
import { isRecord } from '../../util/is-record'
import { setOwn } from '../../util/set-own'
import { parsePythonLiteral } from './python-literal'
import type { ExtractionContext } from './reading-context'

/** The value types a schema node admits, through `anyOf`/`oneOf`, `nullable`, `enum` and `const`; empty when it says nothing. */
export function admittedTypes(schema: JsonSchemaNode, depth = 0): Set<string> {
  const types = new Set<string>()
  if (depth > 16) return types
  const type = schema.type
  if (typeof type === 'string') types.add(type)
  else if (Array.isArray(type)) for (const entry of type) if (typeof entry === 'string') types.add(entry)
  if (schema.nullable === true) types.add('null')
  const literals = Array.isArray(schema.enum) ? schema.enum : Object.hasOwn(schema, 'const') ? [schema.const] : []
  for (const literal of literals) types.add(literal === null ? 'null' : Array.isArray(literal) ? 'array' : typeof literal === 'object' ? 'object' : typeof literal)
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = schema[key]
    if (!Array.isArray(list)) continue
    for (const branch of list) {
      if (typeof branch !== 'object' || branch === null) continue
      const inner = admittedTypes(branch as JsonSchemaNode, depth + 1)
      // A branch that says nothing admits anything: so does the union.
      if (inner.size === 0) return new Set()
      for (const entry of inner) types.add(entry)
    }
  }
  if (types.has('integer')) types.add('number')
  return types
}

const NULL_WORDS = new Set(['null', 'None', 'nil'])
const BOOLEAN_WORDS: Record<string, boolean> = { true: true, True: true, TRUE: true, false: false, False: false, FALSE: false }

/**
 * A value written as text, decoded by what the field's schema admits:
 * - a field that admits a string keeps the text exactly as written (`{"a": 1}`, `[1, 2]`, `true`
 *   and `5` stay strings), except that `null`, `None` or `nil` is null where the schema admits null;
 * - a field that admits no string gets `null`/`None`/`nil` as null (when it admits null), `true`/`True`/
 *   `false`/`False` as booleans, numbers as numbers, and JSON or a Python literal (`{'a': [1, None]}`)
 *   as the object or array it spells; text that is none of these stays text for the validator to name;
 * - without a schema (an unknown field, or `{}`), today's guess: text that is a JSON object or array is
 *   parsed (fix `guessed-value-type`), anything else stays text.
 *
 * @example
 * ```ts
 * decodeValue('{"a": 1}', { type: 'string' }, fixes) // '{"a": 1}'
 * decodeValue('{"a": 1}', { type: 'object' }, fixes) // { a: 1 }
 * decodeValue('None', { type: ['string', 'null'] }, fixes) // null
 * ```
 */
export function decodeValue(text: string, schema: JsonSchemaNode | undefined, fixes: string[]): unknown {
  const types = schema ? admittedTypes(schema) : new Set<string>()
  const trimmed = text.trim()
  if (types.size === 0) {
    const structured = parseStructured(trimmed)
    if (structured !== undefined && typeof structured === 'object' && structured !== null) {
      pushFix(fixes, 'guessed-value-type')
      return structured
    }
    return text
  }
  if (types.has('null') && NULL_WORDS.has(trimmed)) return null
  if (types.has('string')) return text
  if (types.has('boolean') && Object.hasOwn(BOOLEAN_WORDS, trimmed)) return BOOLEAN_WORDS[trimmed]
  if (types.has('number') && NUMBER_TEXT.test(trimmed)) {
    const number = Number(trimmed)
    if (Number.isFinite(number)) return number
  }
  if (types.has('object') || types.has('array')) {
    const structured = parseStructured(trimmed)
    if ((types.has('object') && isRecord(structured)) || (types.has('array') && Array.isArray(structured))) return structured
  }
  return text
}

/** A JSON object or array (leniently), else a Python literal spanning the whole text; `undefined` otherwise. */
function parseStructured(trimmed: string): unknown {
  const first = trimmed.charCodeAt(0)
  if (first !== 123 && first !== 91) return undefined
  const json = parseLenientJson(trimmed)
  if (json !== undefined && typeof json.value === 'object' && json.value !== null) return json.value
  const literal = parsePythonLiteral(trimmed, 0)
  if (literal && literal !== 'truncated' && literal.end === trimmed.length) return literal.value
  return undefined
}

/**
 * The value a call to `name` wrote as `text` for its field `key`, decoded by that field's schema
 * ({@link decodeValue}; `context.schemaOf` gives the tool's); a tool or field the context does not
 * know gets the schema-less guess. The decoder of every built-in reader, for readers of other formats:
 * repairs it did go into `fixes` (give them to the call's `fixes`).
 *
 * @example
 * ```ts
 * import { decodeArgument, type Reader } from '@wildcall/sdk/readers'
 * // In a reader's `read(text, context)`, for `@filter {"tag": "a"}` read as key `filter`:
 * const fixes: string[] = []
 * const value = decodeArgument(context, 'search', 'filter', '{"tag": "a"}', fixes)
 * // { tag: 'a' } when `filter` is an object field; the text as written when it is a string field
 * ```
 */
export function decodeArgument(context: Pick<ReaderContext, 'schemaOf'>, name: string, key: string, text: string, fixes: string[] = []): unknown {
  const schema = context.schemaOf?.(name)
  return decodeValue(text, schema ? schemaAtPath(schema, [key]) : undefined, fixes)
}

/** `key=value` text pairs of a call to `name`, each value decoded by its field's schema. */
export function decodePairs(context: ExtractionContext, name: string, pairs: Record<string, string>, fixes: string[]): Record<string, unknown> {
  const args: Record<string, unknown> = {}
  for (const key of Object.keys(pairs)) setOwn(args, key, decodeArgument(context, name, key, pairs[key]!, fixes))
  return args
}
