import { errorMessage, InvokeError } from '../errors/invoke-error'
import { setOwn } from '../util/set-own'

// The JSON Schema (draft 7) of a zod 3 schema, input side, as `zod-to-json-schema` wrote it with
// `{ $refStrategy: 'none', effectStrategy: 'input', pipeStrategy: 'input' }` — the differential
// test holds the two equal, key order included, and lists the few places this one differs.
// zod 4 schemas never come here: zod 4 converts itself.

type JsonSchema = Record<string, unknown>

/** The parts of a zod 3 `_def` read here; which fields exist depends on `typeName`. */
interface Zod3Def {
  typeName: string
  description?: string
  [field: string]: any
}

interface Walk {
  /** Defs (and lazy getters) being converted: meeting one again inside itself is recursion. */
  ancestors: Set<unknown>
  lazyDepth: number
  nodes: number
}

/** A `z.lazy` nested deeper than this in other lazies is described as "anything" (see below). */
const MAX_LAZY_DEPTH = 8
/** More parts than any tool input worth its tokens; only a runaway `z.lazy` gets here. */
const MAX_NODES = 10_000

/** Types zod-to-json-schema collapses into `type: [...]` in a union or a nullable, when unchecked. */
const PRIMITIVE_TYPES = new Map([
  ['ZodString', 'string'],
  ['ZodNumber', 'number'],
  ['ZodBigInt', 'integer'],
  ['ZodBoolean', 'boolean'],
  ['ZodNull', 'null'],
])

const STRING_FORMATS: Record<string, string> = { email: 'email', url: 'uri', uuid: 'uuid', datetime: 'date-time', date: 'date', time: 'time', duration: 'duration' }

// zod 3 keeps these regular expressions private; these are zod-to-json-schema's copies (the `/i`
// ones rewritten without the flag), so the model sees the same pattern as before.
const IPV4_CIDR = String.raw`^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\/(3[0-2]|[12]?[0-9])$`
const IPV6_CIDR = String.raw`^(([0-9a-fA-F]{1,4}:){7,7}[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,7}:|([0-9a-fA-F]{1,4}:){1,6}:[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,5}(:[0-9a-fA-F]{1,4}){1,2}|([0-9a-fA-F]{1,4}:){1,4}(:[0-9a-fA-F]{1,4}){1,3}|([0-9a-fA-F]{1,4}:){1,3}(:[0-9a-fA-F]{1,4}){1,4}|([0-9a-fA-F]{1,4}:){1,2}(:[0-9a-fA-F]{1,4}){1,5}|[0-9a-fA-F]{1,4}:((:[0-9a-fA-F]{1,4}){1,6})|:((:[0-9a-fA-F]{1,4}){1,7}|:)|fe80:(:[0-9a-fA-F]{0,4}){0,4}%[0-9a-zA-Z]{1,}|::(ffff(:0{1,4}){0,1}:){0,1}((25[0-5]|(2[0-4]|1{0,1}[0-9]){0,1}[0-9])\.){3,3}(25[0-5]|(2[0-4]|1{0,1}[0-9]){0,1}[0-9])|([0-9a-fA-F]{1,4}:){1,4}:((25[0-5]|(2[0-4]|1{0,1}[0-9]){0,1}[0-9])\.){3,3}(25[0-5]|(2[0-4]|1{0,1}[0-9]){0,1}[0-9]))\/(12[0-8]|1[01][0-9]|[1-9]?[0-9])$`
const STRING_PATTERNS: Record<string, string> = {
  cuid: String.raw`^[cC][^\s-]{8,}$`,
  cuid2: '^[0-9a-z]+$',
  ulid: '^[0-9A-HJKMNP-TV-Z]{26}$',
  nanoid: '^[a-zA-Z0-9_-]{21}$',
  base64url: '^([0-9a-zA-Z-_]{4})*(([0-9a-zA-Z-_]{2}(==)?)|([0-9a-zA-Z-_]{3}(=)?))?$',
  jwt: String.raw`^[A-Za-z0-9-_]+\.[A-Za-z0-9-_]+\.[A-Za-z0-9-_]*$`,
  emoji: String.raw`^(\p{Extended_Pictographic}|\p{Emoji_Component})+$`,
}

