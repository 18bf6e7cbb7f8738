import { trimEndOf } from '../text/trim-end-of'
import type { JsonSchemaNode } from './coerce'
import { MAX_JSON_DEPTH, parseLenientJson } from './lenient-json'
import { isSpaceCode, skipSpaces } from '../text/char-codes'
import { MAX_CALLS, addFound, cleanToolName, fenceAround, isNameCode, overlapsAny, readName } from './markup-shared'
import type { ExtractedCall, ExtractionContext, FoundCall } from './markup-shared'
import type { Reader } from './reader'
import { createReadingContext, readAlone, type BuiltInReader, type ReadingContext } from './reading-context'
import { gemmaReader, glmReader, hermesReader, keyValueReader, kimiK3Reader, minimaxM3Reader, namedElementReader, pythonicReader, specialTokenReader, xmlCallReader, xmlTreeReader, yamlReader } from './readers'
import type { JsonSpan, TextRange } from './scan-json'

export type { ExtractedCall } from './markup-shared'

export interface ExtractCallsOptions {
  /** Known tool and action names: they decide whether `foo(x=1)` in prose or a bare `foo` is a call. */
  names?: ReadonlySet<string>
  /** The field names of a known tool or action: readers of text with no other mark of a call (`scroll down=true`) take only keys that are fields. */
  fieldsOf?: (name: string) => ReadonlySet<string>
  /** The input JSON Schema of a known tool or action: markup values written as text are typed by it (see `decodeValue`). */
  schemaOf?: (name: string) => JsonSchemaNode | undefined
  /** The readers to run, in order (see {@link readCalls}); `extractCalls` defaults to every built-in reader. */
  readers?: readonly Reader[]
}

export interface ExtractCallsResult {
  calls: ExtractedCall[]
  /** The text ends inside an unfinished call or JSON value: report `output_truncated`, never execute it. */
  truncated: boolean
}

/** JSON spans looked at per message: a flood of braces costs bounded work. */
const MAX_JSON_VISITS = 256

// The stages readers run in. Markup first, each reader claiming the text it reads, so the later,
// more general ones (and the plain JSON values) never see the same call twice. JSON next: a
// `name(…)` inside a JSON string is not a call, while JSON inside a call's parentheses is that
// call's argument. Fallback readers (pythonic, YAML, key=value, a bare name) last, over what is left.
const STAGES = ['markup', 'json', 'fallback'] as const

/**
 * Finds every tool call or JSON candidate in model text, in order.
 *
 * JSON objects and arrays are found with one linear scan (fenced or not, prose around, several in a
 * row) and parsed leniently. Native markup of the model families in the field guide is read by a few
 * general parsers (special tokens as boundaries, XML-ish name/parameter pairs, `name(key=value)`
 * calls). Nothing here throws; a text that ends inside a call reports `truncated` instead of a
 * completed call.
 *
 * @example
 * ```ts
 * extractCalls('Sure! ```json\n{"name": "scroll", "arguments": {"down": true}}\n```')
 * // { calls: [{ args: { name: 'scroll', arguments: { down: true } }, format: 'content-json', fixes: ['fenced'], start: 14 }], truncated: false }
 * ```
 */
export function extractCalls(text: string, options: ExtractCallsOptions = {}): ExtractCallsResult {
  return readCalls(text, options.readers ?? builtInReaders, options)
}

/**
 * Runs `readers` over `text` — the one place that decides their order: the stages of
 * {@link Reader.stage}, and within a stage the order given — and returns the calls in text order.
 * A reader that throws is skipped; what it claimed is released.
 */
export function readCalls(text: string, readers: readonly Reader[], options: ExtractCallsOptions = {}): ExtractCallsResult {
  if (typeof text !== 'string' || text.length === 0) return { calls: [], truncated: false }
  try {
    return readCallsFrom(text, readers, options)
  } catch {
    // Defensive: a parser bug must not turn odd model output into a crash of the caller.
    return { calls: [], truncated: false }
  }
}

