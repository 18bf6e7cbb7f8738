/**
 * Python literals, evaluated by nothing: strings in either quote (Python's escapes decoded: `\n`,
 * `\'`, `\\`, `\u00e9`; an unknown escape stays as written; `r'…'` raw), numbers,
 * True/False/None (and JSON's true/false/null), dicts, lists and tuples. The pythonic reader reads call
 * arguments with it; the schema-guided decoder reads a value written as a Python literal with it.
 */
import { isNameStartCode, isWordCode, skipSpaces } from '../../text/char-codes'
import { setOwn } from '../../util/set-own'
import { MAX_MARKUP_DEPTH } from './limits'
import { readItems } from './read-items'

export type LiteralResult = { value: unknown; end: number } | 'truncated' | undefined

export interface Budget {
  steps: number
  /** Single-quoted strings may hold raw line breaks (Olmo 3's template writes strings unescaped). */
  multiline?: boolean
  /** Whether the `)` at an offset ends a call (a string never closed ends before it): set only when the strict reading failed. */
  closeAt?: (at: number) => boolean
  /** Set when a string argument did not read strictly: only then is the call read again with `closeAt`. */
  unclosed?: boolean
}

/** A character of a Python name or attribute path: a word character or `.`. */
export const isNameCode = (code: number) => isWordCode(code) || code === 46

const KEYWORD_VALUES: Record<string, unknown> = { True: true, False: false, None: null, true: true, false: false, null: null }

/**
 * Parses one Python literal at `index`. Returns the value and the offset after it, `'truncated'`
 * when the text ends inside it, or `undefined` when it is not a literal.
 */
export function parsePythonLiteral(text: string, index: number, depth = 0, budget: Budget = { steps: 0 }): LiteralResult {
  budget.steps++
  if (depth > MAX_MARKUP_DEPTH) return undefined
  const cursor = skipSpaces(text, index)
  if (cursor >= text.length) return 'truncated'
  const code = text.charCodeAt(cursor)
  if (code === 39 || code === 34) return parseString(text, cursor, false, budget)
  if ((code === 114 || code === 82 || code === 117 || code === 85 || code === 98 || code === 66) && (text.charCodeAt(cursor + 1) === 39 || text.charCodeAt(cursor + 1) === 34)) {
    return parseString(text, cursor + 1, code === 114 || code === 82, budget)
  }
  if (code === 123) return parseDict(text, cursor, depth, budget)
  if (code === 91 || code === 40) return parseSequence(text, cursor, code === 91 ? 93 : 41, depth, budget)
  if (code === 45 || code === 43 || (code >= 48 && code <= 57) || code === 46) return parseNumber(text, cursor)
  if (isNameStartCode(code)) {
    let end = cursor + 1
    while (end < text.length && isNameCode(text.charCodeAt(end))) end++
    const word = text.slice(cursor, end)
    if (Object.hasOwn(KEYWORD_VALUES, word)) return { value: KEYWORD_VALUES[word], end }
    return end >= text.length ? 'truncated' : undefined
  }
  return undefined
}

