import { errorMessage, InvokeError, isInvokeError } from '../errors/invoke-error'
import { assertTool } from '../tool/define-tool'
import { validateSchema } from '../tool/schema'
import { wireNames } from '../tool/wire-names'
import { isReaderList, READER_LIST_RULE } from '../util/is-record'
import type { ChatResponseMessage, ChatToolCall, DroppedCall, Tool, ToolCall, ToolSet } from '../types'
import { coerceToSchema, isPlainObject, pushFix, sanitizeValue } from './coerce'
import { decodeXmlReferences } from './decode-value'
import { availableList, describeIssue, previewValue } from './describe-issue'
import { builtInReaders, jsonReaders, readCalls as readCallsWith, type ExtractedCall } from './extract-calls'
import { decodeEscapedText, isTruncatedJson, parseKeyValueText, parseLenientJson } from './lenient-json'
import { matchName } from './markup-shared'
import { composeReaders, type Reader } from './reader'
import { ACTION_KEY, fieldNames, liftLabelledReflection, movedActionKey, safeJsonSchema, shapeMacroInput } from './shape-macro-input'
import { shownToUser } from './shown-to-user'
import { readContentPart, splitReasoning } from './split-reasoning'
import { discriminatorKeys, envelopeInput, envelopeName, flatInput, isEnvelope, isFieldsOnly, unwrapArgumentLayers, unwrapEnvelope, type RawCall } from './unwrap'

export type { DroppedCall } from '../types'

/**
 * Options of {@link repairToolCall}.
 *
 * @example
 * ```ts
 * // JSON that names no tool belongs to the named tool (without it, and with several tools: no_tool_call)
 * const { toolCall } = repairToolCall({ role: 'assistant', content: '{"index": 3}' }, { click, done }, { toolChoiceName: 'click' })
 * // toolCall: { name: 'click', args: { index: 3 } }
 * ```
 */
export interface RepairOptions {
  /** The tool the request named in `tool_choice`, if any: the owner of JSON that names no tool. */
  toolChoiceName?: string
  /**
   * Readers of text formats to try before the default set (every built-in reader; with
   * `@wildcall/sdk/core`, the JSON reader). A reader named like a built-in one takes its place.
   */
  readers?: readonly Reader[]
}

/**
 * What {@link repairToolCall} returns: the one valid call, its tool, and how it was reached.
 *
 * @example
 * ```ts
 * const { toolCall, tool, fixes, dropped }: RepairResult = repairToolCall(message, { click, done })
 * const output = await tool.execute?.(toolCall.args, { emit: () => {} }) // repairToolCall validates, it does not execute
 * ```
 */
export interface RepairResult {
  /** The validated call: `args` is the schema's output; `id` as the model gave it (the client generates one when it gave none). */
  toolCall: Omit<ToolCall, 'id'> & { id?: string }
  tool: Tool
  /**
   * Repair codes applied, in order. Empty for a clean response. Stable codes: where the call was
   * found (`content-json`, `tool-markup:<family>`, `legacy-function-call`, `content-part-call`,
   * `stripped-reasoning`, `call-in-reasoning`); how its arguments were decoded (`object-arguments`,
   * `empty-arguments`, `double-encoded-arguments` (also for an answer escaped as a string),
   * `argument-pairs` (name/value pairs or `key=value` text), `lenient-json` and the lenient parser's codes);
   * structure (`unwrapped-envelope`, `tool-name-as-key`, `normalized-tool-name`, `action-as-tool`,
   * `missing-reflection-shell`, `flattened-action`, `moved-action`, `moved-reflection`, `dropped-unknown-keys`,
   * `bare-value`, `bare-action-name`, `unwrapped-array`, `fallback-action`); values
   * (`coerced:number|integer|boolean|string|array|enum`, `dropped-null`, `dropped-unsafe-key`,
   * `guessed-value-type` for a markup value typed without a schema); and
   * `dropped-calls:N` when other calls were not taken; `reader:<name>` names the reader that read a call
   * written into the text.
   */
  fixes: string[]
  /** Other calls the response held, not taken (several `tool_calls`, several calls in the text, extra actions). */
  dropped: DroppedCall[]
  /** For a call read from the model's text: the text written before it (the prose `result.messages` keeps). */
  textBefore?: string
}

const NO_DROPPED: DroppedCall[] = []
// Envelopes nested in one another that a call is unwrapped from, at most.
const MAX_ENVELOPE_LAYERS = 4
// Argument text that names an object internal goes through the sanitising slow path
// (`proto` covers `__proto__` and `prototype`).
const mentionsInternals = (text: string) => text.includes('proto') || text.includes('constructor')

/**
 * Turns an assistant message into exactly one validated tool call, or throws an {@link InvokeError}.
 *
 * A clean `tool_calls[0]` costs a `JSON.parse` and a validation. Otherwise every candidate is
 * gathered in order of trust — all `tool_calls`, the legacy `function_call`, calls written into
 * `content` (JSON or native markup, reasoning blocks removed), and only when none of those
 * validates, calls drafted in the reasoning — then normalised (envelopes, encodings, the macro
 * tool's shape, schema-guided coercion) and validated. The first valid one is the step; the others
 * are reported in `dropped` and as the fix `dropped-calls:N`. It never picks an action the model did
 * not write, apart from a macro tool's configured `fallbackAction`. A tool whose name the OpenAI API
 * refuses (`Calendar.create_event`) is also found under the name `invoke` sends it as
 * (`Calendar_create_event`); the call always carries the tool's own name.
 *
 * @example
 * ```ts
 * const message = { role: 'assistant', content: '<tool_call>{"name": "click", "arguments": {"index": "3"}}</tool_call>' }
 * const { toolCall, fixes } = repairToolCall(message, { click })
 * // toolCall: { name: 'click', args: { index: 3 } }
 * // fixes: ['tool-markup:hermes', 'unwrapped-envelope', 'coerced:integer']
 * ```
 */