function readCallsFrom(text: string, readers: readonly Reader[], options: ExtractCallsOptions): ExtractCallsResult {
  const context = createReadingContext(text, options.names, options.fieldsOf, options.schemaOf)
  for (const stage of STAGES) {
    for (const reader of readers) {
      if ((reader.stage ?? 'markup') !== stage) continue
      runReader(reader, context)
      // Markup read inside a JSON string goes before the next reader, which may read the text around it.
      if (stage === 'markup') dropMarkupInsideJson(context)
    }
  }

  const claimed: TextRange[] = context.found.map((found) => [found.call.start, found.end] as const)
  // An unclosed opener inside a call that was read completely (a `{` in a parameter value) is not truncation.
  const truncated = context.truncated || (context.scan.truncated && !insideAny(claimed, context.scan.truncatedStart))
  const calls = context.found.map((found) => found.call).sort((left, right) => left.start - right.start)
  return { calls, truncated }
}

/** Runs one reader and claims what it read; a call it reports cut off marks the text truncated instead. */
function runReader(reader: Reader, context: ReadingContext): void {
  if (context.found.length >= MAX_CALLS) return
  const before = context.found.length
  let read: ReturnType<Reader['read']>
  try {
    const { recognize } = reader as Partial<BuiltInReader>
    if (typeof recognize === 'function') {
      // A built-in reader reads straight into the shared context (its scan, its claims).
      recognize(context)
      for (let index = before; index < context.found.length; index++) context.found[index]!.call.reader = reader.name
      return
    }
    read = reader.read(context.text, context)
  } catch {
    context.found.length = before
    return
  }
  if (!Array.isArray(read)) return
  for (const found of read as ReturnType<Reader['read']> & unknown[]) {
    if (typeof found !== 'object' || found === null || !Number.isInteger(found.start) || !(found.end >= found.start)) continue
    if (found.truncated) {
      context.truncated = true
      continue
    }
    const call: ExtractedCall = {
      ...(typeof found.name === 'string' ? { name: found.name } : {}),
      args: found.args,
      format: typeof found.format === 'string' && found.format ? found.format : `tool-markup:${reader.name}`,
      fixes: Array.isArray(found.fixes) ? found.fixes.filter((code) => typeof code === 'string') : [],
      start: found.start,
      reader: reader.name,
    }
    if (typeof found.nameHint === 'string') call.nameHint = found.nameHint
    addFound(context, call, found.end)
  }
}

function insideAny(ranges: readonly TextRange[], position: number): boolean {
  for (const [start, end] of ranges) if (position >= start && position < end) return true
  return false
}

/**
 * Markup that sits inside a complete JSON value is text of that value (`{"text": "<tool_call>…"}`),
 * never a call, wherever the markup's body would run: a real call's JSON body lies inside the markup,
 * not the other way round. A span that
 * opens inside another call is that call's body, read past its end through a quote in its strings
 * (`call:a{k:<escape>"<escape>}…call:b{…}`): it holds no call.
 */
function dropMarkupInsideJson(context: ExtractionContext): void {
  const { spans } = context.scan
  if (context.found.length === 0 || spans.length === 0) return
  const verdicts = new Map<JsonSpan, boolean>()
  // In text order: whether a span opens inside a call is asked of the calls kept before it.
  const kept: FoundCall[] = []
  for (const found of context.found.sort((left, right) => left.call.start - right.call.start)) {
    const span = outermostSpanAround(spans, found.call.start)
    let parses = false
    if (span && span.start < found.call.start && span.depth <= MAX_JSON_DEPTH) {
      parses = verdicts.get(span) ?? (!kept.some((other) => other.call.start < span.start && span.start < other.end) && parseLenientJson(context.text.slice(span.start, span.end)) !== undefined)
      verdicts.set(span, parses)
    }
    if (!parses) kept.push(found)
  }
  context.found = kept
}

/** The outermost span that starts at or before `position` and ends after it (spans are sorted). */
function outermostSpanAround(spans: readonly JsonSpan[], position: number): JsonSpan | undefined {
  let low = 0
  let high = spans.length - 1
  let found: JsonSpan | undefined
  while (low <= high) {
    const middle = (low + high) >> 1
    if (spans[middle]!.start <= position) {
      found = spans[middle]
      low = middle + 1
    } else high = middle - 1
  }
  return found && found.end > position ? found : undefined
}

