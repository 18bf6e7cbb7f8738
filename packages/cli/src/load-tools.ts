import { createMacroTool, defineTool, type Tool, type ToolSet } from '@wildcall/sdk'
import { z } from 'zod'
import { UsageError } from './cli-io'

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Reads a tool set from the JSON a user already has at hand when filing a bug:
 * - an OpenAI `tools` array (`[{ type: 'function', function: { name, description, parameters } }]`),
 * - a whole request body holding one (`rawRequest`, or `request` of `wildcall doctor --json`),
 * - or a map `{ name: { description?, parameters } }`.
 * Parameters are JSON Schema. A macro tool's schema (an `action` object of one-of-N actions) is
 * unpacked back into a macro tool, so the repair layer knows its actions and reflection fields.
 */
export function loadTools(json: unknown, source: string): ToolSet {
  const entries = toolEntries(json, source)
  if (entries.length === 0) throw new UsageError(`repair: ${source} holds no tools.`)
  const tools: ToolSet = {}
  for (const { name, description, parameters } of entries) {
    tools[name] = toTool(name, description, parameters, source)
  }
  return tools
}

interface ToolEntry {
  name: string
  description?: string
  parameters: unknown
}

function toolEntries(json: unknown, source: string): ToolEntry[] {
  const list = isObject(json) && Array.isArray(json.tools) ? json.tools : json
  if (Array.isArray(list)) {
    return list.map((item, index) => {
      const fn = isObject(item) && isObject(item.function) ? item.function : item
      if (!isObject(fn) || typeof fn.name !== 'string') throw new UsageError(`repair: tools[${index}] in ${source} has no function name.`)
      return { name: fn.name, ...(typeof fn.description === 'string' ? { description: fn.description } : {}), parameters: fn.parameters ?? { type: 'object', properties: {} } }
    })
  }
  if (isObject(list)) {
    return Object.entries(list).map(([name, value]) => {
      if (!isObject(value)) throw new UsageError(`repair: tool "${name}" in ${source} must be an object { description?, parameters }.`)
      return { name, ...(typeof value.description === 'string' ? { description: value.description } : {}), parameters: value.parameters ?? { type: 'object', properties: {} } }
    })
  }
  throw new UsageError(`repair: ${source} must hold an OpenAI "tools" array, a request body with "tools", or a map { name: { description, parameters } }.`)
}

function fromJsonSchema(schema: unknown, where: string) {
  try {
    return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0])
  } catch (error) {
    throw new UsageError(`repair: the JSON Schema of ${where} cannot be read: ${error instanceof Error ? error.message : String(error)}`)
  }
}

function toTool(name: string, description: string | undefined, parameters: unknown, source: string): Tool {
  const action = isObject(parameters) && isObject(parameters.properties) ? parameters.properties.action : undefined
  // The shape createMacroTool sends: `action` is one object whose properties are the actions, one at a time.
  if (isObject(action) && isObject(action.properties) && action.maxProperties === 1 && isObject(parameters) && isObject(parameters.properties)) {
    const actions: ToolSet = {}
    for (const [actionName, actionSchema] of Object.entries(action.properties)) {
      const actionDescription = isObject(actionSchema) && typeof actionSchema.description === 'string' ? actionSchema.description : undefined
      actions[actionName] = defineTool({ ...(actionDescription ? { description: actionDescription } : {}), inputSchema: fromJsonSchema(actionSchema, `action "${actionName}" of ${name} in ${source}`) })
    }
    const { action: _action, ...reflectionProperties } = parameters.properties
    const required = Array.isArray(parameters.required) ? parameters.required.filter((key) => key !== 'action') : []
    const reflection = Object.keys(reflectionProperties).length === 0 ? false : fromJsonSchema({ type: 'object', properties: reflectionProperties, required }, `the reflection of ${name} in ${source}`)
    return createMacroTool(actions, { reflection, ...(description ? { description } : {}) })
  }
  return defineTool({ ...(description ? { description } : {}), inputSchema: fromJsonSchema(parameters, `tool "${name}" in ${source}`) })
}
