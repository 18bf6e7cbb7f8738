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
import type { ExtractedCall, Reader } from '../reader'
import { fenceAround } from '../reading/fences'
import { MAX_CALLS } from '../reading/limits'
import { matchesSchemaType, type JsonSchemaNode } from '../coerce'
import { pushFix } from '../push-fix'
import { readExpression } from '../reading/python-expression'
import { isNameCode, parsePythonLiteral, type Budget, type LiteralResult } from '../reading/python-literal'
import { isRecord } from '../../util/is-record'
import { readItems } from '../reading/read-items'
import { addOver, readAlone, type BuiltInReader, type ExtractionContext } from '../reading/reading-context'
import { tokenName } from '../reading/special-tokens'

// Calls that wrap the real call (`print(default_api.scroll())`) or are never tools.
const NOT_TOOLS = new Set(['print', 'repr', 'str', 'int', 'float', 'len', 'range', 'list', 'dict', 'tuple', 'set', 'type', 'if', 'for', 'while', 'return', 'and', 'or', 'not'])

interface CallArguments {
  args: unknown
  keywordOnly: boolean
  end: number
  fixes: string[]
}

/**
 * Reads `(k=v, …)` at the parenthesis `openAt`; with `colons`, also Ruby/JS-style `(k: v, …)`. With the
 * tool's input `schema`, a value that is no literal is read by its parameter's type
 * (`../reading/python-expression`), and positional values are its parameters in declared order when
 * each fits its parameter's type.
 */
export function parseCallArguments(text: string, openAt: number, budget: Budget = { steps: 0 }, colons = false, schemaOf?: () => JsonSchemaNode | undefined): CallArguments | 'truncated' | undefined {
  const keywords: Record<string, unknown> = {}
  const positional: unknown[] = []
  const fixes: string[] = []
  // Looked up only when a value needs it: a clean call never asks for the schema.
  let properties: Record<string, JsonSchemaNode> | undefined
  const fields = () => (properties ??= (isRecord(schemaOf?.()?.properties) ? schemaOf!()!.properties : {}) as Record<string, JsonSchemaNode>)
  const field = (key: string | number) => () => {
    const all = fields()
    const name = typeof key === 'number' ? Object.keys(all)[key] : key
    return name !== undefined && Object.hasOwn(all, name) ? all[name] : undefined
  }
  let keywordCount = 0
  const end = readItems(text, openAt, 41, (cursor) => {
    let keyEnd = cursor
    while (keyEnd < text.length && isNameCode(text.charCodeAt(keyEnd)) && text.charCodeAt(keyEnd) !== 46) keyEnd++
    const afterKey = skipSpaces(text, keyEnd)
    const assign = text.charCodeAt(afterKey)
    if (keyEnd > cursor && isNameStartCode(text.charCodeAt(cursor)) && (assign === 61 || (colons && assign === 58)) && text.charCodeAt(afterKey + 1) !== assign) {
      const key = text.slice(cursor, keyEnd)
      const value = readArgument(text, afterKey + 1, budget, field(key), fixes, 41, key)
      if (value === undefined || value === 'truncated') return value
      if (assign === 58) pushFix(fixes, 'colon-arguments')
      setOwn(keywords, key, value.value)
      keywordCount++
      return value.end
    }
    if (keyEnd >= text.length) return 'truncated'
    // Python refuses a positional value after a keyword: `city=Paris, France` is no call of two values.
    if (keywordCount > 0) return undefined
    // A positional value is a literal: `get_weather(city)` in prose is the signature, no call with the word.
    const value = readArgument(text, cursor, budget, field(positional.length), fixes, 41, '')
    if (value === undefined || value === 'truncated') return value
    positional.push(value.value)
    return value.end
  })
  if (typeof end !== 'number') return end
  const order = positional.length > 0 ? Object.keys(fields()) : []
  if (positional.length > 0 && namesPositional(positional, keywords, fields(), order)) {
    for (let index = 0; index < positional.length; index++) setOwn(keywords, order[index]!, positional[index])
    pushFix(fixes, 'positional-arguments')
    return { args: keywords, keywordOnly: false, end, fixes }
  }
  // Positional arguments the schema cannot name: one is a bare value for the caller's single-field rule.
  const args = positional.length === 0 ? keywords : positional.length === 1 ? positional[0] : positional
  return { args, keywordOnly: positional.length === 0 && keywordCount > 0, end, fixes }
}