/** JSON objects and arrays in the text, outside what markup readers took: the `json` reader. */
export function addJsonCandidates(context: ExtractionContext): void {
  const claimed: TextRange[] = context.found.map((found) => [found.call.start, found.end] as const)
  const { scan, text } = context
  // Depth-first over the span tree with an explicit stack: nesting depth must not reach the call stack.
  const pending: JsonSpan[] = [...scan.spans].reverse()
  let visits = 0
  while (pending.length > 0 && visits < MAX_JSON_VISITS && context.found.length < MAX_CALLS) {
    const span = pending.pop()!
    visits++
    // Too deep to parse, and its inner levels are no call of their own either.
    if (span.depth > MAX_JSON_DEPTH) continue
    let parsed: ReturnType<typeof parseLenientJson>
    // A claimed call may sit inside a larger span: look inside it for others.
    if (!overlapsAny(claimed, span.start, span.end)) parsed = parseLenientJson(text.slice(span.start, span.end))
    if (parsed === undefined || parsed.value === null || typeof parsed.value !== 'object') {
      const children = scan.childrenOf(span)
      for (let child = children.length - 1; child >= 0; child--) pending.push(children[child]!)
      continue
    }
    const fixes = [...parsed.fixes]
    const fence = fenceAround(context, span.start)
    if (fence) fixes.push('fenced')
    const call: ExtractedCall = { args: parsed.value, format: 'content-json', fixes, start: span.start }
    const called = fence ? undefined : nameCalling(text, span.start, span.end)
    const hint = called === undefined ? nameBefore(context, fence && fence.bodyStart <= span.start ? fence.start : span.start) : undefined
    if (called !== undefined) call.calledName = called
    else if (hint) call.nameHint = hint
    addFound(context, call, span.end)
  }
}

// Words that label a JSON block rather than name a call (`json\n{…}`, a fence's language without its
// fence), and a lone capitalised word (`Sure`, `Answer`): prose, not a tool's name.
const LABEL = /^(?:json\w*|javascript|js|python|py|text|code|tool_?code|tool_?calls?|tools?|functions?(?:_?calls?)?|calls?|output|result|response|answer|arg(?:ument)?s|param(?:eter)?s|inputs?)$/i

/**
 * The name written in a call's position right before the JSON object at `[start, end)`, known or not:
 * touching it (`web_search{…}`, Mistral's compact form with its tokens stripped), around it as the one
 * argument (`web_search({…})`), or alone on the line above it (`web_search\n{…}`). Every scan back is
 * bounded, so a flood of braces on one line costs linear time.
 */
function nameCalling(text: string, start: number, end: number): string | undefined {
  if (text.charCodeAt(start) !== 123) return undefined
  const inParentheses = text.charCodeAt(start - 1) === 40
  if (inParentheses && text.charCodeAt(skipSpaces(text, end)) !== 41) return undefined
  const nameEnd = inParentheses ? start - 1 : start
  let nameStart = nameEnd
  while (nameStart > 0 && nameEnd - nameStart < 128 && isNameCode(text.charCodeAt(nameStart - 1))) nameStart--
  if (nameStart < nameEnd) {
    // Part of a longer token (`\\frac{`, `a/b{`): no name. A tag or token may come right before it.
    const before = text.charCodeAt(nameStart - 1)
    return nameStart === 0 || isSpaceCode(before) || before === 62 || before === 93 ? calledName(text.slice(nameStart, nameEnd)) : undefined
  }
  if (inParentheses) return undefined
  // `name` alone on the line above: only spaces between the line break and the JSON.
  let lineBreak = start - 1
  while (lineBreak >= 0 && text.charCodeAt(lineBreak) !== 10 && isSpaceCode(text.charCodeAt(lineBreak))) lineBreak--
  if (text.charCodeAt(lineBreak) !== 10) return undefined
  const lineStart = Math.max(0, lineBreak - 130)
  const line = text.slice(lineStart, lineBreak)
  const from = line.lastIndexOf('\n') + 1
  return from > 0 || lineStart === 0 ? calledName(line.slice(from).trim()) : undefined
}

