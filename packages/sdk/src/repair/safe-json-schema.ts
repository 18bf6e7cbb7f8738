/**
 * A tool's input schema as JSON Schema, and its field names: how every stage reads a tool's schema.
 */
import { toToolJsonSchema } from '../tool/schema'
import type { Tool } from '../tool/types'
import type { JsonSchemaNode } from './coerce'

/** The JSON Schema of a tool, or `undefined` when it cannot be derived (then no coercion happens). */
export function safeJsonSchema(tool: Tool): JsonSchemaNode | undefined {
  try {
    return toToolJsonSchema(tool.inputSchema)
  } catch {
    return undefined
  }
}

/** The field names of an object schema. */
export function fieldNames(schema: JsonSchemaNode | undefined): Set<string> {
  const properties = schema?.properties
  return new Set(typeof properties === 'object' && properties !== null ? Object.keys(properties) : [])
}
