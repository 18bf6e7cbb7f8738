/**
 * The context the readers of one text share: the text scanned once (special tokens, JSON spans,
 * fences), what the tools expect, and the calls found so far, each claiming its range. A built-in
 * reader reads straight into it (`recognize`); `readAlone` runs one on a context of its own.
 */
import type { JsonSchemaNode } from '../coerce'
import type { ExtractedCall, Reader, ReaderCall, ReaderContext } from '../reader'
import { scanJson, type JsonScanResult } from '../scan-json'
import { findFences, type Fence } from './fences'
import { MAX_CALLS } from './limits'
import { findSpecialTokens, type TokenSpan } from './special-tokens'

/** A call plus the text range it was read from. */
export interface FoundCall {
  call: ExtractedCall
  end: number
}

/** What every markup recognizer gets: the text and the structure found in one pass over it. */
export interface ExtractionContext {
  text: string
  names: ReadonlySet<string> | undefined
  /** The special tokens of the text, in order (`tokenAt` and `tokenName` of `./special-tokens` read them). */
  tokens: TokenSpan[]
  scan: JsonScanResult
  fences: Fence[]
  /** The field names of a known tool or action: what readers that carry no other evidence of a call check keys against. */
  fieldsOf?: (name: string) => ReadonlySet<string>
  /** The input JSON Schema of a known tool or action: what decides the type of a value a markup format wrote as text. */
  schemaOf?: (name: string) => JsonSchemaNode | undefined
  /** Calls found so far, with their ranges; later recognizers skip text that is already claimed. */
  found: FoundCall[]
  /** Whether `[start, end)` overlaps a call found so far (an empty range: whether a call holds it strictly inside). */
  claimed(start: number, end: number): boolean
  truncated: boolean
}

/** Claims `[call.start, end)` unless it overlaps a call found earlier. */
export function addFound(context: ExtractionContext, call: ExtractedCall, end: number): boolean {
  if (context.found.length >= MAX_CALLS) return false
  if (context.claimed(call.start, end)) return false
  context.found.push({ call, end })
  return true
}

/**
 * Claims a call whose arguments parsed as literals from `bodyStart` to `end` (a Python or Gemma call):
 * a call another reader found starting in there sat in one of its strings (`'<function=f>'`), so it is
 * dropped first. Reports whether the call was claimed.
 */
export function addOver(context: ExtractionContext, call: ExtractedCall, bodyStart: number, end: number): boolean {
  if (context.found.some((found) => found.call.start > bodyStart && found.call.start < end)) {
    context.found = context.found.filter((found) => !(found.call.start > bodyStart && found.call.start < end))
  }
  return addFound(context, call, end)
}

/** The context all readers of one text share: the public {@link ReaderContext} over the one scan the built-in readers use. */
export type ReadingContext = ExtractionContext & ReaderContext

/** A built-in reader: its `recognize` reads straight into the shared context of a step. */
export interface BuiltInReader extends Reader {
  recognize(context: ExtractionContext): void
}

/** Scans `text` once (special tokens, JSON spans, fences) for every reader that reads it. */
export function createReadingContext(
  text: string,
  names: ReadonlySet<string> | undefined,
  fieldsOf: ((name: string) => ReadonlySet<string>) | undefined,
  schemaOf?: ExtractionContext['schemaOf'],
): ReadingContext {
  const tokens = findSpecialTokens(text)
  const context: ReadingContext = {
    text,
    names,
    fieldsOf,
    schemaOf,
    tokens,
    scan: scanJson(text, tokens),
    fences: findFences(text),
    found: [],
    truncated: false,
    claimed: (start, end) => context.found.some((found) => start < found.end && found.call.start < end),
  }
  return context
}

/**
 * A built-in reader's public `read`: `recognize` on a context of its own, then the calls it found
 * outside what `context` says is claimed. A text that ends inside a call gives one call marked `truncated`.
 */
export function readAlone(reader: BuiltInReader, text: string, context: ReaderContext): ReaderCall[] {
  const reading = createReadingContext(text, context.names, context.fieldsOf, context.schemaOf)
  reader.recognize(reading)
  const calls: ReaderCall[] = reading.found.filter((found) => !context.claimed?.(found.call.start, found.end)).map(({ call, end }) => ({ ...call, end }))
  if (reading.truncated) calls.push({ args: undefined, format: reader.formats[0] ?? `tool-markup:${reader.name}`, fixes: [], start: text.length, end: text.length, truncated: true })
  return calls
}
