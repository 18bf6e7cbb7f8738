/**
 * What a call envelope looks like and how one opens: `{name, arguments}` and the other spellings,
 * wrappers (`{"tool_calls": [...]}`, `{"function": {...}}`), argument layers, and a dropped call
 * reported with its envelope opened. Pure functions of a value, used by every stage that meets an
 * envelope; the unwrap stage that applies them to candidates is `unwrap-call`.
 */
import type { DroppedCall } from '../types'
import { PAIR_VALUE_KEY, isPlainObject, pushFix } from './coerce'
import { setOwn } from '../util/set-own'

/** A call as found in a response, before its tool is known: a name (maybe) and raw arguments. */
export interface RawCall {
  name?: string
  args: unknown
  id?: string
  fixes: string[]
  /**
   * The name written right before nameless JSON, in a call's position (`web_search{…}`,
   * `web_search({…})`, `web_search` alone on the line above): the call's name when the JSON names
   * none, known or not.
   */
  calledName?: string
  /** Another reading of the same text, tried only when this one does not resolve (a name hint). */
  alternate?: RawCall
  /**
   * Set when `args` was the one object beside the name, taken by its role (`{"name": "scroll",
   * "kwargs": {…}}`): that key, and the record without its name. A tool with a field of that name
   * takes the record itself (`{"name": "move", "position": {…}}` is `move({position})`).
   */
  byRole?: { key: string; record: Record<string, unknown> }
  /** The text before the call (labelled reflection may sit there: `Memory: …`). */
  before?: string
  /** Read from text found where arguments or an action were due: not read as text again. */
  inner?: boolean
  /** Arguments no reading takes (`ExtractedCall.unreadable`): a failed call, reported in `dropped`. */
  unreadable?: boolean
}

// Envelope keys are recognised by their shape, not from a list, so wrappers nobody listed still
// unwrap: `name`, `tool_name`, `function_name`, `recipient_name`, `toolName`, `function`, `tool`,
// `command`, `method`, `action` name the call; `arguments`, `args`, `parameters`, `params`, `input`,
// `inputs`, `action_input`, `tool_input`, `function_arguments` carry it — and so does any other key
// holding the one object beside the name (`kwargs`, `tool_args` …).
const NAME_KEY = /^(?:(?:tool|function|command|action|recipient|method|call)_?)?name$|^(?:tool|function|command|action|method)$/i
const ARGUMENT_KEY = /^(?:(?:tool|function|action|call)_?)?(?:arguments|args|parameters|params|inputs?)$/i
const ID_KEY = /^(?:type|index|id|call_?id|tool_?call_?id)$/i
// Any key that names an id (`toolUseId`, `tool_use_id`, `callID`). Beside arguments under an argument
// key it is the call's id; without them it may be an argument (`{"name": "get_order", "order_id": "A1"}`).
const ID_LIKE_KEY = /^(?:id|ID|Id)$|_(?:id|ID|Id)$|[a-z]I[dD]$/
// Keys that also name ordinary fields (`{"command": "ls", "args": ["-la"]}`): they name a call only
// beside an argument object.
const WEAK_NAME_KEY = /^(?:action|command|method)$/i
// Keys under which a flat record names its own kind (`{"type": "input_text", "index": 3}`): `type`,
// `kind`, `name` with any prefix (`action_type`, `actionType`, `tool_name`), or a name-shaped key.
const DISCRIMINATOR_KEY = /^(?:[a-z]+_?)?(?:type|kind|name)$|^(?:action|tool|function|command|method|operation|op)$/i

const isScalar = (value: unknown) => typeof value === 'string' || typeof value === 'number' || value === null

/** An id entry: `type`, `index`, `id`, `call_id`, `tool_call_id` holding a scalar (an object under `type` is no id). */
function isIdEntry(key: string, value: unknown): boolean {
  return ID_KEY.test(key) && isScalar(value)
}

/**
 * The tool an envelope names: `name` first, else another name-shaped key holding a string.
 * `action`, `command` and `method` count only beside an argument object (`action` alone is a macro input).
 */
export function envelopeName(record: Record<string, unknown>): string | undefined {
  const key = envelopeNameKey(record)
  return key === undefined ? undefined : (record[key] as string)
}

function envelopeNameKey(record: Record<string, unknown>): string | undefined {
  if (typeof record.name === 'string') return 'name'
  for (const key of Object.keys(record)) {
    if (typeof record[key] !== 'string' || !NAME_KEY.test(key)) continue
    if (WEAK_NAME_KEY.test(key) && !isPlainObject(argumentValue(record))) continue
    return key
  }
  return undefined
}

/**
 * The input an envelope spells for an action or tool with these fields: what its argument key holds,
 * or — when that key was recognised only by its role and is one of the fields — the record without
 * its name (`{"name": "move", "position": {…}}` is `move({position})`, not `move({x, y})`).
 */
