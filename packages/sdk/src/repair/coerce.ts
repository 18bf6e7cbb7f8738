/**
 * Values made safe and typed: model-given data copied without prototype keys and with bounded
 * nesting ({@link sanitizeValue}), fix codes recorded once ({@link pushFix}), JSON text decoded,
 * name/value pairs read as an object, and a value converted toward what its JSON Schema expects
 * ({@link coerceToSchema}) — the last step of the shape stage. Calls no stage.
 */
import { InvokeError } from '../errors/invoke-error'
import { parseLenientJson } from './lenient-json'
import { pushFix } from './push-fix'
import { elementText } from './reading/element-text'

/** Deepest nesting accepted in tool arguments; deeper input is refused, never walked. */
export const MAX_ARGUMENT_DEPTH = 64

/** A JSON Schema node, as `toToolJsonSchema` produces it. */
export type JsonSchemaNode = Record<string, unknown>

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype'])

export { pushFix } from './push-fix'

/** A plain object (what JSON.parse makes), not an array, null, or a class instance. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/**
 * A deep copy of model-given data that is safe to hand to user code: plain objects and arrays
 * only, keys that could reach a prototype (`__proto__`, `constructor`, `prototype`) dropped,
 * nesting bounded. The copy also means repairs never mutate the caller's response object.
 */
export function sanitizeValue(value: unknown, fixes: string[], depth = 0): unknown {
  if (typeof value !== 'object' || value === null) {
    return typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint' ? undefined : value
  }
  if (depth >= MAX_ARGUMENT_DEPTH) {
    throw new InvokeError('invalid_tool_args', `The tool arguments are nested deeper than ${MAX_ARGUMENT_DEPTH} levels; they were refused.`)
  }
  if (Array.isArray(value)) return value.map((item) => sanitizeValue(item, fixes, depth + 1))
  const copy: Record<string, unknown> = {}
  for (const key of Object.keys(value)) {
    if (UNSAFE_KEYS.has(key)) {
      pushFix(fixes, 'dropped-unsafe-key')
      continue
    }
    copy[key] = sanitizeValue((value as Record<string, unknown>)[key], fixes, depth + 1)
  }
  // The copy keeps the text its elements were written as (a string field takes that text).
  const written = elementText.get(value)
  if (written !== undefined) elementText.set(copy, written)
  return copy
}

/** Parses a string that holds JSON (possibly encoded several times); `undefined` if it does not. */
export function decodeJsonString(text: string, fixes: string[]): unknown {
  let current: unknown = text
  for (let round = 0; round < 8 && typeof current === 'string'; round++) {
    const trimmed = current.trim()
    const first = trimmed.charCodeAt(0)
    // Only `{`, `[` or a quoted string can be another layer of encoding.
    if (first !== 123 && first !== 91 && first !== 34) return round === 0 ? undefined : current
    try {
      current = JSON.parse(trimmed)
    } catch {
      return round === 0 ? undefined : current
    }
    pushFix(fixes, 'double-encoded-arguments')
  }
  return current
}

// The two halves of a name/value pair: `{"name": "index", "value": 3}`, `{"key": …, "value": …}`,
// `{"arg_key": …, "arg_value": …}`, `{"parameterName": …, "parameterValue": …}`.
const PAIR_NAME_KEY = /^(?:name|key|field|param|parameter|arg|argument|property)$|_(?:name|key)$/i
const PAIR_NAME_SUFFIX = /[a-z](?:Name|Key)$/
/** The value half of a name/value pair (`value`, `arg_value`, `parameterValue`). */
export const PAIR_VALUE_KEY = /^(?:value|val)$|_(?:value|val)$|[a-z]Value$/i

/**
 * Arguments written as a list of name/value pairs (`[{"name": "index", "value": 3}, …]`) as the
 * object they spell — only when every item is a two-key record of a name-like and a value-like key and
 * every name is one of `fields`, so a list with an unknown key never becomes arguments that pass by
 * accident. `undefined` when the list is not such a list.
 */
export function pairsToObject(value: unknown, fields: ReadonlySet<string>): Record<string, unknown> | undefined {
  if (!Array.isArray(value) || value.length === 0 || fields.size === 0) return undefined
  const output: Record<string, unknown> = {}
  for (const item of value) {
    if (!isPlainObject(item)) return undefined
    const keys = Object.keys(item)
    if (keys.length !== 2) return undefined
    const nameKey = keys.find((key) => (PAIR_NAME_KEY.test(key) || PAIR_NAME_SUFFIX.test(key)) && !PAIR_VALUE_KEY.test(key))
    const valueKey = keys.find((key) => key !== nameKey && PAIR_VALUE_KEY.test(key))
    if (nameKey === undefined || valueKey === undefined) return undefined
    const name = item[nameKey]
    if (typeof name !== 'string' || !fields.has(name) || UNSAFE_KEYS.has(name) || Object.hasOwn(output, name)) return undefined
    output[name] = item[valueKey]
  }
  return output
}