function parseString(text: string, quoteAt: number, raw: boolean, budget: Budget): LiteralResult {
  const quote = text.charCodeAt(quoteAt)
  const triple = text.charCodeAt(quoteAt + 1) === quote && text.charCodeAt(quoteAt + 2) === quote
  let cursor = quoteAt + (triple ? 3 : 1)
  let value = ''
  let segmentStart = cursor
  while (cursor < text.length) {
    const code = text.charCodeAt(cursor)
    if (code === 92 && !raw) {
      value += text.slice(segmentStart, cursor)
      const next = text[cursor + 1]
      if (next === undefined) return 'truncated'
      const escaped = ESCAPES[next]
      if (escaped !== undefined) {
        value += escaped
        cursor += 2
      } else if (next === 'u' || next === 'x') {
        const size = next === 'u' ? 4 : 2
        const hex = text.slice(cursor + 2, cursor + 2 + size)
        if (/^[0-9a-fA-F]+$/.test(hex) && hex.length === size) {
          value += String.fromCharCode(Number.parseInt(hex, 16))
          cursor += 2 + size
        } else {
          value += '\\' + next
          cursor += 2
        }
      } else {
        value += '\\' + next
        cursor += 2
      }
      segmentStart = cursor
      continue
    }
    if (code === quote && (!triple || (text.charCodeAt(cursor + 1) === quote && text.charCodeAt(cursor + 2) === quote))) {
      value += text.slice(segmentStart, cursor)
      budget.steps += cursor - quoteAt
      return { value, end: cursor + (triple ? 3 : 1) }
    }
    // A single-line string cannot hold a raw line break: this was not a string literal.
    if (code === 10 && !triple && !budget.multiline) {
      budget.steps += cursor - quoteAt
      return undefined
    }
    cursor++
  }
  // Counted even when it never closes: a flood of unclosed strings must not be rescanned from every opener.
  budget.steps += cursor - quoteAt
  return 'truncated'
}

const ESCAPES: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '0': '\0',
  b: '\b',
  f: '\f',
  '\n': '',
})

function parseNumber(text: string, start: number): LiteralResult {
  // A number that runs into the end of the text may have been cut (`0.` of `0.5`).
  let run = start
  while (run < text.length && /[\d._eE+-]/.test(text[run]!)) run++
  if (run >= text.length) return 'truncated'
  const match = /^[+-]?(?:\d[\d_]*)?(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(start, start + 64))
  const literal = match?.[0] ?? ''
  // `02139` is no Python number: read as one, a zip code would lose its zero.
  if (!/\d/.test(literal) || (/^[+-]?0[\d_]*[1-9]/.test(literal) && !/[.eE]/.test(literal))) return undefined
  const value = Number(literal.replace(/_/g, ''))
  if (!Number.isFinite(value)) return undefined
  return { value, end: start + literal.length }
}

/** A finished collection's result: its value and end, or why it is none. */
const collected = (value: unknown, end: number | 'truncated' | undefined): LiteralResult => (typeof end === 'number' ? { value, end } : end)

function parseDict(text: string, openAt: number, depth: number, budget: Budget): LiteralResult {
  const result: Record<string, unknown> = {}
  const end = readItems(text, openAt, 125, (at) => {
    let cursor = at
    // Keys: a literal, or a bare word (`{down: True}`).
    let key: string
    const keyCode = text.charCodeAt(cursor)
    if (isNameStartCode(keyCode) && !/^(?:True|False|None)\b/.test(text.slice(cursor, cursor + 6))) {
      let end = cursor + 1
      while (end < text.length && isNameCode(text.charCodeAt(end))) end++
      key = text.slice(cursor, end)
      cursor = end
    } else {
      const parsedKey = parsePythonLiteral(text, cursor, depth + 1, budget)
      if (parsedKey === undefined || parsedKey === 'truncated') return parsedKey
      key = String(parsedKey.value)
      cursor = parsedKey.end
    }
    cursor = skipSpaces(text, cursor)
    if (cursor >= text.length) return 'truncated'
    if (text.charCodeAt(cursor) !== 58) return undefined
    const value = parsePythonLiteral(text, cursor + 1, depth + 1, budget)
    if (value === undefined || value === 'truncated') return value
    setOwn(result, key, value.value)
    return value.end
  })
  return collected(result, end)
}

function parseSequence(text: string, openAt: number, closeCode: number, depth: number, budget: Budget): LiteralResult {
  const items: unknown[] = []
  const end = readItems(text, openAt, closeCode, (at) => {
    const item = parsePythonLiteral(text, at, depth + 1, budget)
    if (item === undefined || item === 'truncated') return item
    items.push(item.value)
    return item.end
  })
  return collected(items, end)
}
