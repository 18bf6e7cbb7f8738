import { isPlainObject, pushFix } from './coerce'

/** A call as found in a response, before its tool is known: a name (maybe) and raw arguments. */
export interface RawCall {
  name?: string
  args: unknown
  id?: string
  fixes: string[]
  /** Another reading of the same text, tried only when this one does not resolve (a name hint). */
  alternate?: RawCall
}

// Envelope keys are recognised by their shape, not from a list, so wrappers nobody listed still
// unwrap: `name`, `tool_name`, `function_name`, `recipient_name`, `toolName`, `function`, `tool`,
// `command`, `method`, `action` name the call; `arguments`, `args`, `parameters`, `params`, `input`,
// `inputs`, `action_input`, `tool_input`, `function_arguments` carry it.
const NAME_KEY = /^(?:(?:tool|function|command|action|recipient|method|call)_?)?name$|^(?:tool|function|command|action|method)$/i
const ARGUMENT_KEY = /^(?:(?:tool|function|action|call)_?)?(?:arguments|args|parameters|params|inputs?)$/i
const ID_KEY = /^(?:type|id|index|call_?id|tool_?call_?id)$/i
// Keys that also name ordinary fields (`{"command": "ls", "args": ["-la"]}`): they name a call only
// beside an argument object.
const WEAK_NAME_KEY = /^(?:action|command|method)$/i

/**
 * The tool an envelope names: `name` first, else another name-shaped key holding a string.
 * `action`, `command` and `method` count only beside an argument object (`action` alone is a macro input).
 */
export function envelopeName(record: Record<string, unknown>): string | undefined {
  if (typeof record.name === 'string') return record.name
  for (const key of Object.keys(record)) {
    const value = record[key]
    if (typeof value !== 'string' || !NAME_KEY.test(key)) continue
    if (WEAK_NAME_KEY.test(key) && !isPlainObject(argumentValue(record))) continue
    return value
  }
  return undefined
}
const MAX_UNWRAP = 8


function argumentKey(record: Record<string, unknown>): string | undefined {
  for (const key of Object.keys(record)) if (ARGUMENT_KEY.test(key)) return key
  return undefined
}

/** The value under an envelope's argument key (`arguments`, `args`, `parameters`, `input` …), if any. */
export function argumentValue(record: Record<string, unknown>): unknown {
  const key = argumentKey(record)
  return key === undefined ? undefined : record[key]
}

/**
 * Whether `value` is a call envelope: `{ name | tool_name, arguments | parameters | args | input }` (nothing
 * else but ids and a type beside them), `{ type: 'function', function: {…} }`, `{ function: {…} }`,
 * `{ tool_call: {…} }`, `{ function_call: {…} }` or `{ tool_calls: [...] }`.
 */
export function isEnvelope(value: unknown): value is Record<string, unknown> {
  if (!isPlainObject(value)) return false
  if (envelopeName(value) !== undefined) {
    const keys = Object.keys(value)
    return keys.every((key) => NAME_KEY.test(key) || ARGUMENT_KEY.test(key) || ID_KEY.test(key)) && (argumentKey(value) !== undefined || keys.length <= 3)
  }
  const keys = Object.keys(value).filter((key) => key !== 'type' && key !== 'id' && key !== 'index')
  if (keys.length !== 1) return false
  const inner = value[keys[0]!]
  if (keys[0] === 'tool_calls') return Array.isArray(inner)
  // A list of calls under a key of any name (`tool_uses`, `calls`, `function_calls` …).
  if (Array.isArray(inner) && inner.length > 0 && inner.every(isEnvelope)) return true
  return (keys[0] === 'function' || keys[0] === 'tool_call' || keys[0] === 'function_call' || keys[0] === 'functionCall') && (isPlainObject(inner) || Array.isArray(inner))
}

/**
 * Expands envelopes into calls: `{"tool_calls": [a, b]}` becomes two calls, `{"type": "function",
 * "function": {"name": "x", "arguments": …}}` one call named `x`. Anything else comes back as the
 * one call it already is. Records `unwrapped-envelope` when a wrapper was removed.
 */
export function unwrapEnvelope(call: RawCall, depth = 0): RawCall[] {
  const { args } = call
  if (depth >= MAX_UNWRAP) return [call]
  if (Array.isArray(args) && args.length > 0 && args.every(isEnvelope)) {
    return args.flatMap((item) => unwrapEnvelope({ ...call, args: item, fixes: [...call.fixes] }, depth + 1))
  }
  if (!isEnvelope(args)) return [call]
  const fixes = [...call.fixes]
  const name = envelopeName(args)
  if (name !== undefined) {
    const key = argumentKey(args)
    pushFix(fixes, 'unwrapped-envelope')
    const id = typeof args.id === 'string' && args.id ? args.id : call.id
    return unwrapEnvelope({ name, args: key ? args[key] : undefined, fixes, ...(id ? { id } : {}) }, depth + 1)
  }
  const key = Object.keys(args).find((entry) => entry !== 'type' && entry !== 'id' && entry !== 'index')!
  pushFix(fixes, 'unwrapped-envelope')
  const inner = args[key]
  if (Array.isArray(inner)) return inner.flatMap((item) => unwrapEnvelope({ ...call, args: item, fixes: [...fixes] }, depth + 1))
  return unwrapEnvelope({ ...call, args: inner, fixes }, depth + 1)
}

/**
 * Removes redundant `{"arguments": {…}}` layers (or `parameters`/`args`/`input`), even nested, when
 * the layer is the only key and the tool has no field of that name.
 */
export function unwrapArgumentLayers(args: unknown, fieldNames: ReadonlySet<string>, fixes: string[]): unknown {
  let current = args
  for (let round = 0; round < MAX_UNWRAP && isPlainObject(current); round++) {
    const keys = Object.keys(current)
    if (keys.length !== 1) break
    const key = keys[0]!
    if (!ARGUMENT_KEY.test(key) || fieldNames.has(key)) break
    const inner = current[key]
    if (!isPlainObject(inner) && typeof inner !== 'string') break
    pushFix(fixes, 'unwrapped-envelope')
    current = inner
  }
  return current
}
