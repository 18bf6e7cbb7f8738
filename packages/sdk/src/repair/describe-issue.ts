/**
 * Failures worded for a person: a value previewed, a validation issue explained from the schema, the
 * tools or actions that exist, arguments that never close. The stages word their failures with these.
 */
import type { SchemaIssue } from '../tool/schema'
import type { Tool } from '../tool/types'
import { matchesSchemaType, schemaAtPath, type JsonSchemaNode } from './coerce'
import { safeJsonSchema } from './safe-json-schema'

/** A short, single-line rendering of a model-given value for an error message. */
export function previewValue(value: unknown, limit = 60): string {
  let text: string
  try {
    text = value === undefined ? 'nothing' : (JSON.stringify(value) ?? String(value))
  } catch {
    text = String(value)
  }
  text = text.replace(/\s+/g, ' ')
  return text.length > limit ? `${text.slice(0, limit)}…` : text
}

function pathKeys(issue: SchemaIssue): PropertyKey[] {
  return (issue.path ?? []).map((segment) => (typeof segment === 'object' && segment !== null ? segment.key : segment))
}

function valueAt(value: unknown, path: PropertyKey[]): unknown {
  let current = value
  for (const key of path) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) return undefined
    current = (current as Record<PropertyKey, unknown>)[key]
  }
  return current
}

function expected(node: JsonSchemaNode): string {
  if (Array.isArray(node.enum)) return `one of ${node.enum.map((option) => JSON.stringify(option)).join(', ')}`
  const type = Array.isArray(node.type) ? node.type.join(' or ') : typeof node.type === 'string' ? node.type : 'a valid value'
  const bounds: string[] = []
  if (typeof node.minimum === 'number') bounds.push(`≥ ${node.minimum}`)
  if (typeof node.maximum === 'number') bounds.push(`≤ ${node.maximum}`)
  return bounds.length > 0 ? `${type} ${bounds.join(' and ')}` : type
}

/** A value of the right type that the node's enum or numeric bounds still refuse. */
function outOfRange(value: unknown, node: JsonSchemaNode): boolean {
  if (Array.isArray(node.enum)) return !node.enum.includes(value)
  return typeof value === 'number' && ((typeof node.minimum === 'number' && value < node.minimum) || (typeof node.maximum === 'number' && value > node.maximum))
}

/** The names a macro tool accepts as actions, or the tools of a plain tool set. */
export function availableList(tool: Tool | undefined, tools: Record<string, unknown>): string {
  if (tool?.macro) return `Available actions: ${Object.keys(tool.macro.actions).join(', ')}.`
  return `Available tools: ${Object.keys(tools).join(', ')}.`
}

/**
 * A validation failure worded for a person: the path from the tool's name down to the field, what
 * was expected and what the model sent, then the actions (or tools) that exist, e.g.
 * `AgentOutput.action.click_element_by_index.index: expected integer ≥ 0, got "abc". Available actions: …`.
 */
export function describeIssue(toolName: string, tool: Tool, tools: Record<string, unknown>, args: unknown, issues: ReadonlyArray<SchemaIssue>): string {
  const issue = issues[0] ?? { message: 'invalid input' }
  const path = pathKeys(issue)
  let where = toolName
  for (const key of path) where += typeof key === 'number' ? `[${key}]` : `.${String(key)}`
  const node = schemaAtPath(safeJsonSchema(tool), path)
  const value = valueAt(args, path)
  let detail: string
  if (value === undefined && node) detail = `required ${expected(node)}, got nothing`
  // Worded from the schema, not the library's message, so every schema library reads the same.
  else if (node && (!matchesSchemaType(value, node) || outOfRange(value, node))) detail = `expected ${expected(node)}, got ${previewValue(value)}`
  else detail = `${issue.message.replace(/\.$/, '')} (got ${previewValue(value)})`
  return `${where}: ${detail}. ${availableList(tool, tools)}`
}

/** Arguments that end inside a value they never closed, in an answer the model ended itself. */
export function unclosedMessage(name: string | undefined): string {
  return `The arguments of ${name ? previewValue(name, 80) : 'the call'} end inside a value that is never closed, though the output was not cut off: malformed, not executed.`
}
