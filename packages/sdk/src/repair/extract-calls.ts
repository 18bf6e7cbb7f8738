import { trimEndOf } from '../text/trim-end-of'
import type { JsonSchemaNode } from './coerce'
import { MAX_JSON_DEPTH, parseLenientJson } from './lenient-json'
import { recognizeGemmaCalls } from './markup-gemma'
import { recognizeKeyValueCalls } from './markup-key-value'
import { recognizePythonicCalls } from './markup-pythonic'
import { MAX_CALLS, addFound, cleanToolName, fenceAround, findFences, findSpecialTokens, isNameCode, isSpaceCode, overlapsAny, readName, skipSpaces, tokenStartingAt } from './markup-shared'
import type { ExtractedCall, ExtractionContext } from './markup-shared'
import { recognizeTokenCalls } from './markup-tokens'
import { recognizeArgumentPairs, recognizeElementTrees, recognizeNamedElements, recognizeWrappers, recognizeXmlCalls } from './markup-xml'
import { recognizeYamlCalls } from './markup-yaml'
import { scanJson } from './scan-json'
import type { JsonSpan, TextRange } from './scan-json'

export type { ExtractedCall } from './markup-shared'

export interface ExtractCallsOptions {
  /** Known tool and action names: they decide whether `foo(x=1)` in prose or a bare `foo` is a call. */
  names?: ReadonlySet<string>
  /** The field names of a known tool or action: readers of text with no other mark of a call (`scroll down=true`) take only keys that are fields. */
  fieldsOf?: (name: string) => ReadonlySet<string>
  /** The input JSON Schema of a known tool or action: markup values written as text are typed by it (see `decodeValue`). */
  schemaOf?: (name: string) => JsonSchemaNode | undefined
}

export interface ExtractCallsResult {
  calls: ExtractedCall[]
  /** The text ends inside an unfinished call or JSON value: report `output_truncated`, never execute it. */
  truncated: boolean
}

/** JSON spans looked at per message: a flood of braces costs bounded work. */
const MAX_JSON_VISITS = 256

// Markup recognizers, most specific first: each claims the text it reads, so the later, more
// general ones (and the plain JSON candidates) never see the same call twice.
const MARKUP_RECOGNIZERS: ReadonlyArray<(context: ExtractionContext) => void> = [
  recognizeXmlCalls,
  recognizeNamedElements,
  recognizeArgumentPairs,
  recognizeWrappers,
  recognizeElementTrees,
  recognizeTokenCalls,
  recognizeGemmaCalls,
]
// Run after the JSON candidates: a `name(…)` inside a JSON string is not a call, while JSON inside
// a call's parentheses is that call's argument. The YAML and key-value readers only read a text in which
// nothing else was found.
const LATE_RECOGNIZERS: ReadonlyArray<(context: ExtractionContext) => void> = [recognizePythonicCalls, recognizeYamlCalls, recognizeKeyValueCalls, recognizeBareName]

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
  if (typeof text !== 'string' || text.length === 0) return { calls: [], truncated: false }
  try {
    return extractCallsFrom(text, options)
  } catch {
    // Defensive: a parser bug must not turn odd model output into a crash of the caller.
    return { calls: [], truncated: false }
  }
}

function extractCallsFrom(text: string, options: ExtractCallsOptions): ExtractCallsResult {
  const tokens = findSpecialTokens(text)
  const context: ExtractionContext = {
    text,
    names: options.names,
    fieldsOf: options.fieldsOf,
    schemaOf: options.schemaOf,
    tokens,
    tokenAt: (offset) => tokenStartingAt(tokens, offset),
    scan: scanJson(text, tokens),
    fences: findFences(text),
    found: [],
    truncated: false,
  }
  for (const recognize of MARKUP_RECOGNIZERS) {
    if (context.found.length >= MAX_CALLS) break
    recognize(context)
  }
  dropMarkupInsideJson(context)
  addJsonCandidates(context)
  for (const recognize of LATE_RECOGNIZERS) {
    if (context.found.length >= MAX_CALLS) break
    recognize(context)
  }

  const claimed: TextRange[] = context.found.map((found) => [found.call.start, found.end] as const)
  // An unclosed opener inside a call that was read completely (a `{` in a parameter value) is not truncation.
  const truncated = context.truncated || (context.scan.truncated && !insideAny(claimed, context.scan.truncatedStart))
  const calls = context.found.map((found) => found.call).sort((left, right) => left.start - right.start)
  return { calls, truncated }
}

function insideAny(ranges: readonly TextRange[], position: number): boolean {
  for (const [start, end] of ranges) if (position >= start && position < end) return true
  return false
}

/**
 * Markup that sits inside a complete JSON value is text of that value (`{"text": "<tool_call>…"}`),
 * never a call: a real call's JSON body lies inside the markup, not the other way round.
 */
function dropMarkupInsideJson(context: ExtractionContext): void {
  const { spans } = context.scan
  if (context.found.length === 0 || spans.length === 0) return
  const verdicts = new Map<JsonSpan, boolean>()
  context.found = context.found.filter((found) => {
    const span = outermostSpanAround(spans, found.call.start)
    if (!span || span.start >= found.call.start || found.end > span.end || span.depth > MAX_JSON_DEPTH) return true
    let parses = verdicts.get(span)
    if (parses === undefined) {
      parses = parseLenientJson(context.text.slice(span.start, span.end)) !== undefined
      verdicts.set(span, parses)
    }
    return !parses
  })
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

function addJsonCandidates(context: ExtractionContext): void {
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
function recognizeBareName(context: ExtractionContext): void {
  if (context.found.length > 0 || !context.names || context.text.length > 256) return
  const bare = trimEndOf(context.text.trim().replace(/^[`'"*]+/, ''), '`\'"*.!').trim()
  const name = cleanToolName(bare)
  if (context.names.has(name)) addFound(context, { name, args: {}, format: 'bare-name', fixes: [], start: context.text.indexOf(bare) }, context.text.length)
}