/**
 * A literal followed by its separator, else a list whose items are read so (`[alice, bob]`), else the
 * value as written, read by its parameter's type; a string never closed ends at `budget.closeAt`.
 */
function readArgument(text: string, at: number, budget: Budget, schema: () => JsonSchemaNode | undefined, fixes: string[], close: number, key: string): LiteralResult {
  const literal = parsePythonLiteral(text, at, 1, budget)
  if (literal !== undefined && literal !== 'truncated') {
    const next = text.charCodeAt(skipSpaces(text, literal.end))
    if (next === 44 || next === close || next !== next) return literal
  }
  const start = skipSpaces(text, at)
  const first = text.charCodeAt(start)
  if (close === 41 && (first === 34 || first === 39)) {
    if (budget.closeAt) return readUnclosedString(text, start, budget, fixes)
    budget.unclosed = true
  }
  if (literal === 'truncated') return literal
  const items = first === 91 ? schema()?.items : undefined
  if (isRecord(items)) {
    const values: unknown[] = []
    const end = readItems(text, start, 93, (cursor) => {
      const item = readArgument(text, cursor, budget, () => items, fixes, 93, key)
      if (item === undefined || item === 'truncated') return item
      values.push(item.value)
      return item.end
    })
    return typeof end === 'number' ? { value: values, end } : end
  }
  // `city=city`, `city: str`, `city=<city>`, `city=...`: the signature or a placeholder, not a value.
  const read = key ? readExpression(text, start, schema(), budget, fixes, close) : undefined
  return read && read !== 'truncated' && typeof read.value === 'string' && (read.value === key || PLACEHOLDER.test(read.value)) ? undefined : read
}

