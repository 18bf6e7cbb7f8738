/**
 * The read stage: the candidate calls of a response, in order of trust. Native calls (`tool_calls` as
 * servers spell it, content parts that are calls, the legacy `function_call`), and calls the readers
 * find written in text, minus those shown to the user, handed on to {@link expandCalls} (several
 * calls in one value are several candidates). The repair's list (not a later stage) comes back here,
 * once (a candidate read this way is `inner`), for text that is itself a call: arguments written as
 * a call (`"arguments": "scroll(down=True)"`) and an action written as one.
 */
import type { ChatResponseMessage, ChatToolCall } from '../types'
import { isPlainObject, pushFix } from './coerce'
import { foundFixes } from './push-fix'
import { MAX_CALLS } from './reading/limits'
import { callRanges, readCalls as readCallsWith, type ExtractedCall, type ExtractCallsOptions } from './extract-calls'
import { missingClosers } from './lenient-json'
import { fieldsOf, findTool, targetOf, type Context } from './repair-context'
import { safeJsonSchema } from './safe-json-schema'
import { shownToUser } from './shown-to-user'
import { envelopeInput, type RawCall } from './unwrap'
import { expandCalls } from './unwrap-call'

/** The calls a message carries as data: every `tool_calls` entry, content parts that are calls, then the legacy `function_call`. */
export function nativeCandidates(message: ChatResponseMessage, context: Context): RawCall[] {
  const native: RawCall[] = []
  // `tool_calls` as servers spell it: also `tool_call`, `toolCalls`, `function_calls`.
  const toolCalls: unknown = message.tool_calls ?? message.tool_call ?? message.toolCalls ?? message.function_calls
  // One call object instead of an array happens too.
  const callList = Array.isArray(toolCalls) ? toolCalls : isPlainObject(toolCalls) ? [toolCalls] : undefined
  if (callList) {
    for (const call of callList as ChatToolCall[]) {
      if (typeof call !== 'object' || call === null) continue
      const fn = isPlainObject(call.function) ? call.function : (call as Record<string, unknown>)
      const fixes: string[] = fn === call ? ['unwrapped-envelope'] : []
      // `arguments`, or whatever argument-shaped key the server used (`parameters`, `input`, `args` …).
      const raw = fn.arguments !== undefined ? fn.arguments : envelopeInput(fn as Record<string, unknown>, fieldsOf(fn.name, context))
      if (isPlainObject(raw)) fixes.push('object-arguments')
      // Absent keys as `undefined`: a candidate is internal, no stage tells the two apart.
      native.push({ name: typeof fn.name === 'string' ? fn.name : undefined, args: raw, id: typeof call.id === 'string' && call.id ? call.id : undefined, fixes })
    }
  }
  // Content parts that are calls: Anthropic `tool_use`, Responses-API `function_call` (through proxies).
  if (Array.isArray(message.content)) {
    for (const part of message.content) {
      if (!isPlainObject(part) || (part.type !== 'tool_use' && part.type !== 'function_call' && part.type !== 'tool_call') || typeof part.name !== 'string') continue
      const id = typeof part.id === 'string' && part.id ? part.id : typeof part.call_id === 'string' && part.call_id ? part.call_id : undefined
      native.push({ name: part.name, args: part.input !== undefined ? part.input : part.arguments, id, fixes: ['content-part-call'] })
    }
  }
  const legacy = message.function_call
  if (isPlainObject(legacy)) {
    native.push({ name: typeof legacy.name === 'string' ? legacy.name : undefined, args: legacy.arguments, fixes: ['legacy-function-call'] })
  }
  return native
}

/**
 * The calls written in `text`, as candidates (several calls in one value as several); `unclosed` when
 * the text ends inside one. In the answer, a call shown to the user (an example, a message addressed
 * to the user) is none.
 */
export function candidatesIn(text: string, extra: readonly string[], context: Context): { raws: RawCall[]; unclosed: boolean } {
  let { calls, truncated, ends } = readCalls(text, context)
  // An answer the model ended itself (a cut one never reaches the repair) whose JSON lacks only its
  // last closers: complete. The closers go after the text, so every offset stays.
  const closers = truncated && !context.reasoning ? missingClosers(text) : ''
  if (closers) ({ calls, truncated, ends } = readCalls(text + closers, context))
  const callFixes = closers ? [...extra, 'closed-json'] : extra
  const placed = calls.map((call, index) => ({ start: call.start, end: Math.min(ends?.[index] ?? call.start, text.length), name: calledTool(call, context) }))
  const { shown } = calls.length > 0 && !context.reasoning ? shownToUser(text, placed) : { shown: [] }
  const raws = calls.flatMap((call, index) => {
    if (shown[index]) return []
    const raw = fromExtracted(call, callFixes, text.slice(0, call.start), context)
    return listedCalls(raw, context) ?? expandCalls(raw, context)
  })
  return { raws, unclosed: truncated }
}