export function repairToolCall(message: ChatResponseMessage, tools: ToolSet, options?: RepairOptions): RepairResult {
  checkRepairInput(tools, options)
  return repairWithReaders(message, tools, options, builtInReaders)
}

const checkedToolSets = new WeakSet<object>()

/**
 * The caller's part of a public repair: the tools (as `invoke` checks them) and the reader list. A
 * wrong one is a `config_error` that names it, whatever the model answered.
 */
function checkRepairInput(tools: unknown, options: RepairOptions | undefined): void {
  if (typeof tools !== 'object' || tools === null) throw new InvokeError('config_error', 'repairToolCall: "tools" must be an object of tools.')
  // A tool set passes once: the same one comes back on every step.
  if (!checkedToolSets.has(tools)) {
    for (const name of Object.keys(tools)) assertTool((tools as ToolSet)[name], name)
    checkedToolSets.add(tools)
  }
  if (options?.readers !== undefined && !isReaderList(options.readers)) throw new InvokeError('config_error', `repairToolCall: "readers" ${READER_LIST_RULE}`)
}

/**
 * {@link repairToolCall} of `@wildcall/sdk/core`: the same repair, reading only JSON in the text
 * unless `options.readers` brings readers of other formats.
 *
 * @example
 * ```ts
 * import { repairToolCall, hermesReader } from '@wildcall/sdk/core'
 * const { toolCall } = repairToolCall(message, { click }, { readers: [hermesReader] })
 * ```
 */
export function repairToolCallCore(message: ChatResponseMessage, tools: ToolSet, options?: RepairOptions): RepairResult {
  checkRepairInput(tools, options)
  return repairWithReaders(message, tools, options, jsonReaders)
}

/** The repair with `defaults` as the readers tried after `options.readers`. */
export function repairWithReaders(message: ChatResponseMessage, tools: ToolSet, given: RepairOptions | undefined, defaults: readonly Reader[]): RepairResult {
  const options = given ?? {}
  try {
    return takeCleanCall(message, tools) ?? repairMessage(message, tools, options, composeReaders(options.readers, defaults))
  } catch (error) {
    if (isInvokeError(error)) throw error
    const detail = errorMessage(error)
    throw new InvokeError('unknown', `Repairing the model's answer failed unexpectedly (${detail}). Retrying usually helps; please report the raw response.`, { cause: error })
  }
}

const fieldsByTool = new WeakMap<Tool, Record<string, unknown> | null>()

/** Whether every key of `args` is a property of the tool's input schema (its JSON Schema, cached per tool). */
function keysAreFields(args: object, tool: Tool): boolean {
  let properties = fieldsByTool.get(tool)
  if (properties === undefined) {
    const declared = safeJsonSchema(tool)?.properties
    properties = typeof declared === 'object' && declared !== null ? (declared as Record<string, unknown>) : null
    fieldsByTool.set(tool, properties)
  }
  if (properties === null || Array.isArray(args)) return false
  for (const key in args) if (!Object.hasOwn(properties, key)) return false
  return true
}

/** The fast path: one clean native call with JSON arguments that validate. No repair work at all. */
function takeCleanCall(message: ChatResponseMessage, tools: ToolSet): RepairResult | undefined {
  const calls = message?.tool_calls
  if (!Array.isArray(calls) || calls.length !== 1) return undefined
  const call = calls[0]
  const name = call?.function?.name
  const text = call?.function?.arguments
  if (typeof name !== 'string' || typeof text !== 'string' || mentionsInternals(text)) return undefined
  // The name the tool was sent under (when its own is one the OpenAI API refuses) means the tool too.
  const own = Object.hasOwn(tools, name) ? name : wireNames(tools)?.get(name)
  if (own === undefined) return undefined
  let args: unknown
  try {
    args = JSON.parse(text)
  } catch {
    return undefined
  }
  if (typeof args !== 'object' || args === null) return undefined
  const tool = tools[own]!
  // Arguments shaped as an envelope (`{"arguments": {"name": "John"}, "name": "get_age"}`) are read by
  // role on the slow path: the schema would strip `arguments` and keep the tool's name as the argument.
  // Arguments whose every key is a field of the tool are arguments, so the envelope test (a few regex
  // tests per key) runs only when a key is not.
  if (!keysAreFields(args, tool) && isEnvelope(args)) return undefined
  const checked = validateSchema(tool.inputSchema, args)
  if (!checked.success) return undefined
  const id = call!.id
  // No object spread here: a conditional spread costs more than the whole validation in V8.
  const toolCall: RepairResult['toolCall'] = typeof id === 'string' && id ? { id, name: own, args: checked.data } : { name: own, args: checked.data }
  return { toolCall, tool, fixes: [], dropped: NO_DROPPED }
}

