import { InvokeError } from '../errors/invoke-error'
import type { Tool, ToolExecuteContext } from './types'
import { assertObjectSchema } from './check-tool-definition'
import { isStandardSchema, toToolJsonSchema, type InferSchemaOutput, type StandardSchemaLike } from './schema'

/**
 * Declares a tool: a description, an input schema (zod 4, a Standard JSON Schema such as ArkType,
 * `jsonSchema()` or, for zod 3 in `@wildcall/sdk/core`, `zod3Schema()`) and an optional `execute`. Returns the same
 * object, typed, after checking its shape; an input schema that is not an object at the top level
 * (which the OpenAI API refuses) is a `config_error`.
 *
 * @example
 * ```ts
 * const click = defineTool({
 *   description: 'Click the element with this index',
 *   inputSchema: z.object({ index: z.number().int() }),
 *   execute: async ({ index }) => `clicked ${index}`,
 * })
 * ```
 */
export function defineTool<Schema extends StandardSchemaLike, Output = unknown>(tool: {
  description?: string
  inputSchema: Schema
  execute?: (input: InferSchemaOutput<Schema>, context: ToolExecuteContext) => Output | Promise<Output>
  /** Safe to run again (no side effects): a throw retries the whole step instead of ending it. Default `false`. */
  retryOnError?: boolean
  /** The tool message's content for an output; default: a string as is, anything else as JSON. */
  toModelOutput?: (output: Awaited<Output>) => string
}): Tool<InferSchemaOutput<Schema>, Awaited<Output>> {
  assertTool(tool, 'defineTool')
  assertObjectSchema(toToolJsonSchema(tool.inputSchema), 'defineTool')
  return tool as Tool<InferSchemaOutput<Schema>, Awaited<Output>>
}

// The optional fields of a Tool, in the order they are checked: the type each must have, in words.
const OPTIONAL_FIELDS = [
  ['execute', 'function', 'a function'],
  ['retryOnError', 'boolean', 'true or false'],
  ['toModelOutput', 'function', 'a function'],
  ['description', 'string', 'a string'],
] as const

/** Throws `config_error` unless `tool` looks like a Tool. */
export function assertTool(tool: unknown, name: string): asserts tool is Tool {
  if (typeof tool !== 'object' || tool === null) {
    throw new InvokeError('config_error', `Tool "${name}" is not an object. Create it with defineTool({ description, inputSchema, execute }).`)
  }
  if (!isStandardSchema((tool as Partial<Tool>).inputSchema)) {
    throw new InvokeError('config_error', `Tool "${name}" needs an inputSchema: a zod schema (z.object({ index: z.number() })), a Standard JSON Schema (ArkType, valibot's toStandardJsonSchema) or jsonSchema({ type: 'object', … }) from "@wildcall/sdk/json-schema".`)
  }
  for (const [field, type, what] of OPTIONAL_FIELDS) {
    const value = (tool as Record<string, unknown>)[field]
    if (value !== undefined && typeof value !== type) throw new InvokeError('config_error', `Tool "${name}": ${field} must be ${what}.`)
  }
}