/**
 * The JSON Schema the model sees for a zod 3 schema: the input side (a defaulted field is optional
 * and keeps its `default`; transforms, preprocessors and pipelines show what they accept), every
 * schema inlined. What JSON cannot carry (`z.function()`, `z.symbol()`, `z.void()`) is left out of
 * its object, or is `{}` at the root. Recursion, bounded:
 * - a schema met again inside itself (`z.lazy(() => Node)` within `Node`) is `{}` ("anything") there;
 * - a `z.lazy` nested in more than 8 others is `{}` too (a getter that builds a new schema on every
 *   call never meets itself);
 * - more than 10,000 parts is a `config_error`.
 * A schema object that is not zod 3 (no `_def.typeName`), or one whose parts throw when read, is a
 * `config_error`.
 *
 * @example
 * ```ts
 * zod3ToJsonSchema(z.object({ index: z.number().int().min(0), clear: z.boolean().default(true) }))
 * // { type: 'object', properties: { index: { type: 'integer', minimum: 0 }, clear: { type: 'boolean', default: true } },
 * //   required: ['index'], additionalProperties: false }
 * ```
 */
export function zod3ToJsonSchema(schema: unknown): JsonSchema {
  try {
    return convert(schema, { ancestors: new Set(), lazyDepth: 0, nodes: 0 }, '', false) ?? {}
  } catch (error) {
    if (error instanceof InvokeError) throw error
    throw new InvokeError(
      'config_error',
      `A zod 3 tool input schema could not be converted to JSON Schema (${errorMessage(error)}). Build it from zod 3.25+ constructors (z.object, z.string …), or use zod 4.`,
      { cause: error },
    )
  }
}

/**
 * One schema, or `undefined` for what JSON cannot carry. `atProperty`: the schema is an object
 * property's (through wrappers that do not change the position), where `.optional()` only makes
 * the field not required.
 */
function convert(schema: unknown, walk: Walk, where: string, atProperty: boolean): JsonSchema | undefined {
  const def = readDef(schema, where)
  if (walk.ancestors.has(def)) return {}
  if (++walk.nodes > MAX_NODES) {
    throw new InvokeError(
      'config_error',
      `A zod 3 tool input schema has more than ${MAX_NODES} parts: a z.lazy getter builds a new schema on every call. Return one schema object from it (z.lazy(() => Node)).`,
    )
  }
  walk.ancestors.add(def)
  let json: JsonSchema | undefined
  try {
    json = convertDef(def, walk, where, atProperty)
  } finally {
    walk.ancestors.delete(def)
  }
  if (json && def.description) json.description = def.description
  return json
}

function readDef(schema: unknown, where: string): Zod3Def {
  const def = (schema as { _def?: Zod3Def } | null | undefined)?._def
  if (typeof def === 'object' && def !== null && typeof def.typeName === 'string') return def
  const zod4 = typeof schema === 'object' && schema !== null && '_zod' in schema
  throw new InvokeError(
    'config_error',
    `A tool input schema ${where ? `has a part at "${where}" that is` : 'is'} not a zod 3 schema${zod4 ? ' (it is a zod 4 one)' : ''}. Build the whole schema with one zod version, 3.25+ or 4.`,
  )
}

