import { toJSONSchema } from 'zod/v4/core'
import { InvokeError } from '../errors/invoke-error'
import { setOwn } from '../repair/markup-shared'
import { zod3ToJsonSchema } from './zod3-to-json-schema'

/** One validation issue, Standard Schema shape. */
export interface SchemaIssue {
  message: string
  // `| undefined` as Standard Schema writes it: consumers with exactOptionalPropertyTypes need it.
  path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> | undefined
}

type ValidationResult<Output> = { value: Output; issues?: undefined } | { issues: ReadonlyArray<SchemaIssue> }

/**
 * Any schema that implements Standard Schema (zod 3.25+ and zod 4 do). The JSON Schema sent to the
 * model is derived from zod; validation goes through `~standard.validate`.
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

/**
 * Registers a hand-built JSON Schema for a schema object, returned as is by {@link toToolJsonSchema}.
 * The macro tool uses it: its validator is not zod, and its compact schema is what the model pays for.
 */
export function setToolJsonSchema(schema: object, json: Record<string, unknown>): void {
  cache.set(schema, json)
}

/**
 * The JSON Schema of a zod schema (input side: defaulted fields are optional), converted once per
 * schema object and cached.
 */
export function toToolJsonSchema(schema: StandardSchemaLike): Record<string, unknown> {
  const cached = cache.get(schema)
  if (cached) return cached
  const json = convert(schema)
  cache.set(schema, json)
  return json
}

function convert(schema: StandardSchemaLike): Record<string, unknown> {
  const vendor = schema['~standard']?.vendor
  if (vendor !== 'zod') {
    throw new InvokeError('config_error', `Tool input schemas must be zod schemas (got a "${String(vendor)}" schema). Use zod 3.25+ or zod 4.`)
  }
  const json = '_zod' in schema ? (toJSONSchema(schema as never, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>) : zod3ToJsonSchema(schema)
  return compactJsonSchema(json)
}

const SAFE = Number.MAX_SAFE_INTEGER
/**
 * Drops what costs tokens and says nothing: `$schema`, safe-integer bounds (`additionalProperties:
 * false` noise stays). A bigint (a `z.bigint()` bound, a bigint literal or default) becomes a
 * number, since `JSON.stringify` throws on one when the request is sent.
 */
export function compactJsonSchema(node: unknown): Record<string, unknown> {
  return strip(node, true) as Record<string, unknown>
}

function strip(node: unknown, root: boolean): unknown {
  if (typeof node === 'bigint') return Number(node)
  if (Array.isArray(node)) return node.map((item) => strip(item, false))
  if (typeof node !== 'object' || node === null) return node
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema' || (root && key === '~standard')) continue
    if ((key === 'maximum' && value === SAFE) || (key === 'minimum' && value === -SAFE)) continue
    setOwn(out, key, strip(value, false))
  }
  return out
}
