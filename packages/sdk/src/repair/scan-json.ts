/**
 * One linear pass over model text that finds every balanced JSON-ish object or array.
 *
 * The seed used a greedy regex to find `{…}` in content, which is quadratic on text with many
 * braces. This scanner reads each character once, keeps an explicit stack of openers, tracks
 * strings (double quotes, and Python-style single quotes where a value may start) and escapes,
 * and records a span for every opener that gets closed. Nothing here parses: callers decide which
 * spans hold JSON.
 */

import { isSpaceCode, isWordCode, skipSpaces } from '../text/char-codes'

/** A balanced `{…}` or `[…]` region of the text. */
export interface JsonSpan {
  /** Offset of the opening bracket. */
  start: number
  /** Offset just after the closing bracket. */
  end: number
  /** Deepest nesting inside the span (1 for `{}`). */
  depth: number
  /** Position of the span in the scan's post-order record (for {@link JsonScanResult.childrenOf}). */
  index: number
}

export interface JsonScanResult {
  /** The outermost balanced spans, in order of their start (none from inside an unclosed opener). */
  spans: JsonSpan[]
  /** The balanced spans directly inside `span`, in order. */
  childrenOf(span: JsonSpan): JsonSpan[]
  /** Offset just after the closer of the balanced span opened at `start`, or -1. */
  endOf(start: number): number
  /** An opened JSON-like value (or a string inside one) was never closed before the end. */
  truncated: boolean
  /** Offset of the outermost JSON-like opener that was never closed, or -1. */
  truncatedStart: number
}

/** A half-open `[start, end)` range. */
export type TextRange = readonly [start: number, end: number]

const OPEN_BRACE = 123 // {
const CLOSE_BRACE = 125 // }
const OPEN_BRACKET = 91 // [
const CLOSE_BRACKET = 93 // ]
const DOUBLE_QUOTE = 34
const SINGLE_QUOTE = 39
const BACKSLASH = 92

const isIdentifierCode = (code: number) => isWordCode(code) || code === 36 || code === 45

function previousSignificant(text: string, index: number, floor: number): number {
  let cursor = index - 1
  // Bounded look-back: a quote after a long run of spaces is judged on the spaces alone.
  const limit = Math.max(floor, index - 256)
  while (cursor >= limit && isSpaceCode(text.charCodeAt(cursor))) cursor--
  return cursor >= limit ? text.charCodeAt(cursor) : -1
}

/**
 * Whether a single quote at `index` opens a Python-style string: only where a JSON value or key may
 * start, so an apostrophe in prose or inside a word (`what's`) never does.
 */
export function opensSingleQuotedString(text: string, index: number, floor = 0): boolean {
  const previous = previousSignificant(text, index, floor)
  return previous === OPEN_BRACE || previous === OPEN_BRACKET || previous === 44 || previous === 58 || previous === 40 || previous === 61
}

/**
 * Whether a double quote at `index` is a stray closing quote rather than an opening one: it follows
 * a word character directly, as in `{index": 3}` (a key that lost its opening quote). A real string
 * never starts there, and treating it as one would swallow the rest of the value.
 */
export function isStrayQuote(text: string, index: number): boolean {
  return index > 0 && isWordCode(text.charCodeAt(index - 1))
}

/**
 * Whether a single quote at `index` closes a Python-style string: it must be followed by a
 * delimiter (`,`, `:`, `}`, `]`, `)`), a line break, or the end of the text.
 */
export function closesSingleQuotedString(text: string, index: number, end: number): boolean {
  let cursor = index + 1
  while (cursor < end) {
    const code = text.charCodeAt(cursor)
    if (code === 10 || code === 13) return true
    if (code === 32 || code === 9) {
      cursor++
      continue
    }
    return code === 44 || code === 58 || code === CLOSE_BRACE || code === CLOSE_BRACKET || code === 41
  }
  return true
}

const LITERAL_WORDS = ['true', 'false', 'null', 'True', 'False', 'None']

/**
 * Whether the opener at `index` starts something that looks like JSON rather than prose
 * (`{ see below }`, `[TOOL_CALLS]`, `[scroll(down=True)]`).
 */
export function looksLikeJsonOpener(text: string, index: number, end = text.length): boolean {
  const open = text.charCodeAt(index)
  const next = skipSpaces(text, index + 1, end)
  if (next >= end) return true
  const code = text.charCodeAt(next)
  if (code === DOUBLE_QUOTE || code === SINGLE_QUOTE || code === OPEN_BRACE || code === OPEN_BRACKET) return true
  if (open === OPEN_BRACE) {
    if (code === CLOSE_BRACE) return true
    // An unquoted key: `{down: true}`.
    let cursor = next
    const limit = Math.min(end, next + 64)
    while (cursor < limit && isIdentifierCode(text.charCodeAt(cursor))) cursor++
    if (cursor === next) return false
    cursor = skipSpaces(text, cursor, Math.min(end, cursor + 16))
    return cursor >= end || text.charCodeAt(cursor) === 58
  }
  if (code === CLOSE_BRACKET || code === 45 || (code >= 48 && code <= 57)) return true
  for (const word of LITERAL_WORDS) {
    if (text.startsWith(word, next) && !isIdentifierCode(text.charCodeAt(next + word.length))) return true
  }
  return false
}

function grow(array: Int32Array): Int32Array {
  const larger = new Int32Array(array.length * 2)
  larger.set(array)
  return larger
}

/**
 * Finds every balanced JSON-ish object or array in `text` in one pass.
 *
 * `skip` lists sorted, non-overlapping `{ start, end }` ranges (special tokens) that are jumped over outside strings,
 * so `[TOOL_CALLS]` or `<|call|>` never count as brackets. Spans are recorded in flat arrays in the
 * order they close (post-order), so a flood of brackets allocates no object per bracket; the tree is
 * read back on demand.
 *
 * @example
 * ```ts
 * const { spans } = scanJson('First {"a": 1} then [2, 3].')
 * spans.map((span) => [span.start, span.end]) // [[6, 14], [20, 26]]
 * ```
 */
