/**
 * A macro tool's input put into its `{ ...reflection, action: { name: input } }` shape, and what a
 * macro input looks like ({@link ACTION_KEY}, {@link movedActionKey}, labelled reflection). Used by
 * the resolve and shape stages; calls no stage.
 */
import type { MacroToolInfo, Tool } from '../tool/types'
import type { DroppedCall } from '../types'
import { setOwn } from '../util/set-own'
import { decodeJsonString, isPlainObject, pairsToObject, pushFix, type JsonSchemaNode } from './coerce'
import { matchName } from './match-tool-name'
import { fieldNames, safeJsonSchema } from './safe-json-schema'
import { discriminatorKeys, envelopeInput, envelopeName, flatInput, isEnvelope, unwrapArgumentLayers } from './unwrap'

/** Keys agents use for the action or a list of actions: `action`, `actions`, `action_sequence`, `next_action` … */
export const ACTION_KEY = /^(?:next_)?actions?(?:_sequence|_list)?$/

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
 * bare name (`bare-action-name`), as a `{name, arguments}` envelope, under a key of the model's own
 * (`moved-action`), with a bare value for a one-field action (`bare-value`), or with an action name
 * spelled loosely (`normalized-tool-name`). Extra actions are appended to `dropped`. Never picks an action the
 * model did not write, except the configured `fallbackAction` (`fallback-action`).
 */