function calledName(raw: string): string | undefined {
  const name = cleanToolName(raw)
  return name && readName(name, 0) === name.length && !LABEL.test(name) && !/^[A-Z][a-z]*$/.test(name) ? name : undefined
}

// Words looked at before a JSON value for a name hint, and how far back on its line.
const HINT_WINDOW = 80
const WORD = /[A-Za-z_][\w.:-]*/g

/** The nearest known name written before `position` on the same line, as a whole word. */
function nameBefore(context: ExtractionContext, position: number): string | undefined {
  const { names, text } = context
  if (!names || names.size === 0 || position === 0) return undefined
  const lineStart = text.lastIndexOf('\n', position - 1) + 1
  const window = text.slice(Math.max(lineStart, position - HINT_WINDOW), position)
  const words = window.match(WORD)
  if (!words) return undefined
  for (let index = words.length - 1; index >= 0; index--) {
    const name = cleanToolName(trimEndOf(words[index]!, '.:-'))
    if (names.has(name)) return name
  }
  return undefined
}

/** A whole answer that is only a known action name (`done`, `` `wait` ``): that action, no arguments. */
export function recognizeBareName(context: ExtractionContext): void {
  if (context.found.length > 0 || !context.names || context.text.length > 256) return
  const bare = trimEndOf(context.text.trim().replace(/^[`'"*]+/, ''), '`\'"*.!').trim()
  const name = cleanToolName(bare)
  if (context.names.has(name)) addFound(context, { name, args: {}, format: 'bare-name', fixes: [], start: context.text.indexOf(bare) }, context.text.length)
}

/**
 * JSON objects and arrays anywhere in the text — bare, fenced, several in a row, prose around —
 * parsed leniently (`content-json`). Envelopes (`{name, arguments}`) are left for the repair to
 * unwrap; a known name written just before a value on its line is its `nameHint`.
 *
 * @example
 * ```ts
 * const client = createClient({ baseURL, model, readers: [hermesReader] }) // jsonReader is always there
 * ```
 */
export const jsonReader: BuiltInReader = {
  name: 'json',
  formats: ['content-json'],
  stage: 'json',
  recognize: addJsonCandidates,
  read: (text, context) => readAlone(jsonReader, text, context),
}

/**
 * A whole answer that is only a known action name (`done`, `` `wait` ``): that action with no
 * arguments (`bare-name`). Only for short answers in which nothing else was found.
 *
 * @example
 * ```ts
 * bareNameReader.read('`done`', { names: new Set(['done']), claimed: () => false }) // [{ name: 'done', args: {}, … }]
 * ```
 */
export const bareNameReader: BuiltInReader = {
  name: 'bare-name',
  formats: ['bare-name'],
  stage: 'fallback',
  recognize: recognizeBareName,
  read: (text, context) => readAlone(bareNameReader, text, context),
}

/**
 * Every built-in reader, in the order they run within each stage: what the default `@wildcall/sdk`
 * client reads (the autoFixer). Pass it to a `@wildcall/sdk/core` client to read the same.
 *
 * @example
 * ```ts
 * import { createClient } from '@wildcall/sdk/core'
 * import { builtInReaders } from '@wildcall/sdk'
 * const client = createClient({ baseURL, model, readers: builtInReaders })
 * ```
 */
export const builtInReaders: readonly Reader[] = [
  kimiK3Reader,
  minimaxM3Reader,
  xmlCallReader,
  namedElementReader,
  glmReader,
  hermesReader,
  xmlTreeReader,
  specialTokenReader,
  gemmaReader,
  jsonReader,
  pythonicReader,
  yamlReader,
  keyValueReader,
  bareNameReader,
]

/** The readers a `@wildcall/sdk/core` client has without being given more: JSON values only. */
export const jsonReaders: readonly Reader[] = [jsonReader]