/** How far a failed candidate got: the furthest one explains the failure best. */
const enum Rank {
  NoTool = 0,
  UnknownTool = 1,
  MissingAction = 2,
  Invalid = 3,
}

interface Failure {
  rank: Rank
  message: string
  name?: string
}

interface Success {
  result: RepairResult
}

interface Context {
  tools: ToolSet
  toolNames: string[]
  /** Tool and action names, for `extractCalls` and for deciding whether an envelope names a call. */
  names: Set<string>
  macros: Array<[string, Tool]>
  /** Name sent → own name, when some tool is sent under another name; `ownNames` is then `names` without those sent. */
  toOwn: Map<string, string> | undefined
  ownNames: Set<string>
  toolChoiceName: string | undefined
  failures: Failure[]
  /** The answer (or a call's arguments) ends inside a value it never closed. */
  unclosed: boolean
  /** The readers of text formats, in the order they run. */
  readers: readonly Reader[]
  /** Candidates come from the reasoning: only a call that names a declared tool or action counts. */
  reasoning?: boolean
}

// Every caller has checked `tools` already: `invoke` (assertInvokeInput) and the public repairs (checkRepairInput).
function createContext(tools: ToolSet, options: RepairOptions, readers: readonly Reader[]): Context {
  const toolNames = Object.keys(tools)
  const toOwn = wireNames(tools)
  let names = new Set(toolNames)
  const macros: Array<[string, Tool]> = []
  for (const name of toolNames) {
    const macro = tools[name]?.macro
    if (!macro) continue
    macros.push([name, tools[name]!])
    for (const action of Object.keys(macro.actions)) names.add(action)
  }
  // A model may write a tool's own name or the one it was sent under: both are known names.
  const ownNames = names
  if (toOwn) names = new Set([...names, ...toOwn.keys()])
  // The named tool's macro first: its actions win when two macro tools share an action name.
  const chosen = options.toolChoiceName
  if (chosen !== undefined) macros.sort(([a], [b]) => Number(b === chosen) - Number(a === chosen))
  return { tools, toolNames, names, ownNames, macros, toOwn, toolChoiceName: chosen !== undefined && Object.hasOwn(tools, chosen) ? chosen : undefined, failures: [], unclosed: false, readers }
}

function repairMessage(message: ChatResponseMessage, tools: ToolSet, options: RepairOptions, readers: readonly Reader[]): RepairResult {
  if (typeof message !== 'object' || message === null) {
    throw new InvokeError('invalid_schema', 'The response message is not an object.')
  }
  const context = createContext(tools, options, readers)
  const tried: RawCall[] = []

  // 1. Native calls: every tool_calls entry, then the legacy function_call.
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
      native.push({ ...(typeof fn.name === 'string' ? { name: fn.name } : {}), args: raw, ...(typeof call.id === 'string' && call.id ? { id: call.id } : {}), fixes })
    }
  }
  // Content parts that are calls: Anthropic `tool_use`, Responses-API `function_call` (through proxies).
  if (Array.isArray(message.content)) {
    for (const part of message.content) {
      if (!isPlainObject(part) || (part.type !== 'tool_use' && part.type !== 'function_call' && part.type !== 'tool_call') || typeof part.name !== 'string') continue
      const id = typeof part.id === 'string' && part.id ? part.id : typeof part.call_id === 'string' && part.call_id ? part.call_id : undefined
      native.push({ name: part.name, args: part.input !== undefined ? part.input : part.arguments, ...(id ? { id } : {}), fixes: ['content-part-call'] })
    }
  }
  const legacy = message.function_call
  if (isPlainObject(legacy)) {
    native.push({ ...(typeof legacy.name === 'string' ? { name: legacy.name } : {}), args: legacy.arguments, fixes: ['legacy-function-call'] })
  }
  const fromNative = pickFirst(native, context, tried)
  if (fromNative) return fromNative

  // 2. Calls written into the content, outside any reasoning block.
  const { text: content, reasoning: reasoningParts } = readContent(message.content)
  const split = content ? splitReasoning(content) : { answer: '', reasoning: '', fixes: [] }
  const answer = candidatesIn(split.answer, split.fixes, context)
  if (answer.unclosed) context.unclosed = true
  const fromContent = pickFirst(answer.raws, context, tried)
  if (fromContent) return fromContent
  // A proxy or template that HTML-escaped the answer (`{&quot;name&quot;: …}`): read it unescaped.
  const unescaped = decodeXmlReferences(split.answer)
  if (unescaped !== split.answer) {
    const fromUnescaped = pickFirst(candidatesIn(unescaped, [...split.fixes, 'html-entities'], context).raws, context, tried)
    if (fromUnescaped) return fromUnescaped
  }
  // An answer escaped as a JSON string, maybe several times (`{\"name\": …}`, `"\"{\\\"name…"`): read it decoded.
  const unquoted = decodeEscapedText(split.answer)
  if (unquoted !== undefined) {
    const decoded = candidatesIn(unquoted, [...split.fixes, 'double-encoded-arguments'], context)
    const fromDecoded = pickFirst(decoded.raws, context, tried)
    if (fromDecoded) return fromDecoded
    if (decoded.unclosed) context.unclosed = true
  }
  // The answer ends inside a call or JSON value it never closed. The output was not cut (invoke stops a
  // length finish before the repair): the call is malformed, and a draft in the reasoning does not replace it.
  if (context.unclosed) throw explainFailure(context, split.answer || content, [], message)
  // An answer addressed to the user (harmony's final channel) ends the turn: a draft in the reasoning is no call.
  if (shownToUser(split.answer).addressed) throw explainFailure(context, split.answer, [], message)

  // 3. Only now a call drafted in the reasoning: a call outside it always wins.
  const reasoningTexts = [split.reasoning, reasoningParts, stringField(message.reasoning_content), stringField(message.reasoning)].filter((text) => text.length > 0)
  context.reasoning = true
  const drafted: RawCall[] = []
  for (const text of reasoningTexts) drafted.push(...candidatesIn(text, ['call-in-reasoning'], context).raws)
  const fromReasoning = pickFirst(drafted, context, tried)
  if (fromReasoning) return fromReasoning

  throw explainFailure(context, split.answer || content, reasoningTexts, message)
}

