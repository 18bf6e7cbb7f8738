import { isNameStartCode, isWordCode, skipSpaces } from '../text/char-codes'
import type { JsonSchemaNode } from './coerce'
import type { JsonScanResult, TextRange } from './scan-json'

/** Most calls or JSON candidates taken from one message; the rest of a flood is ignored. */
export const MAX_CALLS = 64

/** Deepest nesting the markup parsers build. */
export const MAX_MARKUP_DEPTH = 64

/**
 * Sets an own, enumerable property even for `__proto__`, so a key from model text can never
 * replace an object's prototype (plain assignment to `__proto__` would).
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true })
  else target[key] = value
}

/** Where a special token (`<|call|>`, `<｜tool▁sep｜>`, `[TOOL_CALLS]`, `<tool▁sep>`) is in the text; markup readers name it with `tokenName`. */
export interface TokenSpan {
  start: number
  end: number
}

// <|…|> (the closing `>` is sometimes missing), <｜…｜> with full-width bars, [UPPER_CASE] bracket
// tokens, and `▁`-spelled tokens whose bars a distilled model dropped. Every alternative is anchored
// on its first character and bounded, so the scan stays linear.
// regex-bounded: every alternative reads at most ~90 characters from its first (test: packages/sdk/src/linear-time.test.ts)
const SPECIAL_TOKEN = /<\|[^|<>\s]{1,48}\|>?|<｜[^｜<>\n]{1,48}｜>?|\[\/?[A-Z][A-Z0-9_]{1,30}\]|<\/?[^<>\s|｜]{0,40}▁[^<>\s]{0,40}>/g

/**
 * Finds every special token, in order: the JSON scan jumps over them, so `[TOOL_CALLS]` or `<|call|>`
 * never count as brackets. `<|"|>` (Gemma's string quote) is left to its parser.
 */
export function findSpecialTokens(text: string): TokenSpan[] {
  const tokens: TokenSpan[] = []
  if (!text.includes('<') && !text.includes('[')) return tokens
  for (const match of text.matchAll(SPECIAL_TOKEN)) if (match[0] !== '<|"|>') tokens.push({ start: match.index, end: match.index + match[0].length })
  return tokens
}

/** A character of a (dotted) tool name: a word character, `-`, `.` or `$`. */
export const isNameCode = (code: number) => isWordCode(code) || code === 45 || code === 46 || code === 36

/** Reads a (dotted) identifier at `index`; returns its end, or `index` when there is none. */
export function readName(text: string, index: number, limit = 128): number {
  if (!isNameStartCode(text.charCodeAt(index))) return index
  let cursor = index + 1
  const end = Math.min(text.length, index + limit)
  while (cursor < end && isNameCode(text.charCodeAt(cursor))) cursor++
  // A trailing dot or dash is punctuation, not part of the name.
  while (cursor > index + 1 && (text.charCodeAt(cursor - 1) === 46 || text.charCodeAt(cursor - 1) === 45)) cursor--
  return cursor
}

/**
 * Strips the namespaces models put in front of a tool name (`functions.scroll`,
 * `default_api.scroll`) and Kimi's call index suffix (`scroll:0`).
 */
export function cleanToolName(name: string): string {
  return name
    .trim()
    .replace(/^(?:functions?|default_api|tools?)\./, '')
    .replace(/:\d+$/, '')
}

/**
 * Where the name starts once the namespaces before it are cut (`functions.`, `default_api:`,
 * `mcp__server__`): the last point, before a letter or `_`, that a chain of `word.`, `word:`,
 * `word-part.` or `word__` segments reaches. One pass; the regex this replaces,
 * `^(?:[\w-]+[.:]|\w+__)+`, took exponential time on `1__1__…1` (`\w` holds `_`).
 */
