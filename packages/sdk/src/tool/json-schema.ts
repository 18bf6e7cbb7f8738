import { Validator, type OutputUnit, type SchemaDraft } from '@cfworker/json-schema'
import { errorMessage, InvokeError } from '../errors/invoke-error'
import { isPlainObject } from '../repair/coerce'
import { setOwn } from '../util/set-own'
import type { SchemaIssue, StandardSchemaLike } from './schema'
import { toToolJsonSchema } from './schema'

/** A JSON Schema document (drafts 7 and 2020-12; the keywords tools use). */
export type JsonSchemaObject = { readonly [key: string]: unknown }

type Simplify<T> = { [K in keyof T]: T[K] } & {}
type TypeName<S> = S extends { readonly type: infer T } ? (T extends readonly (infer Each)[] ? Each : T) : never
type RequiredKey<S> = S extends { readonly required: readonly (infer Key)[] } ? Key : never
type ObjectOf<S> = S extends { readonly properties: infer Properties }
  ? Simplify<
      { -readonly [K in keyof Properties as K extends RequiredKey<S> ? K : Properties[K] extends { readonly default: unknown } ? K : never]: InferJsonSchema<Properties[K]> } & {
        -readonly [K in keyof Properties as K extends RequiredKey<S> ? never : Properties[K] extends { readonly default: unknown } ? never : K]?: InferJsonSchema<Properties[K]>
      }
    >
  : Record<string, unknown>
type Typed<T, S> = T extends 'string'
  ? string
  : T extends 'number' | 'integer'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : T extends 'array'
          ? S extends { readonly items: infer Items } ? InferJsonSchema<Items>[] : unknown[]
          : T extends 'object'
            ? ObjectOf<S>
            : unknown

/**
 * The TypeScript type a JSON Schema literal describes (objects, `required`, `default`, scalar types,
 * arrays, `enum`, `const`, `anyOf`/`oneOf`); `unknown` where it cannot tell (a `$ref`, say).
 *
 * @example
 * ```ts
 * type Click = InferJsonSchema<{ type: 'object'; properties: { index: { type: 'integer' } }; required: ['index'] }>
 * // { index: number }
 * ```
 */
export type InferJsonSchema<S> = S extends { readonly const: infer Value }
  ? Value
  : S extends { readonly enum: readonly (infer Value)[] }
    ? Value
    : S extends { readonly anyOf: readonly (infer Branch)[] }
      ? InferJsonSchema<Branch>
      : S extends { readonly oneOf: readonly (infer Branch)[] }
        ? InferJsonSchema<Branch>
        : [TypeName<S>] extends [never]
          ? S extends { readonly properties: unknown } ? ObjectOf<S> : unknown
          : Typed<TypeName<S>, S>

/**
 * A tool input schema made from plain JSON Schema: Standard Schema for validation, Standard JSON
 * Schema for what the model is sent.
 *
 * @example
 * ```ts
 * const schema: JsonSchema<{ index: number }> = jsonSchema({ type: 'object', properties: { index: { type: 'integer' } }, required: ['index'] })
 * ```
 */
export interface JsonSchema<Output = unknown> extends StandardSchemaLike<Output> {
  readonly '~standard': StandardSchemaLike<Output>['~standard'] & {
    readonly jsonSchema: {
      readonly input: (options: { readonly target: string }) => Record<string, unknown>
      readonly output: (options: { readonly target: string }) => Record<string, unknown>
    }
  }
  /** The JSON Schema as it was given. */
  readonly jsonSchema: JsonSchemaObject
}

/**
 * Wraps a plain JSON Schema (drafts 7 and 2020-12: objects, `required`, enums, unions,
 * `$ref`/`$defs`, formats, numeric ranges) as a tool input schema. It is validated at run time by
 * `@cfworker/json-schema`, which needs no `eval` or `new Function` (so it runs in browser extensions
 * and on strict-CSP pages); a missing property with a `default` gets the default, as zod would give
 * it. Repair and coercion read the schema exactly as they read a zod schema. The type of `execute`'s
 * input is inferred from a schema literal; pass a type argument to state it yourself.
 *
 * @example
 * ```ts
 * import { defineTool } from '@wildcall/sdk'
 * import { jsonSchema } from '@wildcall/sdk/json-schema'
 *
 * const click = defineTool({
 *   description: 'Click the element with this index',
 *   inputSchema: jsonSchema({ type: 'object', properties: { index: { type: 'integer', minimum: 0 } }, required: ['index'] }),
 *   execute: async ({ index }) => `clicked ${index}`,
 * })
 * ```
 */
export function jsonSchema<Output = never, const S extends JsonSchemaObject = JsonSchemaObject>(schema: S): JsonSchema<[Output] extends [never] ? InferJsonSchema<S> : Output> {
  if (!isPlainObject(schema)) {
    throw new InvokeError('config_error', 'jsonSchema() needs a JSON Schema object, e.g. jsonSchema({ type: "object", properties: { index: { type: "integer" } } }).')
  }
  let validator: Validator | undefined
  const wrapped: JsonSchema = {
    jsonSchema: schema,
    '~standard': {
      version: 1,
      vendor: 'wildcall-json-schema',
      validate(value) {
        // Built on first use: a tool set is often declared long before (or without) a call.
        // The validator annotates the schema it is given, so it gets its own copy.
        validator ??= new Validator(JSON.parse(JSON.stringify(schema)), draftOf(schema), false)
        let errors: OutputUnit[]
        try {
          const result = validator.validate(value)
          if (result.valid) return { value: withDefaults(value, toToolJsonSchema(wrapped), draftOf(schema), 0) }
          errors = result.errors
        } catch (error) {
          // The validator throws on what JSON cannot hold (`undefined`, a function) and on a bad `pattern`.
          return { issues: [{ message: `The value could not be validated: ${errorMessage(error)}` }] }
        }
        return { issues: toIssues(errors, value) }
      },
      jsonSchema: { input: () => schema, output: () => schema },
    },
  }
  // The output type is the caller's statement (or the schema's); the validator checks the value.
  return wrapped as JsonSchema<never>
}