function convertDef(def: Zod3Def, walk: Walk, where: string, atProperty: boolean): JsonSchema | undefined {
  switch (def.typeName) {
    case 'ZodString':
      return convertString(def)
    case 'ZodNumber':
      return convertNumber(def, { type: 'number' })
    case 'ZodBigInt':
      return convertNumber(def, { type: 'integer', format: 'int64' })
    case 'ZodBoolean':
      return { type: 'boolean' }
    case 'ZodDate':
      return { type: 'string', format: 'date-time' }
    case 'ZodNull':
      return { type: 'null' }
    case 'ZodUndefined':
    case 'ZodNever':
    case 'ZodNaN':
      return { not: {} }
    case 'ZodAny':
    case 'ZodUnknown':
      return {}
    case 'ZodLiteral':
      return convertLiteral(def.value)
    case 'ZodEnum':
      return { type: 'string', enum: [...def.values] }
    case 'ZodNativeEnum':
      return convertNativeEnum(def.values)
    case 'ZodObject':
      return convertObject(def, walk, where)
    case 'ZodArray':
      return convertArray(def, walk, where)
    case 'ZodTuple':
      return convertTuple(def, walk, where)
    case 'ZodRecord':
      return convertRecord(def, walk, where)
    case 'ZodMap': {
      // As `[key, value]` entries: what a preprocessor turning JSON into a Map would read.
      const pair = [convert(def.keyType, walk, `${where}[0]`, false) ?? {}, convert(def.valueType, walk, `${where}[1]`, false) ?? {}]
      return { type: 'array', maxItems: 125, items: { type: 'array', items: pair, minItems: 2, maxItems: 2 } }
    }
    case 'ZodSet': {
      const json: JsonSchema = { type: 'array', uniqueItems: true, items: convert(def.valueType, walk, `${where}[]`, false) }
      if (def.minSize) json.minItems = def.minSize.value
      if (def.maxSize) json.maxItems = def.maxSize.value
      return json
    }
    case 'ZodOptional': {
      if (atProperty) return convert(def.innerType, walk, where, true)
      const inner = convert(def.innerType, walk, where, false)
      return inner ? { anyOf: [{ not: {} }, inner] } : {}
    }
    case 'ZodNullable': {
      const innerDef = readDef(def.innerType, where)
      const type = PRIMITIVE_TYPES.get(innerDef.typeName)
      if (type && !innerDef.checks?.length) return { type: [type, 'null'] }
      const inner = convert(def.innerType, walk, where, false)
      return inner && { anyOf: [inner, { type: 'null' }] }
    }
    case 'ZodDefault':
      return { ...convert(def.innerType, walk, where, atProperty), default: def.defaultValue() }
    case 'ZodCatch':
    case 'ZodReadonly':
      return convert(def.innerType, walk, where, atProperty)
    case 'ZodBranded':
    case 'ZodPromise':
      return convert(def.type, walk, where, atProperty)
    case 'ZodEffects':
      return convert(def.schema, walk, where, atProperty)
    case 'ZodPipeline':
      return convert(def.in, walk, where, atProperty)
    case 'ZodLazy':
      return convertLazy(def, walk, where, atProperty)
    case 'ZodUnion':
    case 'ZodDiscriminatedUnion':
      return convertUnion(def, walk, where)
    case 'ZodIntersection':
      return convertIntersection(def, walk, where)
    default:
      // ZodFunction, ZodSymbol, ZodVoid, and types this version does not know.
      return undefined
  }
}

function convertString(def: Zod3Def): JsonSchema {
  const json: JsonSchema = { type: 'string' }
  for (const check of def.checks ?? []) {
    const kind: string = check.kind
    if (kind === 'min' || kind === 'length') json.minLength = typeof json.minLength === 'number' ? Math.max(json.minLength, check.value) : check.value
    if (kind === 'max' || kind === 'length') json.maxLength = typeof json.maxLength === 'number' ? Math.min(json.maxLength, check.value) : check.value
    if (STRING_FORMATS[kind]) addKeyword(json, 'format', STRING_FORMATS[kind])
    if (STRING_PATTERNS[kind]) addKeyword(json, 'pattern', STRING_PATTERNS[kind])
    if (kind === 'regex') addKeyword(json, 'pattern', check.regex.source)
    if (kind === 'startsWith') addKeyword(json, 'pattern', RegExp(`^${escapeLiteral(check.value)}`).source)
    if (kind === 'endsWith') addKeyword(json, 'pattern', RegExp(`${escapeLiteral(check.value)}$`).source)
    if (kind === 'includes') addKeyword(json, 'pattern', RegExp(escapeLiteral(check.value)).source)
    if (kind === 'ip' && check.version !== 'v6') addKeyword(json, 'format', 'ipv4')
    if (kind === 'ip' && check.version !== 'v4') addKeyword(json, 'format', 'ipv6')
    if (kind === 'cidr' && check.version !== 'v6') addKeyword(json, 'pattern', IPV4_CIDR)
    if (kind === 'cidr' && check.version !== 'v4') addKeyword(json, 'pattern', IPV6_CIDR)
    if (kind === 'base64') json.contentEncoding = 'base64'
  }
  return json
}

