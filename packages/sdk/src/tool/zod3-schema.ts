import { InvokeError } from '../errors/invoke-error'
import { isStandardSchema, type InferSchemaOutput, type StandardSchemaLike } from './schema'
import { zod3ToJsonSchema } from './zod3-to-json-schema'

/**
 * A zod 3 schema made into a tool input schema: zod 3's own Standard Schema validation, plus
 * Standard JSON Schema for what the model is sent.
 *
 * @example
 * ```ts
 * const schema: Zod3Schema<{ index: number }> = zod3Schema(z.object({ index: z.number().int() }))
 * ```
 */
export interface Zod3Schema<Output = unknown> extends StandardSchemaLike<Output> {
  readonly '~standard': StandardSchemaLike<Output>['~standard'] & {
    readonly jsonSchema: {
      readonly input: (options: { readonly target: string }) => Record<string, unknown>
    }
  }
  /** The zod 3 schema as it was given. */
  readonly schema: StandardSchemaLike<Output>
}

/**
 * Wraps a zod 3 schema (zod 3.25+, or `zod/v3` of the zod 4 package) as a tool input schema. zod 4
 * describes itself; zod 3 needs this converter, so in `@wildcall/sdk/core` it lives in its own entry
 * point and only the apps that use zod 3 download it (`@wildcall/sdk` carries it and also reads bare
 * zod 3 schemas). The model is sent the schema's input side (a defaulted field is optional;
 * transforms show what they accept), and arguments are validated by the zod 3 schema itself, so
 * `execute` gets its output (defaults applied, transforms run). In core, a bare zod 3 schema given to
 * `defineTool` is a `config_error` that points here.
 *
 * @example
 * ```ts
 * import { z } from 'zod' // zod 3
 * import { defineTool } from '@wildcall/sdk'
 * import { zod3Schema } from '@wildcall/sdk/zod3'
 *
 * const click = defineTool({
 *   description: 'Click the element with this index',
 *   inputSchema: zod3Schema(z.object({ index: z.number().int().min(0) })),
 *   execute: async ({ index }) => `clicked ${index}`,
 * })
 * ```
 */
export function zod3Schema<Schema extends StandardSchemaLike>(schema: Schema): Zod3Schema<InferSchemaOutput<Schema>> {
  if (!isStandardSchema(schema) || !('_def' in schema) || '_zod' in schema) {
    throw new InvokeError(
      'config_error',
      isStandardSchema(schema) && '_zod' in schema
        ? 'zod3Schema() got a zod 4 schema: pass it to defineTool as it is, without zod3Schema().'
        : 'zod3Schema() needs a zod 3.25+ schema, e.g. zod3Schema(z.object({ index: z.number() })).',
    )
  }
  const standard = schema['~standard']
  return {
    schema: schema as StandardSchemaLike<InferSchemaOutput<Schema>>,
    '~standard': {
      version: 1,
      vendor: 'zod',
      // zod 3's own validation: the same result and issues as the schema given.
      validate: (value) => standard.validate(value) as never,
      jsonSchema: { input: () => zod3ToJsonSchema(schema) },
    },
  }
}
