/**
 * The reading stage: text in, calls out. It runs the step's readers over one answer text in their
 * stages (markup, then JSON values, then fallback readers over what is left), drops markup that sits
 * inside a JSON value, and hands on every call found, in text order, with whether the text ends inside
 * one. It takes the text, the readers and what the tools expect ({@link ExtractCallsOptions}) and gives
 * {@link ExtractCallsResult}. What each format looks like is its reader's (`./readers/`); what readers
 * share is in `./reading/`.
 */
// Imports in the order that bundles smallest: module order moves the gzip size (node scripts/check-size.mjs).
import { MAX_JSON_DEPTH, parseLenientJson } from './lenient-json'
import { MAX_CALLS } from './reading/limits'
import { builtInReaders } from './readers/built-in-readers'
import { addFound, createReadingContext, type BuiltInReader, type ExtractionContext, type FoundCall, type ReadingContext } from './reading/reading-context'
import type { ExtractedCall, Reader } from './reader'
import type { JsonSchemaNode } from './coerce'
import type { JsonSpan, TextRange } from './scan-json'

export type { ExtractedCall } from './reader'
export { builtInReaders, jsonReaders } from './readers/built-in-readers'

/** What the reading stage takes beside the text. */
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

/** What the reading stage gives: the calls found, in text order. */
export interface ExtractCallsResult {
  calls: ExtractedCall[]
  /** The text ends inside an unfinished call or JSON value: report `output_truncated`, never execute it. */
  truncated: boolean
  /** Where each call ends in the text (after its closer), in the order of `calls`. */
  ends?: number[]
}

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
  const { calls, truncated } = readCalls(text, options.readers ?? builtInReaders, options)
  return { calls, truncated }
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

/**
 * The text ranges of the calls `readers` find in `text`, in text order: where a reasoning marker is
 * text of a value (`<parameter=note></think></parameter>`) rather than the end of the reasoning.
 */
export function callRanges(text: string, readers: readonly Reader[], options: ExtractCallsOptions = {}): TextRange[] {
  try {
    return rangesOf(findAll(text, readers, options))
  } catch {
    return []
  }
}

const rangesOf = (context: ReadingContext): TextRange[] => context.found.map((found) => [found.call.start, found.end] as const)

function findAll(text: string, readers: readonly Reader[], options: ExtractCallsOptions): ReadingContext {
  const context = createReadingContext(text, options.names, options.fieldsOf, options.schemaOf)
  for (const stage of STAGES) {
    for (const reader of readers) {
      if ((reader.stage ?? 'markup') !== stage) continue
      runReader(reader, context)
      // Markup read inside a JSON string goes before the next reader, which may read the text around it.
      if (stage === 'markup') dropMarkupInsideJson(context)
    }
  }
  return context
}

function readCallsFrom(text: string, readers: readonly Reader[], options: ExtractCallsOptions): ExtractCallsResult {
  const context = findAll(text, readers, options)
  const claimed = rangesOf(context)
  // An unclosed opener inside a call that was read completely (a `{` in a parameter value) is not truncation.
  const truncated = context.truncated || (context.scan.truncated && !insideAny(claimed, context.scan.truncatedStart))
  const found = context.found.sort((left, right) => left.call.start - right.call.start)
  return { calls: found.map((each) => each.call), truncated, ends: found.map((each) => each.end) }
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