function schemaTypes(schema: JsonSchemaNode): string[] {
  const type = schema.type
  if (typeof type === 'string') return [type]
  if (Array.isArray(type)) return type.filter((entry): entry is string => typeof entry === 'string')
  if (schema.nullable === true) return ['null']
  return []
}

const BOOLEAN_TEXT: Record<string, boolean> = { true: true, false: false, '1': true, '0': false, yes: true, no: false, on: true, off: false }

function matchesType(value: unknown, type: string): boolean {
  switch (type) {
    case 'object':
      return isPlainObject(value)
    case 'array':
      return Array.isArray(value)
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value)
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
    case 'string':
      return typeof value === 'string'
    case 'boolean':
      return typeof value === 'boolean'
    case 'null':
      return value === null
    default:
      return true
  }
}

/** Whether `value` already has one of the types the schema node allows (no types: anything goes). */
export function matchesSchemaType(value: unknown, schema: JsonSchemaNode): boolean {
  const types = schemaTypes(schema)
  if (schema.nullable === true && value === null) return true
  return types.length === 0 || types.some((type) => matchesType(value, type))
}

function branches(schema: JsonSchemaNode): JsonSchemaNode[] | undefined {
  const list = schema.anyOf ?? schema.oneOf
  return Array.isArray(list) ? list.filter((entry): entry is JsonSchemaNode => typeof entry === 'object' && entry !== null) : undefined
}

/**
 * A decimal number as text (`-1.5e3`, `.5`, `2.`). Digits, then an optional fraction: `\d+\.?\d*` let
 * two runs of digits trade each other (quadratic on `000…0x`).
 */
export const NUMBER_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i

/**
 * Converts a value toward what its JSON Schema expects, recording a fix code per kind of change:
 * numeric strings to numbers/integers (`coerced:number`, `coerced:integer`), `"true"`/`"false"` to
 * booleans (`coerced:boolean`), scalars to strings (`coerced:string`), JSON text where an object or
 * array is expected (`double-encoded-arguments`), a one-element array where one object is expected
 * (`unwrapped-array`), a list of name/value pairs where an object is expected (`argument-pairs`), a
 * scalar where an array is expected (`coerced:array`), a case-insensitive enum
 * match (`coerced:enum`), `null` for an optional field (`dropped-null`) and `""`/`None` for an
 * optional field whose schema refuses it (`dropped-empty`). Values it cannot convert
 * are left for the validator to reject with a precise message. Never mutates its input.
 */
export function coerceToSchema(value: unknown, schema: unknown, fixes: string[], depth = 0): unknown {
  if (typeof schema !== 'object' || schema === null || depth > MAX_ARGUMENT_DEPTH) return value
  const node = schema as JsonSchemaNode
  const options = branches(node)
  if (options) {
    const fitting = options.find((option) => matchesSchemaType(value, option) && !branches(option))
    if (fitting) return coerceToSchema(value, fitting, fixes, depth + 1)
    for (const option of options) {
      const trial: string[] = []
      const converted = coerceToSchema(value, option, trial, depth + 1)
      if (matchesSchemaType(converted, option) && trial.length > 0) {
        for (const code of trial) pushFix(fixes, code)
        return converted
      }
    }
    return value
  }
  const types = schemaTypes(node)
  let current = value
  if (Array.isArray(current) && types.includes('object') && typeof node.properties === 'object' && node.properties !== null) {
    const object = pairsToObject(current, new Set(Object.keys(node.properties)))
    if (object) {
      pushFix(fixes, 'argument-pairs')
      current = object
    }
  }
  if (types.length > 0 && !types.some((type) => matchesType(current, type))) current = convertScalar(current, types, fixes)
  if (Array.isArray(node.enum) && typeof current === 'string' && !node.enum.includes(current)) {
    const lower = current.toLowerCase()
    const match = node.enum.find((option) => typeof option === 'string' && option.toLowerCase() === lower)
    if (match !== undefined) {
      pushFix(fixes, 'coerced:enum')
      current = match
    }
  }
  if (isPlainObject(current) && (types.includes('object') || (types.length === 0 && typeof node.properties === 'object'))) {
    return coerceObject(current, node, fixes, depth)
  }
  if (Array.isArray(current) && typeof node.items === 'object' && node.items !== null) {
    return current.map((item) => coerceToSchema(item, node.items, fixes, depth + 1))
  }
  return current
}

