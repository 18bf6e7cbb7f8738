import { toToolJsonSchema } from '../tool/schema'
import type { Tool } from '../tool/types'

/** What the action property says when no description is given. */
export const DEFAULT_ACTION_DESCRIPTION = 'Exactly one action'

/**
 * The JSON Schema of a macro tool, built by hand from the packed tools' own schemas.
 *
 * The model pays for this schema on every step, so it is shaped for size: the action is ONE object
 * whose properties are the actions (with `minProperties`/`maxProperties` 1) instead of a union of
 * one-key wrapper objects, each action carries its tool's description, defaulted fields stay
 * optional (input side), and the safe-integer bounds zod adds are already gone.
 */
export function buildMacroJsonSchema(
  actions: Readonly<Record<string, Tool>>,
  reflection: Record<string, unknown> | undefined,
  actionDescription: string,
): Record<string, unknown> {
  const properties: Record<string, unknown> = {}
  const required: string[] = []
  if (reflection) {
    const reflectionProperties = reflection.properties
    if (typeof reflectionProperties === 'object' && reflectionProperties !== null) Object.assign(properties, reflectionProperties)
    if (Array.isArray(reflection.required)) required.push(...(reflection.required as string[]))
  }
  const actionProperties: Record<string, unknown> = {}
  for (const name of Object.keys(actions)) {
    const tool = actions[name]!
    const schema = toToolJsonSchema(tool.inputSchema)
    if (tool.description) {
      // The description first: the model reads what an action is for before its fields.
      const { description: _ignored, ...rest } = schema
      actionProperties[name] = { description: tool.description, ...rest }
    } else {
      actionProperties[name] = schema
    }
  }
  properties.action = {
    type: 'object',
    description: actionDescription,
    properties: actionProperties,
    minProperties: 1,
    maxProperties: 1,
    additionalProperties: false,
  }
  required.push('action')
  return { type: 'object', properties, required }
}