/** A second format (pattern) turns both into an `anyOf` of formats (an `allOf` of patterns). */
function addKeyword(json: JsonSchema, keyword: 'format' | 'pattern', value: string): void {
  const listKey = keyword === 'format' ? 'anyOf' : 'allOf'
  const list = json[listKey] as JsonSchema[] | undefined
  if (!json[keyword] && !list?.some((entry) => entry[keyword])) {
    json[keyword] = value
    return
  }
  const merged = list ?? (json[listKey] = [])
  if (json[keyword]) merged.push({ [keyword]: json[keyword] })
  delete json[keyword]
  merged.push({ [keyword]: value })
}

/** Backslash before every character that is not an ASCII letter or digit. */
function escapeLiteral(text: string): string {
  return text.replace(/[^A-Za-z0-9]/g, '\\$&')
}

function convertNumber(def: Zod3Def, json: JsonSchema): JsonSchema {
  for (const check of def.checks ?? []) {
    if (check.kind === 'int') json.type = 'integer'
    if (check.kind === 'min') json[check.inclusive ? 'minimum' : 'exclusiveMinimum'] = check.value
    if (check.kind === 'max') json[check.inclusive ? 'maximum' : 'exclusiveMaximum'] = check.value
    if (check.kind === 'multipleOf') json.multipleOf = check.value
  }
  return json
}

function convertLiteral(value: unknown): JsonSchema {
  const type = typeof value
  if (type === 'string' || type === 'number' || type === 'boolean' || type === 'bigint') return { type: type === 'bigint' ? 'integer' : type, const: value }
  // zod-to-json-schema says `type: 'object'` for these, which asks the model for an object.
  if (value === null) return { type: 'null' }
  if (value === undefined) return { not: {} }
  return { type: Array.isArray(value) ? 'array' : 'object' }
}

function convertNativeEnum(values: Record<string, unknown>): JsonSchema {
  // A numeric TypeScript enum maps its values back to its names: keep the names' values only.
  const members = Object.keys(values)
    .filter((key) => typeof values[values[key] as string] !== 'number')
    .map((key) => values[key])
  const types = new Set(members.map((member) => typeof member))
  return { type: types.size === 1 ? (types.has('string') ? 'string' : 'number') : ['string', 'number'], enum: members }
}

function convertObject(def: Zod3Def, walk: Walk, where: string): JsonSchema {
  const properties: JsonSchema = {}
  const required: string[] = []
  const shape = def.shape() as Record<string, { isOptional(): boolean }>
  for (const key of Object.keys(shape)) {
    const property = shape[key]
    const json = convert(property, walk, where ? `${where}.${key}` : key, true)
    if (json === undefined) continue
    setOwn(properties, key, json)
    if (!acceptsUndefined(property!)) required.push(key)
  }
  const json: JsonSchema = { type: 'object', properties }
  if (required.length > 0) json.required = required
  const catchall = def.catchall
  if (readDef(catchall, where).typeName !== 'ZodNever') {
    const additional = convert(catchall, walk, `${where}.*`, false)
    if (additional) json.additionalProperties = additional
  } else {
    json.additionalProperties = def.unknownKeys === 'passthrough'
  }
  return json
}

/** zod's own answer to "may this field be left out", which sees through preprocessors and `.catch()`. */
function acceptsUndefined(schema: { isOptional(): boolean }): boolean {
  try {
    return schema.isOptional()
  } catch {
    return true // an async refinement cannot answer synchronously; zod-to-json-schema says optional
  }
}

function convertArray(def: Zod3Def, walk: Walk, where: string): JsonSchema {
  const json: JsonSchema = { type: 'array' }
  if (readDef(def.type, where).typeName !== 'ZodAny') json.items = convert(def.type, walk, `${where}[]`, false)
  if (def.minLength) json.minItems = def.minLength.value
  if (def.maxLength) json.maxItems = def.maxLength.value
  if (def.exactLength) {
    json.minItems = def.exactLength.value
    json.maxItems = def.exactLength.value
  }
  return json
}

