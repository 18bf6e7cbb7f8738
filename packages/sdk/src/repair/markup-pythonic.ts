/**
 * `name(key=value, …)` calls: pythonic lists `[a(x=1), b(y='z')]` (Llama 3.2/4, LFM2), Llama's
 * builtin `<|python_tag|>name.call(k="v")`, Gemini's ```tool_code `default_api.name(...)` (also
 * wrapped in `print(…)`), `functions.name(...)`, Olmo 3's `<function_calls>` lines. Arguments are read
 * by a small literal parser that evaluates nothing: strings in either quote, numbers,
 * True/False/None (and JSON's true/false/null), dicts, lists and tuples.
 *
 * Text rules: a value is typed by its Python syntax; a string is the text between its quotes with
 * Python's escapes decoded (`\n`, `\'`, `\\`, `\u00e9`; an unknown escape stays as written), and
 * the spaces around a value are layout. A single-quoted string holding a raw line break is read only
 * in a call that is surely one (a known name, a list, a token before it) — Olmo 3's template writes
 * strings that way, unescaped.
 */
import { isNameStartCode, isSpaceCode, isWordCode, skipSpaces } from '../text/char-codes'
import { tokenName } from './markup-special-tokens'
import { MAX_CALLS, MAX_MARKUP_DEPTH, addFound, cleanToolName, fenceAround, readItems, setOwn } from './markup-shared'
import type { ExtractionContext } from './markup-shared'

type LiteralResult = { value: unknown; end: number } | 'truncated' | undefined

interface Budget {
  steps: number
  /** Single-quoted strings may hold raw line breaks (Olmo 3's template writes strings unescaped). */
  multiline?: boolean
}

const isNameCode = (code: number) => isWordCode(code) || code === 46

// Calls that wrap the real call (`print(default_api.scroll())`) or are never tools.
const NOT_TOOLS = new Set(['print', 'repr', 'str', 'int', 'float', 'len', 'range', 'list', 'dict', 'tuple', 'set', 'type', 'if', 'for', 'while', 'return', 'and', 'or', 'not'])

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
  if (!/\d/.test(literal)) return undefined
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

interface CallArguments {
  args: unknown
  keywordOnly: boolean
  end: number
}

/** Reads `(k=v, …)` at the parenthesis `openAt`; with `colons`, also Ruby/JS-style `(k: v, …)`. */
export function parseCallArguments(text: string, openAt: number, budget: Budget = { steps: 0 }, colons = false): CallArguments | 'truncated' | undefined {
  const keywords: Record<string, unknown> = {}
  const positional: unknown[] = []
  let keywordCount = 0
  const end = readItems(text, openAt, 41, (cursor) => {
    let keyEnd = cursor
    while (keyEnd < text.length && isNameCode(text.charCodeAt(keyEnd)) && text.charCodeAt(keyEnd) !== 46) keyEnd++
    const afterKey = skipSpaces(text, keyEnd)
    const assign = text.charCodeAt(afterKey)
    if (keyEnd > cursor && isNameStartCode(text.charCodeAt(cursor)) && (assign === 61 || (colons && assign === 58)) && text.charCodeAt(afterKey + 1) !== assign) {
      const value = parsePythonLiteral(text, afterKey + 1, 1, budget)
      if (value === undefined || value === 'truncated') return value
      setOwn(keywords, text.slice(cursor, keyEnd), value.value)
      keywordCount++
      return value.end
    }
    if (keyEnd >= text.length) return 'truncated'
    const value = parsePythonLiteral(text, cursor, 1, budget)
    if (value === undefined || value === 'truncated') return value
    positional.push(value.value)
    return value.end
  })
  if (typeof end !== 'number') return end
  // Positional arguments cannot be named without the schema: one is a bare value for the caller's
  // single-field rule; keywords win when both are present.
  const args = keywordCount > 0 || positional.length === 0 ? keywords : positional.length === 1 ? positional[0] : positional
  return { args, keywordOnly: positional.length === 0 && keywordCount > 0, end }
}

/** Finds `name(…)` calls. Outside a pythonic context a call needs keyword arguments or a known name. */
export function recognizePythonicCalls(context: ExtractionContext): void {
  const { text } = context
  let open = text.indexOf('(')
  if (open < 0) return
  const budget: Budget = { steps: 0 }
  const maxSteps = text.length + 10_000
  while (open >= 0 && context.found.length < MAX_CALLS && budget.steps < maxSteps) {
    const next = readCallAt(context, open, budget)
    open = text.indexOf('(', Math.max(open + 1, next))
  }
}

