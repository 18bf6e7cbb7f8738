import { toToolJsonSchema } from '../tool/schema'
import type { MacroToolInfo, Tool } from '../types'
import { decodeJsonString, isPlainObject, pairsToObject, pushFix, type JsonSchemaNode } from './coerce'
import { discriminatorKeys, envelopeInput, envelopeName, isEnvelope, unwrapArgumentLayers } from './unwrap'

/**
 * A call found in a response that was not taken as the step.
 *
 * @example
 * ```ts
 * const { toolCall, dropped } = await client.invoke(messages, tools)
 * for (const call of dropped) console.debug(`not taken: ${call.name ?? '(unnamed)'}: ${call.reason}`)
 * ```
 */
export interface DroppedCall {
  /** The tool or action it named, when it named one. */
  name?: string
  args: unknown
  /** Why it was not taken: `"extra"` after the chosen call, or the validation error that ruled it out. */
  reason: string
}

/** Keys agents use for a list of actions instead of `action`. */
const ACTION_LIST_KEYS = ['actions', 'action_sequence', 'action_list', 'next_action', 'next_actions'] as const

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

/** The field a bare value belongs to: the one required field, or the only field. */
function singleField(schema: JsonSchemaNode | undefined): string | undefined {
  if (!schema) return undefined
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : []
  if (required.length === 1) return required[0]
  const names = [...fieldNames(schema)]
  return required.length === 0 && names.length === 1 ? names[0] : undefined
}

export type ShapeResult = { args: unknown } | { missingAction: true }

/**
 * Puts a macro tool's arguments into the `{ ...reflection, action: { name: input } }` shape, fixing
 * what models do to it: the action level without the reflection shell (`missing-reflection-shell`),
 * `actions`/`action_sequence` lists, the action as a one-element array (`unwrapped-array`), as a
 * bare name (`bare-action-name`), as a `{name, arguments}` envelope, or with a bare value for a
 * one-field action (`bare-value`). Extra actions are appended to `dropped`. Never picks an action the
 * model did not write, except the configured `fallbackAction` (`fallback-action`).
 */
export function shapeMacroInput(args: unknown, macro: MacroToolInfo, toolName: string, fixes: string[], dropped: DroppedCall[]): ShapeResult {
  const { actions } = macro
  let value = args
  if (typeof value === 'string') {
    const text = value.trim()
    if (Object.hasOwn(actions, text)) value = { action: text }
    else value = decodeJsonString(text, fixes) ?? value
  }
  value = takeFirst(value, fixes, dropped, undefined)
  if (!isPlainObject(value)) return { args: value }
  const keys = Object.keys(value)
  if (keys.length === 1 && keys[0] === toolName && isPlainObject(value[toolName])) {
    pushFix(fixes, 'unwrapped-envelope')
    value = value[toolName] as Record<string, unknown>
  }
  const shell: Record<string, unknown> = { ...(value as Record<string, unknown>) }
  liftNestedReflection(shell, macro.reflectionKeys, fixes)
  if (shell.action === undefined || shell.action === null || shell.action === '') {
    delete shell.action
    const listKey = ACTION_LIST_KEYS.find((key) => Object.hasOwn(shell, key) && shell[key] !== null && shell[key] !== undefined)
    const actionKeys = Object.keys(shell).filter((key) => Object.hasOwn(actions, key))
    if (listKey) {
      shell.action = shell[listKey]
      delete shell[listKey]
      pushFix(fixes, 'unwrapped-envelope')
    } else if (actionKeys.length > 0) {
      const action: Record<string, unknown> = {}
      for (const key of actionKeys) {
        action[key] = shell[key]
        delete shell[key]
      }
      shell.action = action
      pushFix(fixes, 'missing-reflection-shell')
    } else if (flattenedAction(shell, actions)) {
      // `{"name": "click_element_by_index", "index": 3}` at the top: the action named inside itself.
      const action: Record<string, unknown> = {}
      for (const key of Object.keys(shell)) {
        if (macro.reflectionKeys.includes(key)) continue
        action[key] = shell[key]
        delete shell[key]
      }
      shell.action = action
    } else if (macro.fallbackAction) {
      shell.action = { [macro.fallbackAction.name]: macro.fallbackAction.input }
      pushFix(fixes, 'fallback-action')
    } else {
      return { missingAction: true }
    }
  }
  const named = typeof shell.action === 'string' ? shell.action.trim() : ''
  if (Object.hasOwn(actions, named)) {
    // `{"action": "input_text", "index": 4, "text": "hi"}`: the action's fields sit beside its name.
    const input: Record<string, unknown> = {}
    for (const key of Object.keys(shell)) {
      if (key === 'action' || macro.reflectionKeys.includes(key)) continue
      input[key] = shell[key]
      delete shell[key]
    }
    if (Object.keys(input).length > 0) {
      pushFix(fixes, 'flattened-action')
      shell.action = { [named]: input }
    }
  }
  shell.action = shapeAction(shell.action, macro, shell, fixes, dropped)
  return { args: shell }
}

/**
 * `{"current_state": {"evaluation_previous_goal": …, "memory": …}, "action": …}`: reflection fields
 * grouped under a key of the model's own are moved up into the shell (whatever that key is called).
 */