function namespaceEnd(name: string): number {
  let cut = 0
  // Where the current segment started (always a reachable point), and whether it is all word characters so far.
  let segmentStart = 0
  let word = true
  for (let index = 0; index < name.length; index++) {
    const code = name.charCodeAt(index)
    if (code === 46 || code === 58) {
      // `..` or a leading `.`: an empty segment ends the chain.
      if (index === segmentStart) break
      segmentStart = index + 1
      word = true
      if (isNameStartCode(name.charCodeAt(index + 1))) cut = index + 1
    } else if (code === 45) word = false
    else if (!isWordCode(code)) break
    // `word__` ends a segment at any `__` (a run of underscores holds several), while only word characters came before.
    else if (word && code === 95 && index - segmentStart >= 2 && name.charCodeAt(index - 1) === 95 && isNameStartCode(name.charCodeAt(index + 1))) cut = index + 1
  }
  return cut
}

const looseName = (name: string) => name.toLowerCase().replace(/[-_\s]/g, '')

/**
 * The one of `known` that `name` means: itself; else without quotes, a namespace (`functions.`,
 * `default_api.`, `tools:`, `mcp__server__`) or a `:0` suffix; else the one known name it equals
 * ignoring case, `-`, `_` and spaces (`Scroll`, `input-text`, `inputText`). A name that loosely
 * equals two known names means neither.
 */
