/**
 * The unwrap stage: envelopes opened. Over the list of candidates, {@link expandCalls} makes several
 * calls in one value several candidates and {@link nestedCalls} finds calls nested in JSON that is no
 * call; over one decoded candidate, {@link envelopeReading} offers the envelope's own reading of
 * arguments that are both an envelope and the tool's input, and {@link unwrapLayers} opens the
 * envelopes around its arguments, decoding each layer. What an envelope looks like is `unwrap.ts`.
 */
import { isPlainObject, pushFix, sanitizeValue } from './coerce'
import type { DecodedCall } from './decode-call'
import { decodeArguments } from './decode-arguments'
import { unclosedMessage } from './describe-issue'
import { discriminatedCall, fieldsOf, findTool, isOwnInput, Rank, toolKeyOf, type Context, type Failure } from './repair-context'
import { droppedOf, envelopeName, isCallList, isEnvelope, unwrapEnvelope, type RawCall } from './unwrap'

// Envelopes nested in one another that a call is unwrapped from, at most.
const MAX_ENVELOPE_LAYERS = 4
// Nodes looked at, and levels descended, when searching JSON for a call nested inside it.
const MAX_NESTED_VISITS = 2048
const MAX_NESTED_DEPTH = 16

/**
 * Several calls in one value (`[{name, arguments}, …]`, `{"tool_calls": [...]}`) become several
 * candidates, so the first VALID one is the step, not merely the first one. In a list that mixes
 * calls with other items (Anthropic content blocks: `[{"type": "text", …}, {"type": "tool_use", …}]`)
 * each call is a candidate and the other items are skipped.
 */
export function expandCalls(raw: RawCall, context: Context): RawCall[] {
  const { args } = raw
  if (raw.name !== undefined) return [raw]
  // `[{"search": {…}}, {"get_time": {…}}]`: every item names a tool by its one key (a macro tool's
  // list of actions stays one input).
  if (Array.isArray(args) && args.every((item) => toolKeyOf(item, context))) {
    return args.map((item) => ({ name: toolKeyOf(item, context), args: Object.values(item as object)[0], fixes: [...raw.fixes, 'tool-name-as-key'], before: raw.before }))
  }
  if (Array.isArray(args) && args.length > 1 && !args.every(isEnvelope)) {
    const calls = args.filter((item) => isCallItem(item, context))
    if (calls.length === 0 || calls.length === args.length) return [raw]
    return calls.flatMap((item) => unwrapEnvelope({ args: item, fixes: [...raw.fixes] }))
  }
  if (!isEnvelope(args) && !(Array.isArray(args) && args.length > 1)) return [raw]
  const { alternate: _hint, ...call } = raw
  const inner = unwrapEnvelope(call)
  return inner.length > 1 ? inner : [raw]
}

/** An item of a list that is a call: an envelope, or a record naming a known tool or action by a key or a discriminator. */
function isCallItem(item: unknown, context: Context): boolean {
  if (isEnvelope(item)) return true
  if (!isPlainObject(item)) return false
  return Object.keys(item).some((key) => findTool(key, context)) || discriminatedCall(item, context) !== undefined
}

/**
 * Calls nested inside JSON that is not a call itself — `{"role": "assistant", "tool_calls": [...]}`,
 * `{"candidates": [{"content": {"parts": [{"functionCall": …}]}}]}` — in document order. Only
 * envelopes that name a known tool or action AND carry arguments count, so a `{"name": "wait"}` in
 * nested data never turns into a call.
 */
export function nestedCalls(raw: RawCall, context: Context): RawCall[] {
  const found: RawCall[] = []
  const pending: Array<[value: unknown, depth: number]> = [[raw.args, 0]]
  for (let visits = 0; pending.length > 0 && visits < MAX_NESTED_VISITS && found.length < 16; visits++) {
    const [value, depth] = pending.pop()!
    if (depth > 0 && isEnvelope(value)) {
      const calls = unwrapEnvelope({ args: value, fixes: [...raw.fixes] }).filter((call) => call.name !== undefined && call.args !== undefined && findTool(call.name, context))
      if (calls.length > 0) {
        found.push(...calls)
        continue
      }
    }
    if (depth >= MAX_NESTED_DEPTH || typeof value !== 'object' || value === null) continue
    const children = Array.isArray(value) ? value : Object.values(value)
    for (let child = children.length - 1; child >= 0; child--) pending.push([children[child], depth + 1])
  }
  return found
}

/**
 * `{"name": "t", "parameters": {…}}` for a sole tool `t` whose own fields are `name` and `parameters`:
 * both an envelope naming a known tool and that tool's input. The envelope's own reading, as a
 * candidate to resolve first; the object is the input only when that reading does not validate.
 */
export function envelopeReading({ name, id, args, fixes }: DecodedCall, raw: RawCall, context: Context): RawCall | undefined {
  if (name !== undefined || !isEnvelope(args) || envelopeName(args) === undefined || !isOwnInput(args, raw.calledName, context)) return undefined
  const [first] = unwrapEnvelope({ args, fixes: [] })
  if (first?.name === undefined || first.args === undefined || !findTool(first.name.trim(), context)) return undefined
  return { ...first, fixes: [...fixes, ...first.fixes], id: first.id ?? id, before: raw.before || undefined, inner: raw.inner }
}

/**
 * An envelope in the arguments: taken when the call has no name, or the envelope names a known tool or
 * action — never when every key is a field of the tool the arguments already belong to. A layer
 * that repeats the envelope (`{"name": "x", "arguments": {"name": "x", "arguments": {…}}}`) goes too.
 */
export function unwrapLayers(call: DecodedCall, raw: RawCall, context: Context): DecodedCall | Failure {
  const { fixes, dropped } = call
  let { name, id, args } = call
  for (let layer = 0; layer < MAX_ENVELOPE_LAYERS; layer++) {
    if (!(isEnvelope(args) || isCallList(args)) || isOwnInput(args, name ?? raw.calledName, context)) break
    const inner = unwrapEnvelope({ args, fixes: [] })
    const first = inner[0]
    const innerName = first?.name?.trim()
    const named = innerName !== undefined && findTool(innerName, context) !== undefined
    // A nameless call takes an envelope that names a known tool or carries arguments; `{"name": "a.txt",
    // "type": "text"}` for a tool with those fields stays the arguments it is.
    if (!first || !(named || (name === undefined && first.args !== undefined))) break
    for (const code of first.fixes) pushFix(fixes, code)
    if (first.name !== undefined) name = first.name.trim()
    if (first.id) id = first.id
    const innerDecoded = decodeArguments(first.args, fixes, () => fieldsOf(name, context))
    if (!('value' in innerDecoded)) {
      return { rank: Rank.Invalid, message: 'unclosed' in innerDecoded ? unclosedMessage(name) : `The arguments of "${name ?? 'the call'}" are not usable JSON.` }
    }
    args = sanitizeValue(innerDecoded.value, fixes)
    // `{"name": "move", "position": {…}}`: an object taken by its role is the input only when the tool has no field of that name.
    if (first.byRole && fieldsOf(name, context).has(first.byRole.key)) args = sanitizeValue(first.byRole.record, fixes)
    for (const extra of inner.slice(1)) dropped.push(...droppedOf(extra, 'extra'))
  }
  call.name = name
  call.id = id
  call.args = args
  return call
}