function convertTuple(def: Zod3Def, walk: Walk, where: string): JsonSchema {
  const length = def.items.length
  const items = (def.items as unknown[]).map((item, index) => convert(item, walk, `${where}[${index}]`, false)).filter((item) => item !== undefined)
  if (!def.rest) return { type: 'array', minItems: length, maxItems: length, items }
  return { type: 'array', minItems: length, items, additionalItems: convert(def.rest, walk, `${where}[]`, false) }
}

function convertRecord(def: Zod3Def, walk: Walk, where: string): JsonSchema {
  const json: JsonSchema = { type: 'object', additionalProperties: convert(def.valueType, walk, `${where}.*`, false) ?? true }
  const keyDef = def.keyType?._def as Zod3Def | undefined
  // zod-to-json-schema describes the keys only when they are checked strings or an enum.
  let keys: JsonSchema | undefined
  if (keyDef?.typeName === 'ZodString' && keyDef.checks?.length) keys = convertString(keyDef)
  else if (keyDef?.typeName === 'ZodBranded' && keyDef.type._def.typeName === 'ZodString' && keyDef.type._def.checks?.length) keys = convert(keyDef.type, walk, where, false)
  else if (keyDef?.typeName === 'ZodEnum') json.propertyNames = { enum: keyDef.values }
  if (keys) {
    const { type: _type, ...propertyNames } = keys
    json.propertyNames = propertyNames
  }
  return json
}

function convertLazy(def: Zod3Def, walk: Walk, where: string, atProperty: boolean): JsonSchema | undefined {
  const getter = def.getter
  if (walk.ancestors.has(getter) || walk.lazyDepth >= MAX_LAZY_DEPTH) return {}
  walk.ancestors.add(getter)
  walk.lazyDepth++
  try {
    return convert(getter(), walk, where, atProperty)
  } finally {
    walk.ancestors.delete(getter)
    walk.lazyDepth--
  }
}

function convertUnion(def: Zod3Def, walk: Walk, where: string): JsonSchema | undefined {
  const options: unknown[] = def.options instanceof Map ? [...def.options.values()] : def.options
  const defs = options.map((option) => readDef(option, where))
  // Unchecked primitives, literals and enums read better as one `type` (and `enum`) than as `anyOf`.
  if (defs.every((optionDef) => PRIMITIVE_TYPES.has(optionDef.typeName) && !optionDef.checks?.length)) {
    const types = unique(defs.map((optionDef) => PRIMITIVE_TYPES.get(optionDef.typeName)))
    return { type: types.length > 1 ? types : types[0] }
  }
  if (defs.every((optionDef) => optionDef.typeName === 'ZodLiteral' && !optionDef.description)) {
    const values = defs.map((optionDef) => optionDef.value)
    const types = values.map((value) => (value === null ? 'null' : typeof value === 'bigint' ? 'integer' : typeof value))
    if (types.every((type) => type === 'null' || type === 'string' || type === 'number' || type === 'boolean' || type === 'integer')) {
      const distinct = unique(types)
      return { type: distinct.length > 1 ? distinct : distinct[0], enum: unique(values) }
    }
  } else if (defs.every((optionDef) => optionDef.typeName === 'ZodEnum')) {
    return { type: 'string', enum: unique(defs.flatMap((optionDef) => optionDef.values)) }
  }
  const anyOf = options.map((option) => convert(option, walk, where, false)).filter((option) => option)
  return anyOf.length > 0 ? { anyOf } : undefined
}

function convertIntersection(def: Zod3Def, walk: Walk, where: string): JsonSchema | undefined {
  const allOf: JsonSchema[] = []
  for (const side of [convert(def.left, walk, where, false), convert(def.right, walk, where, false)]) {
    if (!side) continue
    // A nested intersection flattens; each object's own `additionalProperties: false` would
    // reject the other side's fields, so it goes.
    if (side.type !== 'string' && 'allOf' in side) allOf.push(...(side.allOf as JsonSchema[]))
    else if (side.additionalProperties === false) {
      const { additionalProperties: _closed, ...open } = side
      allOf.push(open)
    } else allOf.push(side)
  }
  return allOf.length > 0 ? { allOf } : undefined
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)]
}