export function matchName(name: string, known: ReadonlySet<string> | Readonly<Record<string, unknown>>): string | undefined {
  const set = known instanceof Set
  const has = (candidate: string) => (set ? known.has(candidate) : Object.hasOwn(known, candidate))
  const trimmed = name.trim()
  if (has(trimmed)) return trimmed
  // No real tool name is this long (OpenAI caps them at 64); do not scan a runaway string.
  if (!trimmed || name.length > 256) return undefined
  let cleaned = trimmed
    .replace(/^["'`]|["'`]$/g, '')
    .replace(/:\d+$/, '')
  cleaned = cleaned.slice(namespaceEnd(cleaned)).trim()
  if (has(cleaned)) return cleaned
  const loose = looseName(cleaned)
  let match: string | undefined
  for (const candidate of set ? known : Object.keys(known)) {
    if (looseName(candidate) !== loose) continue
    if (match !== undefined) return undefined
    match = candidate
  }
  return match
}

/**
 * Reads `item, item, …` up to `closeCode`, from just after the opener at `openAt`: the one loop of the
 * markup value parsers (Python dicts, lists, tuples and call arguments; Gemma objects and arrays).
 * `readItem` reads the item at a position and returns its end. The result is the offset after the
 * closer, `'truncated'` when the text ends first, or `undefined` when an item or separator is malformed.
 * With `commaOptional`, an item may follow the previous one directly (comma-less FunctionGemma).
 */
export function readItems(text: string, openAt: number, closeCode: number, readItem: (at: number) => number | 'truncated' | undefined, commaOptional = false): number | 'truncated' | undefined {
  let cursor = openAt + 1
  for (;;) {
    cursor = skipSpaces(text, cursor)
    if (cursor >= text.length) return 'truncated'
    if (text.charCodeAt(cursor) === closeCode) return cursor + 1
    const end = readItem(cursor)
    if (end === undefined || end === 'truncated') return end
    cursor = skipSpaces(text, end)
    if (cursor >= text.length) return 'truncated'
    const separator = text.charCodeAt(cursor)
    if (separator === 44) cursor++
    else if (separator !== closeCode && !commaOptional) return undefined
  }
}

/** Whether `[start, end)` overlaps any range in `ranges`. */
export function overlapsAny(ranges: readonly TextRange[], start: number, end: number): boolean {
  for (const [rangeStart, rangeEnd] of ranges) if (start < rangeEnd && rangeStart < end) return true
  return false
}

export interface ExtractedCall {
  /** The function name when the format carries one (markup, pythonic, Mistral …); undefined for a plain JSON value. */
  name?: string
  /**
   * Parsed arguments, or — for a JSON value found in text (plain, or inside a Hermes-style wrapper
   * or after a token such as `[TOOL_CALLS]`) — that value as is: envelopes such as
   * `{name, arguments}` are left for the caller to unwrap.
   */
  args: unknown
  /** Stable fix code of the format: `content-json` for JSON found in text, or `tool-markup:<family>`. */
  format: string
  /** Codes of repairs done while parsing (`lenient-json`, `python-literals`, `fenced` …). */
  fixes: string[]
  /** Offset in the text where the call starts; results are sorted by it. */
  start: number
  /**
   * For a JSON value without a name: a known tool or action name written just before it on the same
   * line (`scroll: {…}`, `` `scroll` with `{…}` ``). The caller tries it only when the value does not
   * resolve on its own.
   */
  nameHint?: string
  /**
   * For a JSON object without a name: the name written in a call's position right before it
   * (`web_search{…}`, `web_search({…})`, `web_search` alone on the line above), known or not. It is
   * the call's name unless the JSON names one itself.
   */
  calledName?: string
  /** The name of the reader that read it (`result.fixes` gets `reader:<name>`). */
  reader?: string
}

/** A call plus the text range it was read from. */
export interface FoundCall {
  call: ExtractedCall
  end: number
}

/** What every markup recognizer gets: the text and the structure found in one pass over it. */
export interface ExtractionContext {
  text: string
  names: ReadonlySet<string> | undefined
  /** The special tokens of the text, in order (`tokenAt` and `tokenName` of `markup-special-tokens` read them). */
  tokens: TokenSpan[]
  scan: JsonScanResult
  fences: Fence[]
  /** The field names of a known tool or action: what readers that carry no other evidence of a call check keys against. */
  fieldsOf?: (name: string) => ReadonlySet<string>
  /** The input JSON Schema of a known tool or action: what decides the type of a value a markup format wrote as text. */
  schemaOf?: (name: string) => JsonSchemaNode | undefined
  /** Calls found so far, with their ranges; later recognizers skip text that is already claimed. */
  found: FoundCall[]
  truncated: boolean
}

export interface Fence {
  start: number
  /** Offset just after the closing marker (or the end of the text). */
  end: number
  /** The info string in lower case: `json`, `tool_code`, `python`, ``. */
  language: string
  bodyStart: number
  bodyEnd: number
}

/** Claims `[call.start, end)` unless it overlaps a call found earlier. */
export function addFound(context: ExtractionContext, call: ExtractedCall, end: number): boolean {
  if (context.found.length >= MAX_CALLS) return false
  if (context.found.some((found) => call.start < found.end && found.call.start < end)) return false
  context.found.push({ call, end })
  return true
}

/** The fence around `position`, if any. */
export function fenceAround(context: ExtractionContext, position: number): Fence | undefined {
  for (const fence of context.fences) if (position >= fence.bodyStart && position < fence.bodyEnd) return fence
  return undefined
}

/** Pairs ``` (or ~~~) markers into fences, in one pass. */
export function findFences(text: string): Fence[] {
  const fences: Fence[] = []
  let index = text.indexOf('```')
  if (index < 0) index = text.indexOf('~~~')
  while (index >= 0 && fences.length < MAX_CALLS * 4) {
    const marker = text.slice(index, index + 3)
    const lineEnd = text.indexOf('\n', index + 3)
    const infoEnd = lineEnd < 0 ? text.length : lineEnd
    const info = text.slice(index + 3, infoEnd)
    // An opening marker's info string is one word (or none); anything else means the body starts
    // right away. The word and the spaces after it form one optional group, so no two runs of spaces
    // touch (that was quadratic on a long run of them).
    const opening = /^[ \t]*(?:([\w.+-]+)[ \t]*)?$/.exec(info)
    const language = opening?.[1]?.toLowerCase() ?? ''
    const bodyStart = opening ? Math.min(text.length, infoEnd + 1) : index + 3
    const close = text.indexOf(marker, bodyStart)
    const bodyEnd = close < 0 ? text.length : close
    const end = close < 0 ? text.length : close + 3
    fences.push({ start: index, end, language, bodyStart, bodyEnd })
    if (close < 0) break
    index = text.indexOf(marker, end)
  }
  return fences
}