/** The declared tool a call found in text names (its own name, an envelope's `name`, the name written before it), if any. */
function calledTool(call: ExtractedCall, context: Context): string | undefined {
  const args = call.args
  const written = call.name ?? (isPlainObject(args) && typeof args.name === 'string' ? args.name : isPlainObject(args) && isPlainObject(args.function) && typeof args.function.name === 'string' ? args.function.name : call.calledName)
  return written === undefined ? undefined : findTool(written, context)?.toolName
}

const asPair = (item: unknown, context: Context) => (Array.isArray(item) && item.length === 2 && typeof item[0] === 'string' && isPlainObject(item[1]) && findTool(item[0], context) ? (item as [string, unknown]) : undefined)

/**
 * Calls a nameless JSON list holds as `[NAME, {args}]` pairs (`["search", {"q": "a"}]`, or a list of
 * them; fix `name-argument-pair`) or as strings that are each one call of a declared tool
 * (`["search(q='a')", "search(q='b')"]`; fix `call-in-string`), read once more (`inner`).
 */
function listedCalls(raw: RawCall, context: Context): RawCall[] | undefined {
  const { args, before } = raw
  if (raw.name !== undefined || !Array.isArray(args) || args.length === 0) return undefined
  const pair = asPair(args, context)
  const pairs = pair ? [pair] : args.every((item) => asPair(item, context)) ? (args as Array<[string, unknown]>) : undefined
  if (pairs) return pairs.map(([name, input]) => ({ name, args: input, fixes: [...raw.fixes, 'name-argument-pair'], before }))
  // No more calls than a text may hold (`MAX_CALLS`): each string is read on its own.
  if (args.length > MAX_CALLS || !args.every((item) => typeof item === 'string' && item.trimEnd().endsWith(')'))) return undefined
  const calls: RawCall[] = []
  for (const item of args as string[]) {
    const read = readCalls(item, context)
    const call = read.calls[0]
    if (read.calls.length !== 1 || read.truncated || !call!.name || call!.start !== item.length - item.trimStart().length || !findTool(call!.name, context)) return undefined
    calls.push({ name: call!.name, args: call!.args, fixes: [...raw.fixes, ...foundFixes(call!), 'call-in-string'], before, inner: true })
  }
  return calls
}

function fromExtracted(call: ExtractedCall, extra: readonly string[], before: string, context: Context): RawCall {
  const fixes: string[] = []
  for (const code of [call.format, ...call.fixes, ...extra]) if (typeof code === 'string' && code) pushFix(fixes, code)
  if (call.reader) pushFix(fixes, `reader:${call.reader}`)
  const raw: RawCall = { name: typeof call.name === 'string' && call.name ? call.name : undefined, args: call.args, fixes, before }
  if (!raw.name && call.calledName) raw.calledName = call.calledName
  if (call.unreadable) raw.unreadable = true
  // `scroll: {"down": true}`: the name written before unnamed JSON, if the JSON alone does not resolve.
  // Not for JSON that carries reflection: that is a macro input without its action, and a word in
  // the prose must not become the action the model left out.
  if (!raw.name && call.nameHint && !carriesReflection(call.args, context)) {
    raw.alternate = { name: call.nameHint, args: call.args, fixes: [...fixes, 'name-before-json'], before }
  }
  return raw
}

/** JSON holding a macro tool's reflection keys: a macro input, maybe without its action. */
function carriesReflection(args: unknown, context: Context): boolean {
  if (!isPlainObject(args)) return false
  return context.macros.some(([, tool]) => tool.macro!.reflectionKeys.some((key) => Object.hasOwn(args, key)))
}

/** The first call written in `text` (pythonic, JSON, markup), unless `raw` itself was read that way: one level only. */
export function callInText(text: unknown, raw: RawCall, context: Context): ExtractedCall | undefined {
  return typeof text === 'string' && !raw.inner ? readCalls(text, context).calls[0] : undefined
}

const readingOptions = (context: Context): ExtractCallsOptions => ({
  names: context.names,
  fieldsOf: (name) => fieldsOf(name, context),
  schemaOf: (name) => {
    const target = targetOf(name, context)
    return target ? safeJsonSchema(target) : undefined
  },
})

const readCalls = (text: string, context: Context) => readCallsWith(text, context.readers, readingOptions(context))

/** Where the step's readers find calls in `text` (reasoning included): a reasoning marker there is text of a value. */
export const callRangesIn = (text: string, context: Context) => callRanges(text, context.readers, readingOptions(context))

/**
 * `"arguments": "scroll(down=True)"`: argument text that is no JSON but a call written as text, as a
 * new candidate (`inner`: not read again) — when it calls the tool the candidate named, or either names none.
 */
export function callInArguments(text: string, name: string | undefined, raw: RawCall, context: Context): RawCall | undefined {
  const call = callInText(text, raw, context)
  if (!call || (call.name && name && findTool(call.name, context)?.toolName !== findTool(name, context)?.toolName)) return undefined
  return { ...raw, name: call.name ?? name, args: call.args, fixes: [...raw.fixes, ...foundFixes(call)], inner: true }
}
