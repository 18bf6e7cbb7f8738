import { parseLenientJson } from './lenient-json'
import { recognizeGemmaCalls } from './markup-gemma'
import { recognizePythonicCalls } from './markup-pythonic'
import { MAX_CALLS, addFound, cleanToolName, fenceAround, findFences, findSpecialTokens, overlapsAny, rangesOf } from './markup-shared'
import type { ExtractedCall, ExtractionContext } from './markup-shared'
import { recognizeTokenCalls } from './markup-tokens'
import { recognizeArgumentPairs, recognizeWrappers, recognizeXmlCalls } from './markup-xml'
import { scanJson } from './scan-json'
import type { JsonSpan, TextRange } from './scan-json'

export type { ExtractedCall } from './markup-shared'


export interface ExtractCallsOptions {
  /** Known tool and action names: they decide whether `foo(x=1)` in prose or a bare `foo` is a call. */
  names?: ReadonlySet<string>
}

export interface ExtractCallsResult {
  calls: ExtractedCall[]
  /** The text ends inside an unfinished call or JSON value: report `output_truncated`, never execute it. */
  truncated: boolean
}

/** Parse attempts on JSON candidates per message: a flood of braces costs bounded work. */
const MAX_JSON_ATTEMPTS = 256

// Markup recognizers, most specific first: each claims the text it reads, so the later, more
// general ones (and the plain JSON candidates) never see the same call twice.
const MARKUP_RECOGNIZERS: ReadonlyArray<(context: ExtractionContext) => void> = [
  recognizeXmlCalls,
  recognizeArgumentPairs,
  recognizeWrappers,
  recognizeTokenCalls,
  recognizeGemmaCalls,
]
// Run after the JSON candidates: a `name(…)` inside a JSON string is not a call, while JSON inside
// a call's parentheses is that call's argument.
const LATE_RECOGNIZERS: ReadonlyArray<(context: ExtractionContext) => void> = [recognizePythonicCalls, recognizeBareName]

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
 * // { calls: [{ args: { name: 'scroll', arguments: { down: true } }, format: 'content-json', fixes: ['fenced'], start: 15 }], truncated: false }
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
    tokens,
    tokenAt: new Map(tokens.map((token) => [token.start, token])),
    scan: scanJson(text, rangesOf(tokens)),
    fences: findFences(text),
    found: [],
    truncated: false,
  }
  for (const recognize of MARKUP_RECOGNIZERS) {
    if (context.found.length >= MAX_CALLS) break
    recognize(context)
  }
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

function addJsonCandidates(context: ExtractionContext): void {
  const claimed: TextRange[] = context.found.map((found) => [found.call.start, found.end] as const)
  let attempts = 0
  const visit = (span: JsonSpan): void => {
    if (attempts >= MAX_JSON_ATTEMPTS || context.found.length >= MAX_CALLS) return
    if (overlapsAny(claimed, span.start, span.end)) {
      // A claimed call may sit inside a larger unparseable span; look inside for others.
      for (const child of span.children) visit(child)
      return
    }
    attempts++
    const parsed = span.depth <= 64 ? parseLenientJson(context.text.slice(span.start, span.end)) : undefined
    if (parsed === undefined || parsed.value === null || typeof parsed.value !== 'object') {
      for (const child of span.children) visit(child)
      return
    }
    const fixes = [...parsed.fixes]
    if (fenceAround(context, span.start)) fixes.push('fenced')
    addFound(context, { args: parsed.value, format: 'content-json', fixes, start: span.start }, span.end)
  }
  for (const span of context.scan.spans) {
    if (attempts >= MAX_JSON_ATTEMPTS) break
    visit(span)
  }
}

/** A whole answer that is only a known action name (`done`, `` `wait` ``): that action, no arguments. */
function recognizeBareName(context: ExtractionContext): void {
  if (context.found.length > 0 || !context.names || context.text.length > 256) return
  const bare = context.text
    .trim()
    .replace(/^[`'"*]+|[`'"*.!]+$/g, '')
    .trim()
  const name = cleanToolName(bare)
  if (context.names.has(name)) addFound(context, { name, args: {}, format: 'bare-name', fixes: [], start: context.text.indexOf(bare) }, context.text.length)
}