function readCallAt(context: ExtractionContext, open: number, budget: Budget): number {
  const { text } = context
  let nameStart = open
  const floor = Math.max(0, open - 128)
  while (nameStart > floor && isNameCode(text.charCodeAt(nameStart - 1))) nameStart--
  if (nameStart === open || !isNameStartCode(text.charCodeAt(nameStart))) return open + 1
  // Part of a longer word or a path (`/usr/bin(`): not a call.
  if (nameStart > 0 && (isNameCode(text.charCodeAt(nameStart - 1)) || text.charCodeAt(nameStart - 1) === 47)) return open + 1
  // Inside a call already read (a parenthesis in one of its strings): skip past that call.
  for (const found of context.found) if (nameStart >= found.call.start && nameStart < found.end) return found.end
  let rawName = text.slice(nameStart, open)
  if (rawName.endsWith('.')) return open + 1
  let format = 'pythonic'
  let confident = false
  if (rawName.endsWith('.call')) {
    rawName = rawName.slice(0, -5)
    format = 'python-tag'
    confident = true
  }
  if (rawName.startsWith('default_api.')) {
    format = 'tool-code'
    confident = true
  }
  const name = cleanToolName(rawName)
  if (!name || NOT_TOOLS.has(name)) return open + 1
  const previousAt = previousSignificant(text, nameStart)
  const previous = previousAt < 0 ? -1 : text.charCodeAt(previousAt)
  const token = tokenEndingAt(context, nameStart)
  if (token) {
    confident = true
    if (tokenName(text, token) === 'python_tag') format = 'python-tag'
  }
  // In a list `[a(x=1), b(y=2)]` that opens a line, or after `print(`. A comma counts only after a call
  // of that list: in prose or reasoning `s(1), t(2)` is no call of an unknown `t`.
  if (previous === 91 && opensLine(text, previousAt)) confident = true
  if (previous === 40 && text.slice(Math.max(0, previousAt - 5), previousAt) === 'print') confident = true
  if (previous === 44 && followsListedCall(context, previousAt)) confident = true
  const fence = fenceAround(context, nameStart)
  if (fence && (fence.language === 'tool_code' || fence.language === 'python' || fence.language === 'py')) {
    confident = true
    if (fence.language === 'tool_code') format = 'tool-code'
  }
  if (context.names?.has(name)) confident = true

  // `name(key: value)` only for a known name: in prose `see(note: 3)` is no call.
  let parsed = parseCallArguments(text, open, budget, context.names?.has(name))
  // Olmo 3 writes strings unescaped, line breaks included: a sure call is read again allowing them.
  if (parsed === undefined && confident) {
    budget.multiline = true
    const again = parseCallArguments(text, open, budget, context.names?.has(name))
    budget.multiline = false
    if (again !== undefined && again !== 'truncated') parsed = again
  }
  if (parsed === 'truncated') {
    if (confident) context.truncated = true
    return text.length
  }
  if (!parsed) return open + 1
  // An unknown name outside a pythonic context is a call only as `name(key=value)` opening its line:
  // `see f(x=1)` in prose is no call.
  if (!confident && (!parsed.keywordOnly || !opensLine(text, nameStart))) return open + 1
  // JSON that starts inside the parentheses is an argument of this call (or, when it runs past the
  // closing parenthesis, a bracket in one of its strings), never a call of its own; so is markup that
  // lies wholly inside them (the arguments are literals: it sat in one of their strings). JSON or
  // markup that starts before the name holds this "call" in one of its strings.
  const inside = context.found.filter((found) => found.call.start < parsed.end && nameStart < found.end)
  if (inside.some((found) => found.call.start < nameStart || (found.call.format !== 'content-json' && !(found.call.start > open && found.end <= parsed.end)))) return parsed.end
  if (inside.length > 0) context.found = context.found.filter((found) => !inside.includes(found))
  addFound(context, { name, args: parsed.args, format: `tool-markup:${format}`, fixes: [], start: nameStart }, parsed.end)
  return parsed.end
}

/** Whether only spaces (or a tag's `>`) stand between the line's start and `index`. */
function opensLine(text: string, index: number): boolean {
  let cursor = index - 1
  while (cursor >= 0 && (text.charCodeAt(cursor) === 32 || text.charCodeAt(cursor) === 9)) cursor--
  const code = cursor < 0 ? 10 : text.charCodeAt(cursor)
  return code === 10 || code === 13 || code === 62
}

/** Whether the comma at `comma` follows a call already read (the call after it is the next item of one list). */
function followsListedCall(context: ExtractionContext, comma: number): boolean {
  const { text } = context
  return context.found.some((found) => found.call.format.startsWith('tool-markup:') && skipSpaces(text, found.end, comma) === comma)
}

/** Where the last character that is not a space before `index` sits (looking back 64 at most), or -1. */
function previousSignificant(text: string, index: number): number {
  let cursor = index - 1
  const floor = Math.max(0, index - 64)
  while (cursor >= floor && isSpaceCode(text.charCodeAt(cursor))) cursor--
  return cursor >= floor ? cursor : -1
}

function tokenEndingAt(context: ExtractionContext, index: number) {
  // Tokens are sorted; a binary search finds the last one ending at or before `index`.
  const { tokens, text } = context
  let low = 0
  let high = tokens.length - 1
  let found = -1
  while (low <= high) {
    const middle = (low + high) >> 1
    if (tokens[middle]!.end <= index) {
      found = middle
      low = middle + 1
    } else high = middle - 1
  }
  if (found < 0) return undefined
  const token = tokens[found]!
  return skipSpaces(text, token.end, index) === index ? token : undefined
}