function stringField(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

/**
 * `content` as text: a string, or the text parts of a content array. Typed reasoning parts
 * (Magistral's `{type: 'thinking', thinking: […]}`) go to the reasoning, never to the answer.
 */
function readContent(content: unknown): { text: string; reasoning: string } {
  if (typeof content === 'string') return { text: content, reasoning: '' }
  if (!Array.isArray(content)) return { text: '', reasoning: '' }
  const texts: string[] = []
  const reasoning: string[] = []
  for (const part of content) {
    const read = readContentPart(part)
    if (read.text) texts.push(read.text)
    if (read.reasoning) reasoning.push(read.reasoning)
  }
  return { text: texts.join('\n'), reasoning: reasoning.join('\n') }
}

/**
 * The calls written in `text`, as candidates; `unclosed` when the text ends inside one. In the answer,
 * a call shown to the user (an example, a message addressed to the user) is none.
 */
function candidatesIn(text: string, extra: readonly string[], context: Context): { raws: RawCall[]; unclosed: boolean } {
  const { calls, truncated } = readCalls(text, context)
  const shown = calls.length > 0 && !context.reasoning ? shownToUser(text) : undefined
  const raws = calls.flatMap((call) => (shown?.(call.start) ? [] : expandCalls(fromExtracted(call, extra, text.slice(0, call.start), context), context)))
  return { raws, unclosed: truncated }
}

function fromExtracted(call: ExtractedCall, extra: readonly string[], before: string, context: Context): RawCall {
  const fixes: string[] = []
  for (const code of [call.format, ...call.fixes, ...extra]) if (typeof code === 'string' && code) pushFix(fixes, code)
  if (call.reader) pushFix(fixes, `reader:${call.reader}`)
  const raw: RawCall = { ...(typeof call.name === 'string' && call.name ? { name: call.name } : {}), args: call.args, fixes, before }
  if (!raw.name && call.calledName) raw.calledName = call.calledName
  // `scroll: {"down": true}`: the name written before unnamed JSON, if the JSON alone does not resolve.
  // Not for JSON that carries reflection: that is a macro input without its action, and a word in
  // the prose must not become the action the model left out.
  if (!raw.name && call.nameHint && !carriesReflection(call.args, context)) {
    raw.alternate = { name: call.nameHint, args: call.args, fixes: [...fixes, 'name-before-json'], before }
  }
  return raw
}

/** An item of a list that is a call: an envelope, or a record naming a known tool or action by a key or a discriminator. */
function isCallItem(item: unknown, context: Context): boolean {
  if (isEnvelope(item)) return true
  if (!isPlainObject(item)) return false
  return Object.keys(item).some((key) => findTool(key, context)) || discriminatedCall(item, context) !== undefined
}

function carriesReflection(args: unknown, context: Context): boolean {
  if (!isPlainObject(args)) return false
  return context.macros.some(([, tool]) => tool.macro!.reflectionKeys.some((key) => Object.hasOwn(args, key)))
}

/**
 * Several calls in one value (`[{name, arguments}, …]`, `{"tool_calls": [...]}`) become several
 * candidates, so the first VALID one is the step, not merely the first one. In a list that mixes
 * calls with other items (Anthropic content blocks: `[{"type": "text", …}, {"type": "tool_use", …}]`)
 * each call is a candidate and the other items are skipped.
 */
function expandCalls(raw: RawCall, context: Context): RawCall[] {
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
    return calls.flatMap((item) => (isEnvelope(item) ? unwrapEnvelope({ args: item, fixes: [...raw.fixes] }) : [{ args: item, fixes: [...raw.fixes] }]))
  }
  if (!isEnvelope(args) && !(Array.isArray(args) && args.length > 1)) return [raw]
  const { alternate: _hint, ...call } = raw
  const inner = unwrapEnvelope(call)
  return inner.length > 1 ? inner : [raw]
}