export function shapeMacroInput(args: unknown, macro: MacroToolInfo, toolName: string, fixes: string[], dropped: DroppedCall[]): ShapeResult {
  const names = macro.actions
  let value = args
  if (typeof value === 'string') {
    const text = value.trim()
    if (matchName(text, names)) value = { action: text }
    else value = decodeJsonString(text, fixes) ?? value
  }
  value = takeFirst(value, fixes, dropped)
  if (!isPlainObject(value)) return { args: value }
  const keys = Object.keys(value)
  if (keys.length === 1 && keys[0] === toolName && isPlainObject(value[toolName])) {
    pushFix(fixes, 'unwrapped-envelope')
    value = value[toolName] as Record<string, unknown>
  }
  const shell: Record<string, unknown> = { ...(value as Record<string, unknown>) }
  liftNestedReflection(shell, macro.reflectionKeys, fixes)
  // The keys beside the action and the reflection, and a record of some of them taken out of the shell.
  const others = () => Object.keys(shell).filter((key) => key !== 'action' && !macro.reflectionKeys.includes(key))
  const take = (keys: string[]) => {
    const record: Record<string, unknown> = {}
    for (const key of keys) {
      setOwn(record, key, shell[key])
      delete shell[key]
    }
    return record
  }
  if (shell.action === undefined || shell.action === null || shell.action === '') {
    delete shell.action
    const listKey = others().find((key) => ACTION_KEY.test(key) && shell[key] != null)
    const actionKeys = others().filter((key) => matchName(key, names))
    const moved = listKey ?? (actionKeys.length > 0 ? undefined : movedActionKey(shell, macro))
    if (moved) {
      shell.action = take([moved])[moved]
      pushFix(fixes, listKey ? 'unwrapped-envelope' : 'moved-action')
    } else if (actionKeys.length > 0) {
      shell.action = take(actionKeys)
      pushFix(fixes, 'missing-reflection-shell')
    } else if (flattenedAction(shell, names)) {
      // `{"name": "click_element_by_index", "index": 3}` at the top: the action named inside itself.
      shell.action = take(others())
    } else if (macro.fallbackAction) {
      shell.action = { [macro.fallbackAction.name]: macro.fallbackAction.input }
      pushFix(fixes, 'fallback-action')
    } else {
      return { missingAction: true }
    }
  }
  const named = typeof shell.action === 'string' ? shell.action.trim() : ''
  const rest = others()
  if (matchName(named, names) && rest.length > 0) {
    // `{"action": "input_text", "index": 4, "text": "hi"}`: the action's fields sit beside its name.
    pushFix(fixes, 'flattened-action')
    shell.action = { [named]: take(rest) }
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

// A labelled line of prose: `Next goal: g`, `**Memory:** m`, `- Evaluation: ok`. The marks before
// the label come with their spaces in one optional group: two adjacent `[ \t]*` would split a long
// run of spaces in quadratically many ways. The label ends at a word character for the same reason:
// ending anywhere, each of its 40 lengths let `[ \t]*` re-read a long run of tabs after it.
const LABELLED_LINE = /^[ \t]*(?:[^\w\s]{1,3}[ \t]*)?([A-Za-z](?:[\w \t-]{0,39}?[\w-])??)[ \t]*[^\w\s:]{0,3}:[^\w\s]{0,3}[ \t]*(.+)/gm

/**
 * Reflection written as labelled prose before the call (`Memory: m\nNext goal: g\nAction: {…}`) goes
 * into the shell, never over reflection the input carries. A label is a reflection key once written
 * in snake case (`Next goal` → `next_goal`), or the first words of exactly one (`Evaluation` →
 * `evaluation_previous_goal`, while `Next step` is none).
 */
export function liftLabelledReflection(shell: Record<string, unknown>, text: string, reflectionKeys: readonly string[], fixes: string[]): void {
  for (const [, label, value] of text.matchAll(LABELLED_LINE)) {
    const words = label!.trim().toLowerCase().replace(/[\s-]+/g, '_')
    const keys = reflectionKeys.filter((key) => `${key}_`.startsWith(`${words}_`))
    const key = keys.includes(words) ? words : keys.length === 1 ? keys[0]! : undefined
    if (key === undefined || shell[key] !== undefined) continue
    shell[key] = value!.trim()
    pushFix(fixes, 'moved-reflection')
  }
}

/** The first element of a non-empty array (the rest dropped), or the value itself. */
function takeFirst(value: unknown, fixes: string[], dropped: DroppedCall[]): unknown {
  if (!Array.isArray(value) || value.length === 0) return value
  pushFix(fixes, 'unwrapped-array')
  for (const extra of value.slice(1)) dropped.push({ args: extra, reason: 'extra' })
  return value[0]
}

/**
 * The action a flat record names under a discriminator-shaped key (`name`, `type`, `action_type`,
 * `kind` …): only an exact action name counts, so `"type": "function"` never picks one.
 */
function flattenedAction(record: Record<string, unknown>, names: MacroToolInfo['actions']): string | undefined {
  return discriminatorKeys(record).find((key) => matchName(record[key] as string, names))
}

/** A record that names exactly one action by a key (reflection may sit beside it), or a list of such. */
function isActionShaped(value: unknown, macro: MacroToolInfo): boolean {
  if (Array.isArray(value)) return value.length > 0 && value.every((item) => isActionShaped(item, macro))
  if (!isPlainObject(value)) return false
  const keys = Object.keys(value).filter((key) => !macro.reflectionKeys.includes(key))
  return keys.length === 1 && matchName(keys[0]!, macro.actions) !== undefined
}

/**
 * `{"next_action": {"scroll": {…}}}`: with no `action`, the one key beside the reflection whose value
 * is an action (or a list of them) holds the action. Two such keys, or none, and nothing is guessed.
 */
export function movedActionKey(record: Record<string, unknown>, macro: MacroToolInfo): string | undefined {
  const keys = Object.keys(record).filter((key) => key !== 'action' && !macro.reflectionKeys.includes(key) && isActionShaped(record[key], macro))
  return keys.length === 1 ? keys[0] : undefined
}

function shapeAction(action: unknown, macro: MacroToolInfo, shell: Record<string, unknown>, fixes: string[], dropped: DroppedCall[]): unknown {
  const { actions } = macro
  let value = action
  for (let round = 0; round < 4; round++) {
    if (typeof value === 'string') {
      const text = value.trim()
      if (matchName(text, actions)) {
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
      value = takeFirst(value, fixes, dropped)
      continue
    }
    break
  }
  if (!isPlainObject(value)) return value
  const envelope = isEnvelope(value) ? envelopeName(value)!.trim() : ''
  const enveloped = matchName(envelope, actions)
  if (enveloped) {
    pushFix(fixes, 'unwrapped-envelope')
    value = { [envelope]: envelopeInput(value, fieldNames(safeJsonSchema(actions[enveloped]!))) ?? {} }
  }
  let record = value as Record<string, unknown>
  if (!Object.keys(record).some((key) => matchName(key, actions))) {
    const key = flattenedAction(record, actions)
    if (!key) return record
    const written = record[key] as string
    const named = matchName(written, actions)!
    // `{"type": "click_element_by_index", "index": 3}`: the fields beside the name are the input.
    const input: Record<string, unknown> = {}
    const namingKeys = new Set(discriminatorKeys(record).filter((other) => matchName(record[other] as string, actions) === named))
    for (const other of Object.keys(record)) if (!namingKeys.has(other)) setOwn(input, other, record[other])
    pushFix(fixes, 'flattened-action')
    record = { [written.trim()]: flatInput(input, fieldNames(safeJsonSchema(actions[named]!)), fixes) }
  }
  // Action keys as the model spelled them, each with the action it means (`Scroll`, `input-text`).
  const found: Array<[key: string, name: string]> = []
  for (const key of Object.keys(record)) {
    const name = matchName(key, actions)
    if (name) found.push([key, name])
    else if (macro.reflectionKeys.includes(key) && shell[key] === undefined) {
      shell[key] = record[key]
      pushFix(fixes, 'moved-reflection')
    } else {
      pushFix(fixes, 'dropped-unknown-keys')
    }
  }
  const [[key, name], ...rest] = found as [[string, string], ...Array<[string, string]>]
  if (key !== name) pushFix(fixes, 'normalized-tool-name')
  for (const [extra] of rest) dropped.push({ name: extra, args: record[extra], reason: 'extra' })
  return { [name]: shapeActionInput(actions[name]!, record[key], fixes) }
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