export function scanJson(text: string, skip: ReadonlyArray<{ readonly start: number; readonly end: number }> = []): JsonScanResult {
  const length = text.length
  // Closed spans in post-order: a span's descendants are the records in [first, own index).
  // Typed arrays that double when full: plain arrays of a million pushes cost far more.
  let spanStarts: Int32Array = new Int32Array(64)
  let spanEnds: Int32Array = new Int32Array(64)
  let spanDepths: Int32Array = new Int32Array(64)
  let spanFirsts: Int32Array = new Int32Array(64)
  let spanCount = 0
  // Openers still waiting for their closer; `openDepths` holds the deepest closed child so far.
  let openPositions: Int32Array = new Int32Array(64)
  let openCodes: Int32Array = new Int32Array(64)
  let openFirsts: Int32Array = new Int32Array(64)
  let openDepths: Int32Array = new Int32Array(64)
  let openCount = 0
  let openBraces = 0
  let openBrackets = 0
  let skipIndex = 0
  let inString = 0 // 0, DOUBLE_QUOTE or SINGLE_QUOTE
  let index = 0

  while (index < length) {
    const code = text.charCodeAt(index)
    if (inString !== 0) {
      if (code === BACKSLASH) {
        index += 2
        continue
      }
      if (code === inString && (inString === DOUBLE_QUOTE || closesSingleQuotedString(text, index, length))) inString = 0
      index++
      continue
    }
    if (skipIndex < skip.length) {
      while (skipIndex < skip.length && skip[skipIndex]!.end <= index) skipIndex++
      if (skipIndex < skip.length && skip[skipIndex]!.start <= index) {
        index = skip[skipIndex]!.end
        continue
      }
    }
    if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (openCount > 0 || looksLikeJsonOpener(text, index, length)) {
        if (openCount === openPositions.length) {
          openPositions = grow(openPositions)
          openCodes = grow(openCodes)
          openFirsts = grow(openFirsts)
          openDepths = grow(openDepths)
        }
        openPositions[openCount] = index
        openCodes[openCount] = code
        openFirsts[openCount] = spanCount
        openDepths[openCount] = 0
        openCount++
        if (code === OPEN_BRACE) openBraces++
        else openBrackets++
      }
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      const want = code === CLOSE_BRACE ? OPEN_BRACE : OPEN_BRACKET
      // A closer with no matching opener is prose or a stray `}]}`: ignore it. One whose opener sits
      // deeper in the stack closes the unclosed openers above it (`{"a": [1}`), as jsonrepair would;
      // their closed children become children of the span.
      if ((want === OPEN_BRACE ? openBraces : openBrackets) > 0) {
        let childDepth = 0
        for (;;) {
          openCount--
          const openCode = openCodes[openCount]!
          const deepest = openDepths[openCount]!
          if (deepest > childDepth) childDepth = deepest
          if (openCode === OPEN_BRACE) openBraces--
          else openBrackets--
          if (openCode === want) {
            if (spanCount === spanStarts.length) {
              spanStarts = grow(spanStarts)
              spanEnds = grow(spanEnds)
              spanDepths = grow(spanDepths)
              spanFirsts = grow(spanFirsts)
            }
            spanStarts[spanCount] = openPositions[openCount]!
            spanEnds[spanCount] = index + 1
            spanDepths[spanCount] = childDepth + 1
            spanFirsts[spanCount] = openFirsts[openCount]!
            spanCount++
            const top = openCount - 1
            if (top >= 0 && openDepths[top]! < childDepth + 1) openDepths[top] = childDepth + 1
            break
          }
        }
      }
    } else if (openCount > 0 && ((code === DOUBLE_QUOTE && !isStrayQuote(text, index)) || (code === SINGLE_QUOTE && opensSingleQuotedString(text, index, openPositions[0]!)))) {
      inString = code
    }
    index++
  }

  const spanAt = (record: number): JsonSpan => ({ start: spanStarts[record]!, end: spanEnds[record]!, depth: spanDepths[record]!, index: record })
  // Walking back from a record through `first - 1` visits the roots of consecutive subtrees.
  const rootsBetween = (from: number, to: number): JsonSpan[] => {
    const roots: JsonSpan[] = []
    for (let record = to - 1; record >= from; record = spanFirsts[record]! - 1) roots.push(spanAt(record))
    return roots.reverse()
  }
  // Spans inside an opener that never closed are pieces of a cut value, not candidates of their own —
  // unless one opens where no value may go on (not after `[`, `,` or `:`; `{"a": {…}\n{…}}`): the
  // value before it broke off there, and the span is a value of its own.
  const spans = rootsBetween(0, spanCount)
  const kept = openCount > 0 ? spans.filter((span) => span.start < openPositions[0]! || ![OPEN_BRACKET, 44, 58].includes(previousSignificant(text, span.start, 0))) : spans
  let endByStart: Int32Array | undefined
  return {
    spans: kept,
    childrenOf: (span) => rootsBetween(spanFirsts[span.index]!, span.index),
    endOf: (start) => {
      if (!endByStart) {
        endByStart = new Int32Array(length + 1)
        for (let record = 0; record < spanCount; record++) endByStart[spanStarts[record]!] = spanEnds[record]!
      }
      return start >= 0 && start < length && endByStart[start]! > 0 ? endByStart[start]! : -1
    },
    truncated: openCount > 0,
    truncatedStart: openCount > 0 ? openPositions[0]! : -1,
  }
}