/** Resolves candidates in order; the first valid one wins and everything else seen is dropped. */
function pickFirst(raws: RawCall[], context: Context, tried: RawCall[]): RepairResult | undefined {
  for (let index = 0; index < raws.length; index++) {
    let outcome = resolveCall(raws[index]!, context)
    const alternate = raws[index]!.alternate
    if (!('result' in outcome) && alternate) {
      const second = resolveCall(alternate, context)
      if ('result' in second) outcome = second
    }
    // JSON that is no call itself may hold one deeper down (a whole message or response echoed as text).
    if (!('result' in outcome) && outcome.rank === Rank.NoTool && raws[index]!.name === undefined) {
      for (const nested of nestedCalls(raws[index]!, context)) {
        const trial = resolveCall(nested, context)
        if ('result' in trial) {
          outcome = trial
          break
        }
      }
    }
    if ('result' in outcome) {
      const { result } = outcome
      const dropped: DroppedCall[] = [
        ...tried.flatMap((raw) => droppedOf(raw, failureOf(raw))),
        ...raws.slice(index + 1).flatMap((raw) => droppedOf(raw, 'extra')),
        ...result.dropped,
      ]
      const fixes = [...result.fixes]
      if (dropped.length > 0) fixes.push(`dropped-calls:${dropped.length}`)
      const before = raws[index]!.before
      return before === undefined ? { ...result, fixes, dropped } : { ...result, fixes, dropped, textBefore: before }
    }
    // In the reasoning only a call of a declared tool counts: an unknown name, reflection without an
    // action or JSON naming none there is an example or data, not a failed call.
    if (context.reasoning && outcome.rank < Rank.Invalid) continue
    context.failures.push(outcome)
    // JSON that is no call at all (`[1]`, a citation) is not reported as a call that was not taken.
    if (!outcome.message) continue
    failures.set(raws[index]!, outcome.message)
    tried.push(raws[index]!)
  }
  return undefined
}

// Nodes looked at, and levels descended, when searching JSON for a call nested inside it.
const MAX_NESTED_VISITS = 2048
const MAX_NESTED_DEPTH = 16

/**
 * Calls nested inside JSON that is not a call itself — `{"role": "assistant", "tool_calls": [...]}`,
 * `{"candidates": [{"content": {"parts": [{"functionCall": …}]}}]}` — in document order. Only
 * envelopes that name a known tool or action AND carry arguments count, so a `{"name": "wait"}` in
 * nested data never turns into a call.
 */