function liftNestedReflection(shell: Record<string, unknown>, reflectionKeys: readonly string[], fixes: string[]): void {
  if (reflectionKeys.length === 0) return
  for (const key of Object.keys(shell)) {
    const inner = shell[key]
    if (key === 'action' || reflectionKeys.includes(key) || !isPlainObject(inner)) continue
    const innerKeys = Object.keys(inner)
    if (innerKeys.length === 0 || !innerKeys.every((innerKey) => reflectionKeys.includes(innerKey))) continue
    for (const innerKey of innerKeys) if (shell[innerKey] === undefined) shell[innerKey] = inner[innerKey]
    delete shell[key]
    pushFix(fixes, 'moved-reflection')
  }
}

/** The first element of a non-empty array (the rest dropped), or the value itself. */
function takeFirst(value: unknown, fixes: string[], dropped: DroppedCall[], name: string | undefined): unknown {
  if (!Array.isArray(value) || value.length === 0) return value
  pushFix(fixes, 'unwrapped-array')
  for (const extra of value.slice(1)) dropped.push({ ...(name ? { name } : {}), args: extra, reason: 'extra' })
  return value[0]
}

/**
 * The action a flat record names under a discriminator-shaped key (`name`, `type`, `action_type`,
 * `kind` …): only an exact action name counts, so `"type": "function"` never picks one.
 */
function flattenedAction(record: Record<string, unknown>, actions: Readonly<Record<string, Tool>>): { key: string; name: string } | undefined {
  for (const key of discriminatorKeys(record)) {
    const name = (record[key] as string).trim()
    if (Object.hasOwn(actions, name)) return { key, name }
  }
  return undefined
}

function shapeAction(action: unknown, macro: MacroToolInfo, shell: Record<string, unknown>, fixes: string[], dropped: DroppedCall[]): unknown {
  const { actions } = macro
  let value = action
  for (let round = 0; round < 4; round++) {
    if (typeof value === 'string') {
      const text = value.trim()
      if (Object.hasOwn(actions, text)) {
        pushFix(fixes, 'bare-action-name')
        value = { [text]: {} }
        break
      }
      const decoded = decodeJsonString(text, fixes)
      if (decoded === undefined) return value
      value = decoded
      continue
    }
    if (Array.isArray(value)) {
      if (value.length === 0) return value
      value = takeFirst(value, fixes, dropped, undefined)
      continue
    }
    break
  }
  if (!isPlainObject(value)) return value
  const envelope = isEnvelope(value) ? envelopeName(value)?.trim() : undefined
  if (envelope !== undefined && Object.hasOwn(actions, envelope)) {
    const name = envelope
    pushFix(fixes, 'unwrapped-envelope')
    value = { [name]: envelopeInput(value, fieldNames(safeJsonSchema(actions[name]!))) ?? {} }
  }
  let record = value as Record<string, unknown>
  let actionKeys = Object.keys(record).filter((key) => Object.hasOwn(actions, key))
  if (actionKeys.length === 0) {
    const flattened = flattenedAction(record, actions)
    if (!flattened) return record
    const named = flattened.name
    // `{"type": "click_element_by_index", "index": 3}`: the fields beside the name are the input.
    const input: Record<string, unknown> = {}
    const namingKeys = new Set(discriminatorKeys(record).filter((key) => (record[key] as string).trim() === named))
    for (const key of Object.keys(record)) if (!namingKeys.has(key)) input[key] = record[key]
    pushFix(fixes, 'flattened-action')
    record = { [named]: input }
    actionKeys = [named]
  }
  for (const key of Object.keys(record)) {
    if (Object.hasOwn(actions, key)) continue
    if (macro.reflectionKeys.includes(key) && shell[key] === undefined) {
      shell[key] = record[key]
      pushFix(fixes, 'moved-reflection')
    } else {
      pushFix(fixes, 'dropped-unknown-keys')
    }
  }
  const [first, ...rest] = actionKeys
  for (const extra of rest) dropped.push({ name: extra, args: record[extra], reason: 'extra' })
  return { [first!]: shapeActionInput(actions[first!]!, record[first!], fixes) }
}

/** Fixes one action's input: JSON text, empty values, name/value pairs, a one-element array, a bare value. */
export function shapeActionInput(tool: Tool, input: unknown, fixes: string[]): unknown {
  const schema = safeJsonSchema(tool)
  let value = input
  if (typeof value === 'string') {
    const text = value.trim()
    const required = Array.isArray(schema?.required) ? schema.required.length : 0
    // `""` means "no input" for an action without required fields, and the value itself otherwise.
    if (text === 'null' || (text === '' && required === 0)) value = undefined
    else if (text !== '') {
      // Only an encoded object or array is taken as encoding; `"[draft]"` for a text field stays text.
      const trial: string[] = []
      const decoded = decodeJsonString(text, trial)
      if (isPlainObject(decoded) || Array.isArray(decoded)) {
        for (const code of trial) pushFix(fixes, code)
        value = decoded
      }
    }
  }
  if (value === undefined || value === null) {
    pushFix(fixes, 'empty-arguments')
    return {}
  }
  // `[{"name": "index", "value": 3}, …]`: pairs, read before a one-element list is taken for the object.
  const pairs = pairsToObject(value, fieldNames(schema))
  if (pairs) {
    pushFix(fixes, 'argument-pairs')
    value = pairs
  }
  if (Array.isArray(value) && value.length === 1 && isPlainObject(value[0])) {
    pushFix(fixes, 'unwrapped-array')
    value = value[0]
  }
  if (isPlainObject(value)) return unwrapArgumentLayers(value, fieldNames(schema), fixes)
  const field = singleField(schema)
  if (field === undefined) return value
  pushFix(fixes, 'bare-value')
  return { [field]: value }
}
