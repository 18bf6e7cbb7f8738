// The copy of a tool's JSON Schema that constrained decoding is given (strict tools, `response_format`).

import { isRecord } from '../util/is-record'

// What neither OpenAI's strict mode nor every grammar compiler takes: a schema using one goes as it is.
// regex-bounded: an anchored alternation of literal keywords (test: packages/sdk/src/linear-time.test.ts)
const LOOSE = /^(?:allOf|not|if|then|else|contains|patternProperties|propertyNames|dependent\w*|unevaluated\w*)$/
// Keywords whose value is a schema or a list of schemas, and those whose value maps names to schemas.
const SCHEMA = /^(?:items|prefixItems|anyOf|oneOf|additionalProperties)$/
const SCHEMA_MAP = /^(?:properties|\$defs|definitions)$/

/**
 * A copy of `schema` (a normalised tool JSON Schema) that a grammar can enforce exactly, or
 * `undefined` when it cannot be written so (a keyword in `LOOSE`, or with `strict` a free-form
 * object such as a record, or a root that is not an object). Every object with properties is closed (`additionalProperties: false`),
 * an object of exactly one of its properties (`minProperties` = `maxProperties` = 1: the macro
 * tool's action) is one branch per property, `oneOf` is `anyOf` (validation still refuses a value
 * two branches admit) and `default`s are left out. `strict` adds what OpenAI's strict mode asks:
 * every property required, an optional one nullable (validation then sees the `null` removed).
 *
 * @example
 * ```ts
 * toStrictSchema({ type: 'object', properties: { index: { type: 'integer' }, note: { type: 'string' } }, required: ['index'] }, true)
 * // { type: 'object', properties: { index: { type: 'integer' }, note: { type: ['string', 'null'] } }, required: ['index', 'note'], additionalProperties: false }
 * ```
 */
export function toStrictSchema(schema: Record<string, unknown>, strict: boolean): Record<string, unknown> | undefined {
  try {
    const out = copy(schema, strict) as Record<string, unknown>
    // Strict mode takes only a closed object at the root.
    return strict && out.additionalProperties !== false ? undefined : out
  } catch {
    return undefined
  }
}

function copy(node: unknown, strict: boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => copy(item, strict))
  if (!isRecord(node)) return node
  const out: Record<string, unknown> = {}
  for (const key in node) {
    if (LOOSE.test(key)) throw new Error(key)
    const value = node[key]
    out[key === 'oneOf' ? 'anyOf' : key] = SCHEMA.test(key) ? copy(value, strict) : SCHEMA_MAP.test(key) && isRecord(value) ? Object.fromEntries(Object.entries(value).map(([name, child]) => [name, copy(child, strict)])) : value
  }
  delete out.default
  const { properties, required = [] } = out as { properties?: Record<string, unknown>; required?: string[] }
  if (!properties && ![out.type].flat().includes('object')) return out
  // A record or a free-form object: a grammar takes it as it is; strict mode cannot express it.
  if (!isRecord(properties) || (out.additionalProperties ?? false) !== false) {
    if (strict) throw new Error('free-form')
    return out
  }
  const names = Object.keys(properties)
  if (out.minProperties === 1 && out.maxProperties === 1) {
    return { description: out.description, anyOf: names.map((name) => ({ type: 'object', properties: { [name]: properties[name] }, required: [name], additionalProperties: false })) }
  }
  if (strict) {
    for (const name of names) if (!required.includes(name)) properties[name] = nullable(properties[name] as Record<string, unknown>)
    out.required = names
  }
  out.additionalProperties = false
  return out
}

/** `schema` that also admits `null`. */
const nullable = (schema: Record<string, unknown>) => (schema.type && !schema.enum ? { ...schema, type: [...new Set([schema.type, 'null'].flat())] } : { anyOf: [schema, { type: 'null' }] })
