/**
 * One linear pass over model text that finds every balanced JSON-ish object or array.
 *
 * The seed used a greedy regex to find `{…}` in content, which is quadratic on text with many
 * braces. This scanner reads each character once, keeps an explicit stack of openers, tracks
 * strings (double quotes, and Python-style single quotes where a value may start) and escapes,
 * and records a span for every opener that gets closed. Nothing here parses: callers decide which
 * spans hold JSON.
 */

/** A balanced `{…}` or `[…]` region of the text. */
export interface JsonSpan {
  /** Offset of the opening bracket. */
  start: number
  /** Offset just after the closing bracket. */
  end: number
  /** Deepest nesting inside the span (1 for `{}`). */
  depth: number
  /** Balanced spans directly inside this one, in order. */
  children: JsonSpan[]
}

export interface JsonScanResult {
  /** The outermost balanced spans, in order of their start. */
  spans: JsonSpan[]
  /** Start offset → end offset of every balanced span, nested ones included. */
  ends: Map<number, number>
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

const isSpace = (code: number) => code === 32 || code === 9 || code === 10 || code === 13
const isIdentifierCode = (code: number) =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 36 || code === 45

function skipSpaces(text: string, index: number, end: number): number {
  while (index < end && isSpace(text.charCodeAt(index))) index++
  return index
}

function previousSignificant(text: string, index: number, floor: number): number {
  let cursor = index - 1
  // Bounded look-back: a quote after a long run of spaces is judged on the spaces alone.
  const limit = Math.max(floor, index - 256)
  while (cursor >= limit && isSpace(text.charCodeAt(cursor))) cursor--
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

/**
 * Finds every balanced JSON-ish object or array in `text` in one pass.
 *
 * `skip` lists sorted, non-overlapping ranges (special tokens) that are jumped over outside strings,
 * so `[TOOL_CALLS]` or `<|call|>` never count as brackets.
 *
 * @example
 * ```ts
 * const { spans } = scanJson('First {"a": 1} then [2, 3].')
 * spans.map((span) => [span.start, span.end]) // [[6, 14], [20, 26]]
 * ```
 */
export function scanJson(text: string, skip: readonly TextRange[] = []): JsonScanResult {
  const length = text.length
  const ends = new Map<number, number>()
  // Openers still waiting for their closer, as parallel arrays to avoid an object per character.
  const openPositions: number[] = []
  const openCodes: number[] = []
  const openChildren: JsonSpan[][] = []
  let openBraces = 0
  let openBrackets = 0
  const outermost: JsonSpan[] = []
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
    while (skipIndex < skip.length && skip[skipIndex]![1] <= index) skipIndex++
    if (skipIndex < skip.length && skip[skipIndex]![0] <= index) {
      index = skip[skipIndex]![1]
      continue
    }
    const depth = openPositions.length
    if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (depth > 0 || looksLikeJsonOpener(text, index, length)) {
        openPositions.push(index)
        openCodes.push(code)
        openChildren.push([])
        if (code === OPEN_BRACE) openBraces++
        else openBrackets++
      }
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      const want = code === CLOSE_BRACE ? OPEN_BRACE : OPEN_BRACKET
      // A closer with no matching opener is prose or a stray `}]}`: ignore it. One whose opener sits
      // deeper in the stack closes the unclosed openers above it (`{"a": [1}`), as jsonrepair would.
      if ((want === OPEN_BRACE ? openBraces : openBrackets) > 0) {
        let span: JsonSpan | undefined
        while (openPositions.length > 0) {
          const start = openPositions.pop()!
          const openCode = openCodes.pop()!
          const children = openChildren.pop()!
          if (openCode === OPEN_BRACE) openBraces--
          else openBrackets--
          if (openCode === want) {
            let childDepth = 0
            for (const child of children) if (child.depth > childDepth) childDepth = child.depth
            span = { start, end: index + 1, depth: childDepth + 1, children }
            break
          }
          // The abandoned opener's children move up to the enclosing level.
          if (openChildren.length > 0) for (const child of children) openChildren[openChildren.length - 1]!.push(child)
          else for (const child of children) outermost.push(child)
        }
        if (span) {
          ends.set(span.start, span.end)
          if (openChildren.length > 0) openChildren[openChildren.length - 1]!.push(span)
          else outermost.push(span)
        }
      }
    } else if (depth > 0 && (code === DOUBLE_QUOTE || (code === SINGLE_QUOTE && opensSingleQuotedString(text, index, openPositions[0]!)))) {
      inString = code
    }
    index++
  }

  const truncated = openPositions.length > 0
  // Unclosed openers leave their closed children behind as outermost candidates.
  for (const children of openChildren) for (const child of children) outermost.push(child)
  if (truncated) outermost.sort((left, right) => left.start - right.start)
  return { spans: outermost, ends, truncated, truncatedStart: truncated ? openPositions[0]! : -1 }
}