export function envelopeInput(record: Record<string, unknown>, fields: ReadonlySet<string>): unknown {
  const key = argumentKey(record)
  if (key === undefined || ARGUMENT_KEY.test(key) || !fields.has(key)) return key === undefined ? undefined : record[key]
  return withoutName(record)
}

function withoutName(record: Record<string, unknown>): Record<string, unknown> {
  const nameKey = envelopeNameKey(record)
  const rest: Record<string, unknown> = {}
  for (const key of Object.keys(record)) if (key !== nameKey) setOwn(rest, key, record[key])
  return rest
}

/** The id an envelope carries: `id`, else another id-shaped key (`call_id`, `toolUseId` …), if any. */
function envelopeId(record: Record<string, unknown>): string | undefined {
  if (typeof record.id === 'string' && record.id) return record.id
  for (const key of Object.keys(record)) {
    const value = record[key]
    if (typeof value === 'string' && value && key !== 'type' && key !== 'index' && (ID_KEY.test(key) || ID_LIKE_KEY.test(key))) return value
  }
  return undefined
}
const MAX_UNWRAP = 8

/**
 * The key that carries an envelope's arguments: an argument-shaped key, else — by its role — the one
 * object beside the name and ids (`{"name": "scroll", "kwargs": {…}}`).
 */
function argumentKey(record: Record<string, unknown>): string | undefined {
  const keys = Object.keys(record)
  for (const key of keys) if (ARGUMENT_KEY.test(key)) return key
  let container: string | undefined
  for (const key of keys) {
    const value = record[key]
    if ((NAME_KEY.test(key) && typeof value === 'string') || isIdEntry(key, value)) continue
    // The value half of a name/value pair (`value`, `arg_value`) is never an argument container.
    if (container !== undefined || !isPlainObject(value) || PAIR_VALUE_KEY.test(key)) return undefined
    container = key
  }
  return container
}

/** The value under an envelope's argument key (`arguments`, `args`, `parameters`, `input` …), if any. */
export function argumentValue(record: Record<string, unknown>): unknown {
  const key = argumentKey(record)
  return key === undefined ? undefined : record[key]
}

/**
 * The keys under which a flat record may name its own kind (`type`, `action_type`, `kind`, `name`,
 * `tool` …) and that hold a string. The caller decides whether that string names a known action:
 * nothing here invents one.
 */
export function discriminatorKeys(record: Record<string, unknown>): string[] {
  return Object.keys(record).filter((key) => typeof record[key] === 'string' && DISCRIMINATOR_KEY.test(key))
}

/** A non-empty list whose every item is a call envelope. */
export function isCallList(value: unknown): value is unknown[] {
  return Array.isArray(value) && value.length > 0 && value.every(isEnvelope)
}

// Wrapper keys that hold a call whatever its shape (even a list, even without arguments).
const WRAPPER_KEY = /^(?:function|tool_call|function_call|functionCall)$/

/**
 * The key of what a wrapper holds: its one key beside ids — a list of calls under any name, one call
 * under any name (`{"toolUse": {…}}`), `{"function": …}`, `{"tool_calls": […]}` — or a list of calls
 * beside prose (`{"tool_plan": "I will …", "tool_calls": […]}`).
 */
function wrappedKey(record: Record<string, unknown>): string | undefined {
  const keys = Object.keys(record).filter((key) => !isIdEntry(key, record[key]))
  if (keys.length === 1) {
    const key = keys[0]!
    const inner = record[key]
    if (key === 'tool_calls') return Array.isArray(inner) ? key : undefined
    if (isCallList(inner)) return key
    if (WRAPPER_KEY.test(key)) return isPlainObject(inner) || Array.isArray(inner) ? key : undefined
    // One call under a key of any name: only a full envelope (a name AND its arguments) counts.
    return isPlainObject(inner) && argumentKey(inner) !== undefined && isEnvelope(inner) ? key : undefined
  }
  let list: string | undefined
  for (const key of keys) {
    if (typeof record[key] === 'string') continue
    if (list !== undefined || !isCallList(record[key])) return undefined
    list = key
  }
  return list
}

/**
 * Whether `value` is a call envelope: `{ name | tool_name, arguments | parameters | args | input }` (nothing
 * else but ids and a type beside them), `{ type: 'function', function: {…} }`, `{ function: {…} }`,
 * `{ tool_call: {…} }`, `{ toolUse: {…} }` (any key holding one call), `{ tool_calls: [...] }`, or a
 * list of calls beside prose.
 */
export function isEnvelope(value: unknown): value is Record<string, unknown> {
  if (!isPlainObject(value)) return false
  if (envelopeName(value) !== undefined) {
    const argument = argumentKey(value)
    // `{"toolUseId": "x", "name": "scroll", "input": {…}}`: an id of any spelling beside listed arguments.
    const listed = argument !== undefined && ARGUMENT_KEY.test(argument)
    const keys = Object.keys(value)
    return (
      keys.every((key) => key === argument || NAME_KEY.test(key) || ARGUMENT_KEY.test(key) || isIdEntry(key, value[key]) || (listed && ID_LIKE_KEY.test(key) && isScalar(value[key]))) &&
      (argument !== undefined || keys.length <= 3)
    )
  }
  return wrappedKey(value) !== undefined
}

