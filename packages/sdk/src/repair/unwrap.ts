import { isPlainObject, pushFix } from './coerce'

/** A call as found in a response, before its tool is known: a name (maybe) and raw arguments. */
export interface RawCall {
  name?: string
  args: unknown
  id?: string
  fixes: string[]
}

/** Keys under which models put a call's arguments. */
export const ARGUMENT_KEYS = ['arguments', 'parameters', 'args', 'input', 'params', 'action_input', 'tool_input'] as const
// Keys that may sit beside `name` + arguments in an envelope without making it something else.
const NAME_KEYS = ['name', 'tool_name', 'function_name', 'function', 'tool', 'action'] as const
const ENVELOPE_EXTRAS = new Set<string>(['type', 'id', 'index', 'call_id', 'tool_call_id', ...NAME_KEYS, ...ARGUMENT_KEYS])

/**
 * The tool an envelope names: `name`, or `tool_name` (Command R), `function`/`tool` as a string, or
 * `action` with `action_input` (LangChain's JSON agent). `action` alone is a macro input, not a name.
 */
export function envelopeName(record: Record<string, unknown>): string | undefined {
  for (const key of NAME_KEYS) {
    const value = record[key]
    if (typeof value !== 'string') continue
    if (key === 'action' && argumentKey(record) === undefined) continue
    return value
  }
  return undefined
}
const MAX_UNWRAP = 8

const hasOwn = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key)

function argumentKey(record: Record<string, unknown>): (typeof ARGUMENT_KEYS)[number] | undefined {
  for (const key of ARGUMENT_KEYS) if (hasOwn(record, key)) return key
  return undefined
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
    return keys.every((key) => ENVELOPE_EXTRAS.has(key)) && (argumentKey(value) !== undefined || keys.length <= 3)
  }
  const keys = Object.keys(value).filter((key) => key !== 'type' && key !== 'id' && key !== 'index')
  if (keys.length !== 1) return false
  const inner = value[keys[0]!]
  if (keys[0] === 'tool_calls') return Array.isArray(inner)
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
    if (!(ARGUMENT_KEYS as readonly string[]).includes(key) || fieldNames.has(key)) break
    const inner = current[key]
    if (!isPlainObject(inner) && typeof inner !== 'string') break
    pushFix(fixes, 'unwrapped-envelope')
    current = inner
  }
  return current
}
