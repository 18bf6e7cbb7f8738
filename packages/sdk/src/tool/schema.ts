import { InvokeError } from '../errors/invoke-error'
import { setOwn } from '../util/set-own'

/** One validation issue, Standard Schema shape. */
export interface SchemaIssue {
  message: string
  // `| undefined` as Standard Schema writes it: consumers with exactOptionalPropertyTypes need it.
  path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> | undefined
}

type ValidationResult<Output> = { value: Output; issues?: undefined } | { issues: ReadonlyArray<SchemaIssue> }

/**
 * Any schema that implements Standard Schema: zod 4, and with Standard JSON Schema for the JSON
 * Schema sent to the model, ArkType, valibot through `toStandardJsonSchema`, plain JSON Schema
 * through `jsonSchema()` from `@wildcall/sdk/json-schema` and zod 3.25+ through `zod3Schema()` from
 * `@wildcall/sdk/zod3`. Validation goes through `~standard.validate`.
 *
 * @example
 * ```ts
 * const schema: StandardSchemaLike<{ index: number }> = z.object({ index: z.number().int() })
 * ```
 */
export interface StandardSchemaLike<Output = unknown> {
  readonly '~standard': {
    readonly version: 1
    readonly vendor: string
    readonly validate: (value: unknown) => ValidationResult<Output> | Promise<ValidationResult<Output>>
    readonly types?: { readonly input: unknown; readonly output: Output } | undefined
  }
}

/**
 * The output type of a schema.
 *
 * @example
 * ```ts
 * const Click = z.object({ index: z.number().int(), double: z.boolean().default(false) })
 * type ClickInput = InferSchemaOutput<typeof Click> // { index: number; double: boolean }: what `execute` receives
 * ```
 */
export type InferSchemaOutput<S> = S extends StandardSchemaLike<infer O> ? O : never

/** Whether `value` is a Standard Schema (an object, or a function as ArkType's types are). */
export function isStandardSchema(value: unknown): value is StandardSchemaLike {
  return (typeof value === 'function' || (typeof value === 'object' && value !== null)) && typeof (value as Partial<StandardSchemaLike>)['~standard'] === 'object'
}

export type ValidateResult<T> = { success: true; data: T } | { success: false; issues: ReadonlyArray<SchemaIssue> }

/** Validates synchronously; an async schema (refinements returning promises) is a configuration error. */
export function validateSchema<T>(schema: StandardSchemaLike<T>, value: unknown): ValidateResult<T> {
  const result = schema['~standard'].validate(value)
  if (result instanceof Promise) {
    throw new InvokeError('config_error', 'A tool input schema validated asynchronously. Use synchronous refinements only.')
  }
  return result.issues ? { success: false, issues: result.issues } : { success: true, data: result.value }
}

/** `a.b[0]`-style path of an issue. */
export function formatIssuePath(issue: SchemaIssue): string {
  let out = ''
  for (const segment of issue.path ?? []) {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment
    out += typeof key === 'number' ? `[${key}]` : out ? `.${String(key)}` : String(key)
  }
  return out
}

const cache = new WeakMap<object, Record<string, unknown>>()
let zod3Converter: ((schema: unknown) => unknown) | undefined

/**
 * Lets bare zod 3 schemas through: `@wildcall/sdk` calls it in each of its functions that can meet a
 * schema (a module-level call could be dropped by a bundler under `sideEffects: false`), while
 * `@wildcall/sdk/core` leaves the converter out and asks for `zod3Schema()` instead.
 */
export function useZod3Converter(convert: (schema: unknown) => unknown): void {
  zod3Converter = convert
}

/**
 * Registers a hand-built JSON Schema for a schema object, returned as is by {@link toToolJsonSchema}.
 * The macro tool uses it: its validator is not zod, and its compact schema is what the model pays for.
 */
export function setToolJsonSchema(schema: object, json: Record<string, unknown>): void {
  cache.set(schema, json)
}

/**
 * The normalised JSON Schema of a tool's input schema (input side: defaulted fields are optional),
 * converted once per schema object and cached: what the model is sent and what repair reads.
 */
export function toToolJsonSchema(schema: StandardSchemaLike): Record<string, unknown> {
  const cached = cache.get(schema)
  if (cached) return cached
  const json = convert(schema)
  cache.set(schema, json)
  return json
}