/**
 * Expands envelopes into calls: `{"tool_calls": [a, b]}` becomes two calls, `{"type": "function",
 * "function": {"name": "x", "arguments": …}}` one call named `x`. Anything else comes back as the
 * one call it already is. Records `unwrapped-envelope` when a wrapper was removed.
 */
export function unwrapEnvelope(call: RawCall, depth = 0): RawCall[] {
  const { args } = call
  if (depth >= MAX_UNWRAP) return [call]
  if (isCallList(args)) {
    return args.flatMap((item) => unwrapEnvelope({ ...call, args: item, fixes: [...call.fixes] }, depth + 1))
  }
  if (!isEnvelope(args)) return [call]
  const fixes = [...call.fixes]
  const name = envelopeName(args)
  if (name !== undefined) {
    const key = argumentKey(args)
    pushFix(fixes, 'unwrapped-envelope')
    const id = envelopeId(args) ?? call.id
    const byRole = key !== undefined && !ARGUMENT_KEY.test(key) ? { key, record: withoutName(args) } : undefined
    // The envelope's own name names the call; what its argument key holds is the arguments, even when
    // they look like an envelope (`{"name": "get_age", "arguments": {"name": "John"}}`). Whether such
    // arguments are another layer is decided against the tool's fields (`resolveCall`), not here.
    // The text before the envelope stays with the call it opens (`textBefore`, a labelled reflection).
    return [{ name, args: key ? args[key] : undefined, fixes, id: id || undefined, byRole, before: call.before }]
  }
  const key = wrappedKey(args)!
  pushFix(fixes, 'unwrapped-envelope')
  const inner = args[key]
  if (Array.isArray(inner)) return inner.flatMap((item) => unwrapEnvelope({ ...call, args: item, fixes: [...fixes] }, depth + 1))
  return unwrapEnvelope({ ...call, args: inner, fixes }, depth + 1)
}

/**
 * Removes redundant `{"arguments": {…}}` layers (or `parameters`/`args`/`input`), even nested, when
 * the layer is the only key and the tool has no field of that name. A layer under any other key
 * (`{"kwargs": {…}}`) goes too when everything inside it is the tool's fields.
 */
export function unwrapArgumentLayers(args: unknown, fieldNames: ReadonlySet<string>, fixes: string[]): unknown {
  let current = args
  for (let round = 0; round < MAX_UNWRAP && isPlainObject(current); round++) {
    const keys = Object.keys(current)
    if (keys.length !== 1) break
    const key = keys[0]!
    if (fieldNames.has(key)) break
    const inner = current[key]
    if (!ARGUMENT_KEY.test(key) && !(isPlainObject(inner) && isFieldsOnly(inner, fieldNames))) break
    if (!isPlainObject(inner) && typeof inner !== 'string') break
    pushFix(fixes, 'unwrapped-envelope')
    current = inner
  }
  return current
}

/**
 * The input of a flat record once its name is taken out: the record, unless none of its keys is a
 * field and exactly one object in it holds nothing but fields — then that object, as the envelope
 * reading takes it (`{"jsonrpc": "2.0", "id": 1, "method": "scroll", "params": {"down": true}}`).
 */
export function flatInput(record: Record<string, unknown>, fieldNames: ReadonlySet<string>, fixes: string[]): Record<string, unknown> {
  const keys = Object.keys(record)
  const inner = keys.filter((key) => isPlainObject(record[key]) && isFieldsOnly(record[key] as Record<string, unknown>, fieldNames))
  if (inner.length !== 1 || keys.some((key) => fieldNames.has(key))) return record
  pushFix(fixes, 'unwrapped-envelope')
  return record[inner[0]!] as Record<string, unknown>
}

/** A non-empty record whose every key is one of `fieldNames`. */
export function isFieldsOnly(record: Record<string, unknown>, fieldNames: ReadonlySet<string>): boolean {
  const keys = Object.keys(record)
  return keys.length > 0 && keys.every((key) => fieldNames.has(key))
}

/**
 * A call that was not taken, as `dropped` reports it: its name and arguments, with an envelope the
 * reader left whole (`<tool_call>{"name", "arguments"}` blocks, LongCat, Granite lists) opened, so
 * `args` is never the raw envelope.
 */
export function droppedOf(raw: RawCall, reason: string): DroppedCall[] {
  if (raw.name) return [{ name: raw.name, args: raw.args, reason }]
  // Anything but an envelope comes back as the one nameless call it is.
  const calls = unwrapEnvelope({ args: raw.args, fixes: [] })
  if (calls.length > 0 && calls.every((call) => call.name !== undefined)) return calls.map((call) => ({ name: call.name!, args: call.args ?? {}, reason }))
  return [{ ...(raw.calledName ? { name: raw.calledName } : {}), args: raw.args, reason }]
}