const PLACEHOLDER = /^(?:str|int|float|bool|list|dict|tuple|string|number|integer|boolean|array|object|any|[.…]+|<.*>)$|^(?:Optional|List|Dict|Union|Literal)\[/i

/**
 * `lang="en)]`: a string that never closes ends before its first `)` when that one ends the call (fix
 * `unclosed-string`); a string that would hold a `)` is not guessed at.
 */
function readUnclosedString(text: string, quoteAt: number, budget: Budget, fixes: string[]): LiteralResult {
  const close = text.indexOf(')', quoteAt)
  budget.steps += (close < 0 ? text.length : close) - quoteAt
  const inner = close < 0 || !budget.closeAt!(close) ? '' : text.slice(quoteAt, close)
  // What looks like the next argument (`, b=2`) or line is not this string's text.
  if (!inner || /[\n\r]|,\s*[A-Za-z_]\w*\s*=/.test(inner)) return undefined
  const read = parsePythonLiteral(inner + inner[0], 0, 1, budget)
  if (read === undefined || read === 'truncated' || read.end !== inner.length + 1) return undefined
  pushFix(fixes, 'unclosed-string')
  return { value: read.value, end: close }
}

/** Whether positional values are the parameters declared first: as many or fewer, each of its parameter's type, none named again. */
function namesPositional(positional: unknown[], keywords: Record<string, unknown>, properties: Record<string, JsonSchemaNode>, order: string[]): boolean {
  if (positional.length > order.length) return false
  // `search({"q": "a"})`: one object of the tool's own fields is its whole input.
  const [only] = positional
  if (positional.length === 1 && isRecord(only) && Object.keys(only).every((key) => Object.hasOwn(properties, key))) return false
  return positional.every((value, index) => !Object.hasOwn(keywords, order[index]!) && matchesSchemaType(value, properties[order[index]!]!))
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
  const name = cleanToolName(rawName, context.names)
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
  // Sure by its place (a list, a token, a fence), not only by its name: what an unreadable call needs to be reported.
  const placed = confident
  if (context.names?.has(name)) confident = true

  // `name(key: value)` only for a known name: in prose `see(note: 3)` is no call.
  const known = context.names?.has(name)
  const schemaOf = known && context.schemaOf ? () => context.schemaOf!(name) : undefined
  const parse = () => parseCallArguments(text, open, budget, known, schemaOf)
  budget.unclosed = false
  let parsed = parse()
  // Olmo 3 writes strings unescaped, line breaks included: a sure call is read again allowing them.
  if (parsed === undefined && confident) {
    budget.multiline = true
    const again = parse()
    budget.multiline = false
    if (again !== undefined && again !== 'truncated') parsed = again
  }
  // A string that never closes (`lang="en)]`) ends before the `)` that ends its call, in a sure call only.
  if ((parsed === undefined || parsed === 'truncated') && confident && budget.unclosed) {
    budget.closeAt = (at) => endsCall(context, at)
    const again = parse()
    budget.closeAt = undefined
    if (again !== undefined && again !== 'truncated') parsed = again
  }
  if (parsed === 'truncated') {
    if (confident) context.truncated = true
    return text.length
  }
  // A call of a declared tool in a list (or after a token, in a fence) that cannot be read is reported
  // as such, over its balanced parentheses, and the calls after it are read on; in prose
  // (`I can call search(query)`) it is no call.
  const unreadable = !parsed && placed && known ? balancedEnd(text, open, budget) : -1
  if (unreadable > 0) parsed = { args: text.slice(open + 1, unreadable - 1), keywordOnly: true, end: unreadable, fixes: [] }
  if (!parsed) return open + 1
  // An unknown name outside a pythonic context is a call only as `name(key=value)` opening its line:
  // `see f(x=1)` in prose is no call.
  if (!confident && (!parsed.keywordOnly || !opensLine(text, nameStart))) return open + 1
  // JSON or markup that starts inside the parentheses is an argument of this call or sat in one of its
  // strings (the arguments parsed as literals), never a call of its own, wherever its reader ended it.
  // JSON or markup that starts before the name holds this "call" in one of its strings.
  if (context.found.some((found) => found.call.start <= open && nameStart < found.end)) return parsed.end
  const call: ExtractedCall = { name, args: parsed.args, format: `tool-markup:${format}`, fixes: parsed.fixes, start: nameStart }
  if (unreadable > 0) call.unreadable = true
  addOver(context, call, open, parsed.end)
  return parsed.end
}

/**
 * Whether the `)` at `close` can end a call whose last string never closed: the text ends after it,
 * or a list's `]` that ends the text, a closing tag or fence, or `, NAME(` of a declared tool follows.
 */
function endsCall(context: ExtractionContext, close: number): boolean {
  const { text } = context
  let next = skipSpaces(text, close + 1)
  let code = text.charCodeAt(next)
  if (code === 93) code = text.charCodeAt((next = skipSpaces(text, next + 1)))
  if (next >= text.length || code === 60 || code === 96) return true
  if (code !== 44) return false
  const nameStart = skipSpaces(text, next + 1)
  let nameEnd = nameStart
  while (nameEnd < text.length && nameEnd - nameStart < 128 && isNameCode(text.charCodeAt(nameEnd))) nameEnd++
  return text.charCodeAt(nameEnd) === 40 && !!context.names?.has(cleanToolName(text.slice(nameStart, nameEnd), context.names))
}

/** The offset after the `)` that closes the one at `open`, counting brackets and skipping quoted text; -1 when none does. */
function balancedEnd(text: string, open: number, budget: Budget): number {
  let depth = 0
  let at = open
  // Counted in the budget: a flood of calls that never close must not be rescanned from every opener.
  for (; at < text.length; at++) {
    const code = text.charCodeAt(at)
    if (code === 34 || code === 39) {
      const close = text.indexOf(text[at]!, at + 1)
      at = close < 0 ? text.length : close
    }
    else if (code === 40 || code === 91 || code === 123) depth++
    else if ((code === 41 || code === 93 || code === 125) && --depth <= 0) break
  }
  budget.steps += at - open
  return depth === 0 && text.charCodeAt(at) === 41 ? at + 1 : -1
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