function nestedCalls(raw: RawCall, context: Context): RawCall[] {
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

const failures = new WeakMap<RawCall, string>()
const failureOf = (raw: RawCall) => failures.get(raw) ?? 'invalid'

type Decoded = { value: unknown } | { unclosed: true } | { unparseable: string }

/** Arguments as a value: JSON text parsed (leniently when needed, any number of times), empty as `{}`. */
function decodeArguments(raw: unknown, fixes: string[]): Decoded {
  if (raw === undefined || raw === null) {
    pushFix(fixes, 'empty-arguments')
    return { value: {} }
  }
  if (typeof raw !== 'string') return { value: raw }
  let text = raw.trim()
  if (text === '' || text === 'null' || text === 'None') {
    pushFix(fixes, 'empty-arguments')
    return { value: {} }
  }
  let value: unknown
  for (let round = 0; round < 8; round++) {
    let parsed: unknown
    let ok = true
    try {
      parsed = JSON.parse(text)
    } catch {
      ok = false
    }
    if (!ok) {
      const lenient = parseLenientJson(text)
      if (lenient === undefined) {
        if (round > 0) return { value: text }
        return isTruncatedJson(text) ? { unclosed: true } : { unparseable: text }
      }
      for (const code of lenient.fixes) pushFix(fixes, code)
      parsed = lenient.value
    }
    value = parsed
    if (typeof parsed !== 'string') break
    const inner = parsed.trim()
    const first = inner.charCodeAt(0)
    // Another layer only when the string itself holds JSON; otherwise it is a bare value.
    if (first !== 123 && first !== 91 && first !== 34) break
    pushFix(fixes, 'double-encoded-arguments')
    text = inner
  }
  return { value }
}

/** Finds the tool (or the macro tool and action) a name means, spelled as {@link matchName} reads it. */
function findTool(name: string, context: Context): { toolName: string; tool: Tool; action?: string; known: string } | undefined {
  // A name loosely equal to a tool's own name and to the one it is sent under means that tool.
  const known = matchName(name, context.names) ?? (context.toOwn && matchName(name, context.ownNames))
  if (known === undefined) return undefined
  const own = context.toOwn?.get(known) ?? known
  if (Object.hasOwn(context.tools, own)) return { toolName: own, tool: context.tools[own]!, known }
  for (const [toolName, tool] of context.macros) {
    if (Object.hasOwn(tool.macro!.actions, known)) return { toolName, tool, action: known, known }
  }
  return undefined
}

/** The tool (or macro action) whose input a call named `name` carries. */
function targetOf(name: string, context: Context): Tool | undefined {
  const found = findTool(name, context)
  return found?.action ? found.tool.macro!.actions[found.action] : found?.tool
}

/** The field names of the tool or action a call named `name` goes to (none when unknown). */
function fieldsOf(name: unknown, context: Context): Set<string> {
  const target = typeof name === 'string' ? targetOf(name, context) : undefined
  return target ? fieldNames(safeJsonSchema(target)) : new Set()
}

/** The tool that JSON naming none falls to: the named `tool_choice`, or the only tool. */
function fallbackTool(context: Context): { toolName: string; tool: Tool } | undefined {
  const toolName = context.toolChoiceName ?? (context.toolNames.length === 1 ? context.toolNames[0] : undefined)
  return toolName === undefined ? undefined : { toolName, tool: context.tools[toolName]! }
}

/**
 * Whether every key of `args` is a field of the tool they go to (the named one, else the fallback):
 * then they are that tool's input (`{"step": {"name": …, "args": …}}` for a tool with a `step` field),
 * not a wrapper around another call.
 */
function isOwnInput(args: unknown, name: string | undefined, context: Context): boolean {
  const target = name !== undefined ? targetOf(name, context) : fallbackTool(context)?.tool
  return isPlainObject(args) && !!target && isFieldsOnly(args, fieldNames(safeJsonSchema(target)))
}

/** `"down=true"` or `"index: 3, text: hi"` as arguments: an object when every key is a field of the tool named. */
function readArgumentPairs(text: string, name: string | undefined, context: Context, fixes: string[]): Record<string, unknown> | undefined {
  const pairs = parseKeyValueText(text, fieldsOf(name, context))
  if (pairs) pushFix(fixes, 'argument-pairs')
  return pairs
}

/**
 * The tool or action a flat record names under a discriminator-shaped key (`{"type": "input_text",
 * "index": 3}`, `action_type`, `kind`, `name` …), with that key. Only a name {@link findTool} resolves
 * counts, so `"type": "function"` names nothing; nor does a key the fallback tool has as a field.
 */
function discriminatedCall(record: Record<string, unknown>, context: Context): { key: string; name: string } | undefined {
  const fallback = fallbackTool(context)?.tool
  const fields = fallback && !fallback.macro ? fieldNames(safeJsonSchema(fallback)) : undefined
  for (const key of discriminatorKeys(record)) {
    if (fields?.has(key)) continue
    const name = (record[key] as string).trim()
    if (findTool(name, context)) return { key, name }
  }
  return undefined
}

/** The one key of `{"search": {…}}` when it names a tool (not an action) and holds its input. */
function toolKeyOf(item: unknown, context: Context): string | undefined {
  const keys = isPlainObject(item) ? Object.keys(item) : []
  const inner = keys.length === 1 ? (item as Record<string, unknown>)[keys[0]!] : undefined
  const found = isPlainObject(inner) || typeof inner === 'string' ? findTool(keys[0]!, context) : undefined
  return found && !found.action ? keys[0] : undefined
}

/** The tool that JSON without a name belongs to, read from its keys. */
function inferTool(args: unknown, context: Context, fixes: string[]): { toolName: string; tool: Tool; args: unknown } | undefined {
  if (isPlainObject(args)) {
    const keys = Object.keys(args)
    const key = toolKeyOf(args, context)
    if (key !== undefined) {
      const named = findTool(key, context)!
      pushFix(fixes, 'tool-name-as-key')
      if (named.known !== key) pushFix(fixes, 'normalized-tool-name')
      return { ...named, args: args[key] }
    }
    for (const [toolName, tool] of context.macros) {
      const macro = tool.macro!
      const belongs = keys.some((key) => ACTION_KEY.test(key) || macro.reflectionKeys.includes(key) || findTool(key, context)?.action) || movedActionKey(args, macro)
      if (belongs) return { toolName, tool, args }
    }
  }
  if (Array.isArray(args) && context.macros.length > 0 && args.some((item) => isPlainObject(item) && Object.keys(item).some((key) => key === 'action' || findTool(key, context)))) {
    const [toolName, tool] = context.macros[0]!
    return { toolName, tool, args }
  }
  // `{"type": "input_text", "index": 3, "text": "hi"}`: a known name under a discriminator, its arguments beside it.
  const flat = isPlainObject(args) ? discriminatedCall(args, context) : undefined
  if (flat) {
    const found = findTool(flat.name, context)!
    const { [flat.key]: _name, ...rest } = args as Record<string, unknown>
    pushFix(fixes, 'flattened-action')
    if (found.known !== flat.name) pushFix(fixes, 'normalized-tool-name')
    return { toolName: found.toolName, tool: found.tool, args: found.action ? liftIntoShell(found.action, rest, found.tool, fixes) : flatInput(rest, fieldsOf(flat.name, context), fixes) }
  }
  const fallback = fallbackTool(context)
  // A macro tool only takes JSON that looks like its input (above): never guess an action from stray
  // JSON. JSON in the reasoning that names no tool is data the model read or wrote, not a call.
  if (fallback && !context.reasoning && !fallback.tool.macro && fitsTool(args, fallback.tool)) return { ...fallback, args }
  return undefined
}

/**
 * Whether JSON that names no tool is this tool's input: an object with at least one of its fields
 * (or an empty object for a tool without fields), or a list holding such an object. A sole tool
 * whose fields are all optional is not called with whatever JSON the model wrote.
 */
function fitsTool(args: unknown, tool: Tool): boolean {
  const fields = fieldNames(safeJsonSchema(tool))
  const fits = (value: unknown) => isPlainObject(value) && (fields.size === 0 ? Object.keys(value).length === 0 : Object.keys(value).some((key) => fields.has(key)))
  return fits(args) || (Array.isArray(args) && args.some(fits))
}

/** JSON that cannot be a call's input at all: a scalar, or a list without an object (`[1]`, a citation). */
const isNoInput = (args: unknown) => !isPlainObject(args) && !(Array.isArray(args) && args.some((item) => isPlainObject(item) || Array.isArray(item)))

function resolveCall(raw: RawCall, context: Context): Success | Failure {
  const fixes = [...raw.fixes]
  const dropped: DroppedCall[] = []
  let decoded = decodeArguments(raw.args, fixes)
  let name = typeof raw.name === 'string' && raw.name.trim() ? raw.name.trim() : undefined
  if ('unclosed' in decoded) {
    context.unclosed = true
    return { rank: name && findTool(name, context) ? Rank.Invalid : Rank.NoTool, message: unclosedMessage(name), ...(name ? { name } : {}) }
  }
  if ('unparseable' in decoded) {
    const pairs = readArgumentPairs(decoded.unparseable, name, context, fixes)
    // `"arguments": "scroll(down=True)"`: a call written as text, taken when it is a call of this tool.
    const call = pairs ? undefined : callInText(decoded.unparseable, raw, context)
    if (call && (!call.name || !name || findTool(call.name, context)?.toolName === findTool(name, context)?.toolName)) {
      return resolveCall({ ...raw, name: call.name ?? name, args: call.args, fixes: [...fixes, call.format, ...call.fixes, ...(call.reader ? [`reader:${call.reader}`] : [])], inner: true }, context)
    }
    if (!pairs) return { rank: name && findTool(name, context) ? Rank.Invalid : Rank.NoTool, message: `The arguments of "${name ?? 'the call'}" are not JSON: ${previewValue(decoded.unparseable)}.` }
    decoded = { value: pairs }
  }
  let args = sanitizeValue(decoded.value, fixes)
  let id = raw.id
  // `{"name": "t", "parameters": {…}}` for a sole tool `t` whose own fields are `name` and `parameters`:
  // both an envelope naming a known tool and that tool's input. The envelope's own name names the
  // call first; the object is the input only when that reading does not validate.
  if (name === undefined && isEnvelope(args) && envelopeName(args) !== undefined && isOwnInput(args, raw.calledName, context)) {
    const [first] = unwrapEnvelope({ args, fixes: [] })
    if (first?.name !== undefined && first.args !== undefined && findTool(first.name.trim(), context)) {
      const envelope = resolveCall({ ...first, fixes: [...fixes, ...first.fixes], ...(first.id ?? id ? { id: first.id ?? id } : {}), ...(raw.before ? { before: raw.before } : {}), ...(raw.inner ? { inner: true } : {}) }, context)
      if ('result' in envelope) return envelope
    }
  }

  // An envelope in the arguments: taken when the call has no name, or the envelope names a known tool or
  // action — never when every key is a field of the tool the arguments already belong to. A layer
  // that repeats the envelope (`{"name": "x", "arguments": {"name": "x", "arguments": {…}}}`) goes too.
  for (let layer = 0; layer < MAX_ENVELOPE_LAYERS; layer++) {
    if (!(isEnvelope(args) || (Array.isArray(args) && args.length > 0 && args.every(isEnvelope))) || isOwnInput(args, name ?? raw.calledName, context)) break
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
    let innerDecoded = decodeArguments(first.args, fixes)
    if ('unparseable' in innerDecoded) {
      const pairs = readArgumentPairs(innerDecoded.unparseable, name, context, fixes)
      if (pairs) innerDecoded = { value: pairs }
    }
    if (!('value' in innerDecoded)) {
      return { rank: Rank.Invalid, ...(name ? { name } : {}), message: 'unclosed' in innerDecoded ? unclosedMessage(name) : `The arguments of "${name ?? 'the call'}" are not usable JSON.` }
    }
    args = sanitizeValue(innerDecoded.value, fixes)
    // `{"name": "move", "position": {…}}`: an object taken by its role is the input only when the tool has no field of that name.
    if (first.byRole && fieldsOf(name, context).has(first.byRole.key)) args = sanitizeValue(first.byRole.record, fixes)
    for (const extra of inner.slice(1)) dropped.push(...droppedOf(extra, 'extra'))
  }
  // `web_search{…}`, `web_search({…})`, `web_search\n{…}`: the name written before JSON that names none is
  // its name, known or not; such JSON is never moved onto another tool because its keys fit.
  if (name === undefined && raw.calledName !== undefined) {
    name = raw.calledName
    pushFix(fixes, 'name-before-json')
  }

  let toolName: string
  let tool: Tool
  if (name !== undefined) {
    const found = findTool(name, context)
    if (!found) {
      return { rank: Rank.UnknownTool, name, message: `The model called an unknown tool "${previewValue(name, 80).replace(/^"|"$/g, '')}". ${availableList(undefined, context.tools)}${context.macros.length > 0 ? ` ${availableList(context.macros[0]![1], context.tools)}` : ''}` }
    }
    toolName = found.toolName
    tool = found.tool
    if (found.known !== name) pushFix(fixes, 'normalized-tool-name')
    if (found.action) {
      pushFix(fixes, 'action-as-tool')
      args = liftIntoShell(found.action, args, tool, fixes)
    }
  } else {
    const inferred = inferTool(args, context, fixes)
    if (!inferred) return { rank: Rank.NoTool, message: isNoInput(args) ? '' : `JSON that names no tool and fits none: ${previewValue(args)}.` }
    toolName = inferred.toolName
    tool = inferred.tool
    args = inferred.args
  }

  const schema = safeJsonSchema(tool)
  args = unwrapArgumentLayers(args, fieldNames(schema), fixes)
  if (typeof args === 'string' && !tool.macro) {
    const again = decodeArguments(args, fixes)
    if ('value' in again) args = sanitizeValue(again.value, fixes)
  }
  if (tool.macro) {
    const shaped = shapeMacroInput(args, tool.macro, toolName, fixes, dropped)
    // Reflection in the reasoning names no action: no fallback action is taken for it.
    if ('missingAction' in shaped || (context.reasoning && fixes.includes('fallback-action'))) {
      return {
        rank: Rank.MissingAction,
        name: toolName,
        message: `${toolName}.action: missing — the model wrote its reflection but no action. ${availableList(tool, context.tools)} (Set fallbackAction to use a default.)`,
      }
    }
    args = shaped.args
    if (isPlainObject(args)) {
      // `"action": "scroll(down=True)"`: an action written as a call in text, read by the extractor once.
      const call = callInText(args.action, raw, context)
      if (call) {
        for (const code of [call.format, ...call.fixes, call.reader && `reader:${call.reader}`]) if (code) pushFix(fixes, code)
        args.action = call.name ? { [call.name]: call.args } : call.args
        args = (shapeMacroInput(args, tool.macro, toolName, fixes, dropped) as { args: unknown }).args
      }
      if (raw.before && isPlainObject(args)) liftLabelledReflection(args, raw.before, tool.macro.reflectionKeys, fixes)
    }
  }
  // Shaping may have decoded nested JSON text: sanitise again before anything assigns its keys.
  args = sanitizeValue(args, fixes)
  if (schema) args = coerceToSchema(args, schema, fixes)
  const checked = validateSchema(tool.inputSchema, args)
  if (!checked.success) {
    return { rank: Rank.Invalid, name: toolName, message: describeIssue(toolName, tool, context.tools, args, checked.issues) }
  }
  return { result: { toolCall: { ...(id ? { id } : {}), name: toolName, args: checked.data }, tool, fixes, dropped } }
}

/** The first call written in `text` (pythonic, JSON, markup), unless `raw` itself was read that way: one level only. */
function callInText(text: unknown, raw: RawCall, context: Context): ExtractedCall | undefined {
  return typeof text === 'string' && !raw.inner ? readCalls(text, context).calls[0] : undefined
}

const readCalls = (text: string, context: Context) =>
  readCallsWith(text, context.readers, {
    names: context.names,
    fieldsOf: (name) => fieldsOf(name, context),
    schemaOf: (name) => {
      const target = targetOf(name, context)
      return target ? safeJsonSchema(target) : undefined
    },
  })

/** `click_element_by_index({"index": 3})` called as a tool → `{ action: { click_element_by_index: { index: 3 } } }`. */
function liftIntoShell(action: string, args: unknown, tool: Tool, fixes: string[]): Record<string, unknown> {
  const macro = tool.macro!
  const shell: Record<string, unknown> = {}
  if (!isPlainObject(args)) return { action: { [action]: args } }
  const fields = fieldNames(safeJsonSchema(macro.actions[action]!))
  const input: Record<string, unknown> = {}
  for (const key of Object.keys(args)) {
    // Reflection written beside the action's fields belongs in the shell, unless the action has such a field.
    if (macro.reflectionKeys.includes(key) && !fields.has(key)) shell[key] = args[key]
    else input[key] = args[key]
  }
  shell.action = { [action]: flatInput(input, fields, fixes) }
  return shell
}

function explainFailure(context: Context, answer: string, reasoning: string[], message: ChatResponseMessage): InvokeError {
  let best: Failure | undefined
  for (const failure of context.failures) if (!best || failure.rank > best.rank) best = failure
  if (best && best.rank > Rank.NoTool) return new InvokeError('invalid_tool_args', best.message)
  const said = answer.trim() || reasoning.join(' ').trim() || stringField(message.refusal).trim()
  const preview = said.slice(0, 999).replace(/\s+/g, ' ').slice(0, 200)
  // Only what the model did write is named: prose, citations and stray brackets add no detail.
  const detail = best?.message ? ` ${best.message}` : ''
  if (context.unclosed) {
    return new InvokeError(
      'no_tool_call',
      `The answer ends inside a call or JSON value that is never closed, though the output was not cut off (the model stopped on its own): malformed, not executed.${detail} Retrying usually helps.`,
    )
  }
  return new InvokeError(
    'no_tool_call',
    said
      ? `The model answered without a usable tool call: "${preview}${said.length > 200 ? '…' : ''}".${detail} Retrying usually helps; a model that never calls tools may need an adapter.`
      : `The model answered with neither a tool call nor text.${detail} Retrying usually helps.`,
  )
}

/** Arguments that end inside a value they never closed, in an answer the model ended itself. */
function unclosedMessage(name: string | undefined): string {
  return `The arguments of ${name ? previewValue(name, 80) : 'the call'} end inside a value that is never closed, though the output was not cut off: malformed, not executed.`
}

/**
 * A call that was not taken, as `dropped` reports it: its name and arguments, with an envelope the
 * reader left whole (`<tool_call>{"name", "arguments"}` blocks, LongCat, Granite lists) opened, so
 * `args` is never the raw envelope.
 */
function droppedOf(raw: RawCall, reason: string): DroppedCall[] {
  if (raw.name) return [{ name: raw.name, args: raw.args, reason }]
  const calls = isEnvelope(raw.args) || (Array.isArray(raw.args) && raw.args.length > 0 && raw.args.every(isEnvelope)) ? unwrapEnvelope({ args: raw.args, fixes: [] }) : []
  if (calls.length > 0 && calls.every((call) => call.name !== undefined)) return calls.map((call) => ({ name: call.name!, args: call.args ?? {}, reason }))
  return [{ ...(raw.calledName ? { name: raw.calledName } : {}), args: raw.args, reason }]
}