function convertScalar(value: unknown, types: string[], fixes: string[]): unknown {
  for (const type of types) {
    if ((type === 'object' || type === 'array') && typeof value === 'string') {
      // JSON text, or a Python literal (`"['guitar', 'piano']"`) and nothing repaired in it.
      const literal = /^\s*[[{]/.test(value) ? parseLenientJson(value) : undefined
      const decoded = decodeJsonString(value, []) ?? (literal?.fixes.every((code) => code === 'python-literals') ? literal.value : undefined)
      if (decoded !== undefined && matchesType(decoded, type)) {
        pushFix(fixes, 'double-encoded-arguments')
        return decoded
      }
    }
    if (type === 'object' && Array.isArray(value) && value.length === 1 && isPlainObject(value[0])) {
      pushFix(fixes, 'unwrapped-array')
      return value[0]
    }
    if ((type === 'number' || type === 'integer') && typeof value === 'string') {
      const text = value.trim()
      if (NUMBER_TEXT.test(text)) {
        const number = Number(text)
        if (Number.isFinite(number) && (type === 'number' || Number.isInteger(number))) {
          pushFix(fixes, `coerced:${type}`)
          return number
        }
      }
    }
    if (type === 'boolean' && (typeof value === 'string' || value === 0 || value === 1)) {
      // `"true"`, `"False"`, `1`/`0`, `"yes"`/`"no"`, `"on"`/`"off"`: what XML formats and small models write.
      const text = String(value).trim().toLowerCase()
      if (Object.hasOwn(BOOLEAN_TEXT, text)) {
        pushFix(fixes, 'coerced:boolean')
        return BOOLEAN_TEXT[text]
      }
    }
    if (type === 'string' && (typeof value === 'number' || typeof value === 'boolean')) {
      pushFix(fixes, 'coerced:string')
      return String(value)
    }
    // Elements inside a string field (`<note>a <b>b</b></note>`): the value is their text as written.
    const written = type === 'string' && typeof value === 'object' && value !== null ? elementText.get(value) : undefined
    if (written !== undefined) {
      pushFix(fixes, 'coerced:string')
      return written
    }
  }
  const wantsArray = types.includes('array')
  if (wantsArray && value !== null && value !== undefined && !Array.isArray(value)) {
    pushFix(fixes, 'coerced:array')
    return [value]
  }
  return value
}

function coerceObject(value: Record<string, unknown>, node: JsonSchemaNode, fixes: string[], depth: number): Record<string, unknown> {
  const properties = typeof node.properties === 'object' && node.properties !== null ? (node.properties as Record<string, unknown>) : {}
  const required = Array.isArray(node.required) ? (node.required as unknown[]) : []
  const additional = node.additionalProperties
  const output: Record<string, unknown> = {}
  for (const key of Object.keys(value)) {
    if (UNSAFE_KEYS.has(key)) {
      pushFix(fixes, 'dropped-unsafe-key')
      continue
    }
    const child = value[key]
    const childSchema = Object.hasOwn(properties, key) ? properties[key] : typeof additional === 'object' ? additional : undefined
    if (childSchema !== undefined && !required.includes(key)) {
      // Models write `null`, `""` or `None` for "not given"; an optional field says that by being absent.
      if (child === null ? !matchesSchemaType(null, childSchema as JsonSchemaNode) : typeof child === 'string' && refusesEmpty(childSchema as JsonSchemaNode, child.trim())) {
        pushFix(fixes, child === null ? 'dropped-null' : 'dropped-empty')
        continue
      }
    }
    output[key] = childSchema === undefined ? child : coerceToSchema(child, childSchema, fixes, depth + 1)
  }
  return output
}

/**
 * Whether `text`, an empty or no-value word (`""`, `None`, `null`), is a value the schema refuses: a
 * type that is no string, an enum or const without it, and for `""` a minimum length, a format or a
 * pattern it fails. Such a value for an optional field means the model gave none.
 */
function refusesEmpty(node: JsonSchemaNode, text: string): boolean {
  if (text !== '' && text !== 'None' && text !== 'null') return false
  const options = branches(node)
  if (options) return options.every((option) => refusesEmpty(option, text))
  if (Object.hasOwn(node, 'const')) return node.const !== text
  if (Array.isArray(node.enum)) return !node.enum.includes(text)
  const types = schemaTypes(node)
  if (types.length > 0 && !types.includes('string')) return true
  if (text !== '' || types.length === 0) return false
  if ((node.minLength as number) > 0 || typeof node.format === 'string') return true
  try {
    // regex-bounded: the tool's own pattern, run on the empty string only (test: packages/sdk/src/tool/schema-libraries.test.ts)
    return typeof node.pattern === 'string' && !new RegExp(node.pattern, 'u').test('')
  } catch {
    return false
  }
}

/** The schema node at a path (`properties`, `items`, `additionalProperties`); `undefined` when unknown. */
export function schemaAtPath(schema: unknown, path: ReadonlyArray<PropertyKey>): JsonSchemaNode | undefined {
  let node = schema
  for (const segment of path) {
    if (typeof node !== 'object' || node === null) return undefined
    const record = node as JsonSchemaNode
    const options = branches(record)
    if (options) {
      node = options.map((option) => schemaAtPath(option, [segment])).find((found) => found !== undefined)
      continue
    }
    if (typeof segment === 'number') node = record.items
    else {
      const properties = record.properties as Record<string, unknown> | undefined
      node = properties && Object.hasOwn(properties, segment) ? properties[String(segment)] : typeof record.additionalProperties === 'object' ? record.additionalProperties : undefined
    }
  }
  return typeof node === 'object' && node !== null ? (node as JsonSchemaNode) : undefined
}
