import { findFences, findSpecialTokens } from './markup-shared'
import type { ExtractionContext } from './markup-shared'
import type { Reader, ReaderCall, ReaderContext } from './reader'
import { scanJson } from './scan-json'

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
