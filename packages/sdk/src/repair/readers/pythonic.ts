/**
 * `name(key=value, …)` calls: pythonic lists `[a(x=1), b(y='z')]` (Llama 3.2/4, LFM2), Llama's
 * builtin `<|python_tag|>name.call(k="v")`, Gemini's ```tool_code `default_api.name(...)` (also
 * wrapped in `print(…)`), `functions.name(...)`, Olmo 3's `<function_calls>` lines. Arguments are read
 * by the Python literal parser of `../reading/python-literal`, which evaluates nothing: strings in
 * either quote, numbers, True/False/None (and JSON's true/false/null), dicts, lists and tuples.
 *
 * Text rules: a value is typed by its Python syntax; a string is the text between its quotes with
 * Python's escapes decoded (`\n`, `\'`, `\\`, `\u00e9`; an unknown escape stays as written), and
 * the spaces around a value are layout. A single-quoted string holding a raw line break is read only
 * in a call that is surely one (a known name, a list, a token before it) — Olmo 3's template writes
 * strings that way, unescaped.
 */
import { isNameStartCode, isSpaceCode, skipSpaces } from '../../text/char-codes'
import { setOwn } from '../../util/set-own'
import { cleanToolName } from '../match-tool-name'
import type { Reader } from '../reader'
import { fenceAround } from '../reading/fences'
import { MAX_CALLS } from '../reading/limits'
import { isNameCode, parsePythonLiteral, type Budget } from '../reading/python-literal'
import { readItems } from '../reading/read-items'
import { addOver, readAlone, type BuiltInReader, type ExtractionContext } from '../reading/reading-context'
import { tokenName } from '../reading/special-tokens'

// Calls that wrap the real call (`print(default_api.scroll())`) or are never tools.
const NOT_TOOLS = new Set(['print', 'repr', 'str', 'int', 'float', 'len', 'range', 'list', 'dict', 'tuple', 'set', 'type', 'if', 'for', 'while', 'return', 'and', 'or', 'not'])

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
  // JSON or markup that starts inside the parentheses is an argument of this call or sat in one of its
  // strings (the arguments parsed as literals), never a call of its own, wherever its reader ended it.
  // JSON or markup that starts before the name holds this "call" in one of its strings.
  if (context.found.some((found) => found.call.start <= open && nameStart < found.end)) return parsed.end
  addOver(context, { name, args: parsed.args, format: `tool-markup:${format}`, fixes: [], start: nameStart }, open, parsed.end)
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

const reader: BuiltInReader = {
  name: 'pythonic',
  formats: ['tool-markup:pythonic', 'tool-markup:python-tag', 'tool-markup:tool-code'],
  stage: 'fallback',
  recognize: recognizePythonicCalls,
  read: (text, context) => readAlone(reader, text, context),
}

/**
 * Python-style calls: `[scroll(down=True)]` (Llama 4, Llama 3.2 pythonic), `<|python_start|>…`,
 * ```` ```tool_code ```` fences (Gemma). Outside such a context a call needs keyword arguments or a
 * known name, so `foo(5)` in prose is not one. Runs after the JSON values: `f(x)` inside a JSON
 * string is text.
 *
 * @example
 * ```ts
 * pythonicReader.read('[scroll(down=True)]', { names: new Set(['scroll']), claimed: () => false }) // [{ name: 'scroll', args: { down: true }, … }]
 * ```
 */
export const pythonicReader: Reader = reader