function convert(schema: StandardSchemaLike): Record<string, unknown> {
  const standard = schema['~standard'] as StandardSchemaLike['~standard'] & { jsonSchema?: { input?: (options: { target: string; libraryOptions?: object }) => unknown } }
  const zod4 = '_zod' in schema
  let json: unknown
  if (typeof standard?.jsonSchema?.input === 'function') {
    // Standard JSON Schema (zod 4.2+, valibot's toStandardJsonSchema, ArkType, `jsonSchema()`, `zod3Schema()`):
    // the input side, read through the schema itself, so no library is imported here. zod's types
    // with no JSON Schema (a date, say) become `{}` rather than a throw.
    json = standard.jsonSchema.input({ target: 'draft-2020-12', ...(zod4 && { libraryOptions: { unrepresentable: 'any' } }) })
  } else if (!zod4 && '_def' in schema && zod3Converter) {
    json = zod3Converter(schema)
  } else {
    throw new InvokeError(
      'config_error',
      zod4
        ? 'A zod 4 tool input schema describes itself as JSON Schema from zod 4.2 on, imported from "zod" (not "zod/mini"): upgrade zod.'
        : '_def' in schema
          ? // zod 3 cannot describe itself: in `@wildcall/sdk/core` its converter is an opt-in import, so
            // that only its users pay for it (`@wildcall/sdk` brings it: see `useZod3Converter`).
            'A tool input schema is a zod 3 schema, which needs its converter: wrap it, inputSchema: zod3Schema(z.object({ … })) with import { zod3Schema } from "@wildcall/sdk/zod3", or upgrade to zod 4.'
          : `A tool input schema from "${String(standard?.vendor)}" has no JSON Schema to send to the model. Use zod, a Standard JSON Schema (ArkType, valibot through toStandardJsonSchema) or jsonSchema({...}) from "@wildcall/sdk/json-schema".`,
    )
  }
  return compactJsonSchema(json)
}

const SAFE = Number.MAX_SAFE_INTEGER
// Inlining a `$ref` copies its target: a schema whose definitions refer to each other many times
// over could grow without end, so past this many copies the rest stay references.
const MAX_INLINED = 200

interface NormalizeState {
  root: unknown
  inlined: number
  keptRef: boolean
}

/**
 * One normalised JSON Schema whatever library wrote it, so that repair, coercion and error
 * messages read the same description of the fields: drops what costs tokens and says nothing
 * (`$schema`, safe-integer bounds, an empty `required`), inlines local `$ref`s (`#/$defs/…`,
 * `#/definitions/…`; a recursive one stays a reference), and writes a union of bare types
 * (`anyOf: [{type: 'string'}, {type: 'null'}]`) as `type: ['string', 'null']`, as zod does. A bigint
 * (a `z.bigint()` bound, a bigint literal or default) becomes a number, since `JSON.stringify`
 * throws on one when the request is sent.
 */
export function compactJsonSchema(node: unknown): Record<string, unknown> {
  const state: NormalizeState = { root: node, inlined: 0, keptRef: false }
  const out = normalize(node, true, state, ['#']) as Record<string, unknown>
  if (!state.keptRef) {
    delete out.$defs
    delete out.definitions
  }
  return out
}

function normalize(node: unknown, root: boolean, state: NormalizeState, refs: readonly string[]): unknown {
  if (typeof node === 'bigint') return Number(node)
  if (Array.isArray(node)) return node.map((item) => normalize(item, false, state, refs))
  if (typeof node !== 'object' || node === null) return node
  const { $ref, ...siblings } = node as Record<string, unknown>
  if (typeof $ref === 'string') {
    const target = refs.includes($ref) || state.inlined >= MAX_INLINED ? undefined : resolveLocalRef(state.root, $ref)
    if (target === undefined) state.keptRef = true
    else {
      state.inlined++
      // Keywords beside a `$ref` (a description, a default) apply too, and say more than the target.
      return normalize({ ...target, ...siblings }, false, state, [...refs, $ref])
    }
  }
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema' || (root && key === '~standard')) continue
    if ((key === 'maximum' && value === SAFE) || (key === 'minimum' && value === -SAFE)) continue
    if (key === 'required' && Array.isArray(value) && value.length === 0) continue
    setOwn(out, key, normalize(value, false, state, refs))
  }
  const types = Array.isArray(out.anyOf) && out.type === undefined ? bareTypes(out.anyOf) : undefined
  if (types) {
    delete out.anyOf
    out.type = types
  }
  return out
}

/** The types of a list of `{type}`-only branches, or `undefined` when a branch says more. */
function bareTypes(branches: unknown[]): string[] | undefined {
  const types: string[] = []
  for (const branch of branches) {
    const type = typeof branch === 'object' && branch !== null && Object.keys(branch).length === 1 ? (branch as Record<string, unknown>).type : undefined
    for (const entry of Array.isArray(type) ? type : [type]) {
      if (typeof entry !== 'string') return undefined
      if (!types.includes(entry)) types.push(entry)
    }
  }
  return types.length > 0 ? types : undefined
}

/** The object a local reference (`#`, `#/$defs/Name`, a JSON pointer) points at, if any. */
function resolveLocalRef(root: unknown, ref: string): Record<string, unknown> | undefined {
  if (!ref.startsWith('#')) return undefined
  let node = root
  for (const raw of ref.slice(1).split('/').slice(1)) {
    let segment: string
    try {
      segment = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~')
    } catch {
      return undefined
    }
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, segment)) return undefined
    node = (node as Record<string, unknown>)[segment]
  }
  return typeof node === 'object' && node !== null && !Array.isArray(node) ? (node as Record<string, unknown>) : undefined
}
