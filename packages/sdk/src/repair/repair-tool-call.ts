/**
 * The repair: an assistant message in, exactly one validated tool call out. This module owns the
 * public entry points and the order of the stages; it holds no stage itself. The stages, each a
 * module that takes what the one before it gave:
 *
 * 1. split the reasoning from the answer (`split-reasoning`);
 * 2. read the candidate calls: native ones, then those the readers find in the answer, then in the
 *    reasoning (`read-candidates`); several calls in one value become several (`unwrap-call`);
 * 3. per candidate: decode its arguments (`decode-call`) → unwrap its envelopes (`unwrap-call`) →
 *    resolve the tool (`resolve-tool`) → shape and coerce by the schema (`shape-arguments`) →
 *    validate (`validate-call`);
 * 4. pick the first valid candidate, dropping the others, or explain the failure (`pick-call`).
 *
 * No stage calls an earlier one. Where the repair does go back, the step is written here, in
 * {@link resolveCall} and `pickFirst`: text that is itself a call (arguments or an action written as
 * one) is read by the readers once more (never twice: `inner`), an envelope that is also the tool's
 * input is tried by its own reading first, and JSON that is no call is searched for nested calls;
 * each becomes a new candidate that runs through step 3 from the start. That recursion is the one
 * loop left, and it is bounded: every re-entry is a candidate read out of a smaller value.
 */
// Imports in the order that bundles smallest: module order moves the gzip size (node scripts/check-size.mjs).
import { errorMessage, InvokeError, isInvokeError } from '../errors/invoke-error'
import { assertTool } from '../tool/define-tool'
import { resolveTool } from './resolve-tool'
import { envelopeReading, nestedCalls, unwrapLayers } from './unwrap-call'
import { callInArguments, callInText, callRangesIn, candidatesIn, nativeCandidates } from './read-candidates'
import { validateSchema } from '../tool/schema'
import { isReaderList, READER_LIST_RULE } from '../util/is-record'
import { isPlainObject } from './coerce'
import { decodeCall } from './decode-call'
import { validateCall } from './validate-call'
import { wireNames } from '../tool/wire-names'
import { builtInReaders, jsonReaders } from './extract-calls'
import { decodeEscapedText } from './lenient-json'
import { composeReaders, type Reader } from './reader'
import { decodeXmlReferences } from './reading/decode-xml-references'
import { shownToUser } from './shown-to-user'
import { createContext, Rank, stringField, type Context, type Failure, type Success } from './repair-context'
import { coerceArguments, shapeArguments } from './shape-arguments'
import { explainFailure, pickCall, recordFailure } from './pick-call'
import { safeJsonSchema } from './safe-json-schema'
import { readContent, splitReasoning } from './split-reasoning'
import { isEnvelope, type RawCall } from './unwrap'
import type { Tool, ToolSet } from '../tool/types'
import type { ChatResponseMessage, DroppedCall, ToolCall } from '../types'

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

function repairMessage(message: ChatResponseMessage, tools: ToolSet, options: RepairOptions, readers: readonly Reader[]): RepairResult {
  if (typeof message !== 'object' || message === null) {
    throw new InvokeError('invalid_schema', 'The response message is not an object.')
  }
  const context = createContext(tools, options, readers)
  const tried: RawCall[] = []

  // 1. Native calls: every tool_calls entry, then the legacy function_call.
  const fromNative = pickFirst(nativeCandidates(message, context), context, tried)
  if (fromNative) return fromNative

  // 2. Calls written into the content, outside any reasoning block.
  const { text: content, reasoning: reasoningParts } = readContent(message.content)
  const split = content ? splitReasoning(content, (text) => callRangesIn(text, context)) : { answer: '', reasoning: '', fixes: [] }
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

/**
 * Resolves candidates in order, each failing one by its other reading (a name hint), then by the
 * calls nested in it; the first valid one wins and everything else seen is dropped.
 */
function pickFirst(raws: RawCall[], context: Context, tried: RawCall[]): RepairResult | undefined {
  for (let index = 0; index < raws.length; index++) {
    const raw = raws[index]!
    let outcome = resolveCall(raw, context)
    const alternate = raw.alternate
    if (!('result' in outcome) && alternate) {
      const second = resolveCall(alternate, context)
      if ('result' in second) outcome = second
    }
    // JSON that is no call itself may hold one deeper down (a whole message or response echoed as text).
    if (!('result' in outcome) && outcome.rank === Rank.NoTool && raw.name === undefined) {
      for (const nested of nestedCalls(raw, context)) {
        const trial = resolveCall(nested, context)
        if ('result' in trial) {
          outcome = trial
          break
        }
      }
    }
    if ('result' in outcome) return pickCall(outcome.result, raws, index, tried, context)
    recordFailure(outcome, raw, context, tried)
  }
  return undefined
}

/**
 * One candidate through the stages, each handing its value to the next: decode → unwrap → resolve the
 * tool → shape and coerce → validate. Text that is itself a call goes back to the readers here, once.
 */
function resolveCall(raw: RawCall, context: Context): Success | Failure {
  const decoded = decodeCall(raw, context)
  if ('rank' in decoded) {
    // `"arguments": "scroll(down=True)"`: a call written as text, taken when it is a call of this tool.
    const written = decoded.text !== undefined && callInArguments(decoded.text, decoded.name, raw, context)
    return written ? resolveCall(written, context) : decoded
  }
  const envelope = envelopeReading(decoded, raw, context)
  if (envelope) {
    const outcome = resolveCall(envelope, context)
    if ('result' in outcome) return outcome
  }
  const opened = unwrapLayers(decoded, raw, context)
  if ('rank' in opened) return opened
  const resolved = resolveTool(opened, raw, context)
  if ('rank' in resolved) return resolved
  const shaped = shapeArguments(resolved, context)
  if ('rank' in shaped) return shaped
  // `"action": "scroll(down=True)"`: an action written as a call in text, read by the readers once.
  const action = shaped.tool.macro && isPlainObject(shaped.args) ? callInText(shaped.args.action, raw, context) : undefined
  return validateCall(coerceArguments(shaped, action, raw.before), context)
}