function draftOf(schema: JsonSchemaObject): SchemaDraft {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : ''
  if (/draft-0[67]/.test(declared)) return '7'
  if (declared.includes('draft-04')) return '4'
  if (declared.includes('2019-09')) return '2019-09'
  return '2020-12'
}

const UNION = /\/(?:anyOf|oneOf)$/

/**
 * The property an object-level error is about: a missing required one, one refused by
 * `additionalProperties: false`, one whose `false` subschema refused it. Read with string search, not
 * a regex: the name is the model's and may be long (`(.*)` twice traded it cubically).
 */
function namedProperty(message: string): string | undefined {
  const OPEN = 'Property "'
  if (message.startsWith(OPEN)) {
    const end = message.lastIndexOf('" does not match')
    if (end >= OPEN.length) return message.slice(OPEN.length, end)
  }
  const REQUIRED = 'required property "'
  const start = message.indexOf(REQUIRED)
  if (start >= 0 && message.length - 2 >= start + REQUIRED.length && message.endsWith('".')) return message.slice(start + REQUIRED.length, -2)
  return undefined
}

/**
 * The validator's output as Standard Schema issues, one per failure: the errors of an
 * applicator (`properties`, `items`, `$ref`) that only say "a part below failed" are left out, and
 * the branches of a union are folded into the union's one error.
 */
function toIssues(errors: OutputUnit[], value: unknown): SchemaIssue[] {
  const unions = errors.filter((error) => UNION.test(error.keywordLocation)).map((error) => `${error.keywordLocation}/`)
  // A `false` schema's error repeats the one of the keyword that applied it (`additionalProperties`).
  const kept = errors.filter((error) => error.keyword !== 'false' && !unions.some((union) => error.keywordLocation.startsWith(union)))
  const issues: SchemaIssue[] = []
  for (const error of kept) {
    if (kept.some((other) => other !== error && other.keywordLocation.startsWith(`${error.keywordLocation}/`))) continue
    const path = instancePath(error.instanceLocation, value)
    const named = namedProperty(error.error)
    if (named !== undefined) path.push(named)
    issues.push({ message: error.error, path })
  }
  return issues.length > 0 ? issues : [{ message: errors[0]?.error ?? 'Invalid input.' }]
}

/** `#/filters/0/max` → `['filters', 0, 'max']`, with a number for each array index. */
function instancePath(location: string, value: unknown): PropertyKey[] {
  const path: PropertyKey[] = []
  let current = value
  for (const raw of location.split('/').slice(1)) {
    let segment: string
    try {
      segment = decodeURI(raw).replaceAll('%23', '#').replaceAll('~1', '/').replaceAll('~0', '~')
    } catch {
      segment = raw
    }
    const key: PropertyKey = Array.isArray(current) ? Number(segment) : segment
    path.push(key)
    current = typeof current === 'object' && current !== null ? (current as Record<PropertyKey, unknown>)[key] : undefined
  }
  return path
}

// Whether a property's `default` fits that property's own schema, once per (cached, normalised) node.
const fits = new WeakMap<object, boolean>()

/**
 * A copy of a valid value with the `default` of every absent property filled in, all the way down;
 * a default its own property schema refuses (`"default": "false"` on a boolean, as real tool sets
 * declare) is left out, so `execute` never gets a value its schema says it cannot.
 */
function withDefaults(value: unknown, schema: unknown, draft: SchemaDraft, depth: number): unknown {
  if (typeof schema !== 'object' || schema === null || depth > 64) return value
  const node = schema as Record<string, unknown>
  if (Array.isArray(value)) return isPlainObject(node.items) ? value.map((item) => withDefaults(item, node.items, draft, depth + 1)) : value
  if (!isPlainObject(value) || !isPlainObject(node.properties)) return value
  const output: Record<string, unknown> = { ...value }
  for (const [key, child] of Object.entries(node.properties)) {
    if (Object.hasOwn(output, key)) setOwn(output, key, withDefaults(output[key], child, draft, depth + 1))
    else if (isPlainObject(child) && child.default !== undefined && fitsOwnSchema(child, draft)) setOwn(output, key, structuredClone(child.default))
  }
  return output
}

function fitsOwnSchema(child: Record<string, unknown>, draft: SchemaDraft): boolean {
  let verdict = fits.get(child)
  if (verdict === undefined) {
    try {
      verdict = new Validator(JSON.parse(JSON.stringify(child)), draft, false).validate(child.default).valid
    } catch {
      // A reference the property cannot resolve alone (a recursive `$ref`): the default stays, as before.
      verdict = true
    }
    fits.set(child, verdict)
  }
  return verdict
}
