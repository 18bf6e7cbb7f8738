// Imports in the order that bundles smallest: module order moves the gzip size (node scripts/check-size.mjs).
import { pushFix } from './push-fix'
import { jsonrepair } from 'jsonrepair'
import { trimEndOf } from '../text/trim-end-of'
import { isWordCode } from '../text/char-codes'
import { closesSingleQuotedString, isStrayQuote, opensSingleQuotedString, scanJson } from './scan-json'

/** Deepest nesting accepted from model text; deeper values are refused rather than parsed. */
export const MAX_JSON_DEPTH = 64

export interface LenientJsonResult {
  value: unknown
  /** Repair codes: `lenient-json`, `python-literals`, `stripped-special-tokens`, `json-prefix`. */
  fixes: string[]
}

// Special tokens a template or server can glue to either end of a JSON body: `<|call|>`,
// `<|endoftext|>`, `<｜end▁of▁sentence｜>`, `</s>`, `<eos>`, `[/TOOL_CALLS]`.
// regex-bounded: TRAILING_TOKEN runs on the last 256 characters only (test: packages/sdk/src/linear-time.test.ts)
const TRAILING_TOKEN = /(?:<\|[^|<>\s]{1,48}\|>?|<｜[^｜<>]{1,48}｜>?|<\/s>|<\/?eos>|<end_of_turn>|<\/?eot>|\[\/?[A-Z][A-Z0-9_]{1,30}\])\s*$/
const LEADING_TOKEN = /^(?:<\|[^|<>\s]{1,48}\|>?|<｜[^｜<>]{1,48}｜>?|<s>|<bos>|\[[A-Z][A-Z0-9_]{1,30}\])\s*/
// A fence marker or a bare `json` word that leaked in front of the value.
const LEADING_PREFIX = /^(?:(?:```|~~~)[ \t]*(?:(?:json5?|javascript|js|python|py)[ \t]*)?\r?\n?|(?:json|JSON)[ \t]*(?:\r?\n|(?=[{["'])))/
const SCALAR = /^(?:-?\d[\d.eE+-]*|true|false|null)$/
// Text that can still hold a value once edges are stripped: a token, a fence, a `json` prefix, a quote, a Python literal.
const MAY_HOLD_JSON = /^(?:[<[`~']|json|JSON|True$|False$|None$)/

function stripEdges(text: string, fixes: string[]): string {
  let body = text.trim()
  for (let round = 0; round < 8; round++) {
    const before = body
    const leading = LEADING_TOKEN.exec(body)
    if (leading) {
      body = body.slice(leading[0].length)
      pushFix(fixes, 'stripped-special-tokens')
    }
    const trailing = TRAILING_TOKEN.exec(body.length > 256 ? body.slice(-256) : body)
    if (trailing) {
      body = body.slice(0, body.length - trailing[0].length).trimEnd()
      pushFix(fixes, 'stripped-special-tokens')
    }
    const prefix = LEADING_PREFIX.exec(body)
    if (prefix && prefix[0].length > 0) {
      body = body.slice(prefix[0].length).trimStart()
      pushFix(fixes, 'json-prefix')
      body = withoutClosingFence(body)
    }
    if (body === before) break
  }
  return body
}

/** `body` without a closing fence at its end and the blanks around it (read from the end: `/[ \t]*```\s*$/` is quadratic). */
function withoutClosingFence(body: string): string {
  const trimmed = body.trimEnd()
  if (!trimmed.endsWith('```') && !trimmed.endsWith('~~~')) return body
  let kept = trimEndOf(trimmed.slice(0, -3), ' \t')
  if (kept.endsWith('\n')) kept = kept.slice(0, -1)
  return kept.endsWith('\r') ? kept.slice(0, -1) : kept
}

interface Measure {
  truncated: boolean
  depth: number
}

/** One pass: is an object, array or string left open, and how deep does the nesting go. */
function measureJson(text: string): Measure {
  let stack = new Uint8Array(64)
  let size = 0
  let braces = 0
  let brackets = 0
  let depth = 0
  let inString = 0
  const length = text.length
  for (let index = 0; index < length; index++) {
    const code = text.charCodeAt(index)
    if (inString !== 0) {
      if (code === 92) index++
      else if (code === inString && (inString === 34 || closesSingleQuotedString(text, index, length))) inString = 0
      continue
    }
    if (code === 34) {
      if (!isStrayQuote(text, index)) inString = 34
    } else if (code === 39 && opensSingleQuotedString(text, index)) inString = 39
    else if (code === 123 || code === 91) {
      if (size === stack.length) {
        const larger = new Uint8Array(size * 2)
        larger.set(stack)
        stack = larger
      }
      stack[size++] = code
      if (code === 123) braces++
      else brackets++
      if (size > depth) depth = size
    } else if (code === 125 || code === 93) {
      const want = code === 125 ? 123 : 91
      // A stray closer is malformed, not truncated; counts keep the search linear.
      if ((want === 123 ? braces : brackets) > 0) {
        for (;;) {
          const popped = stack[--size]!
          if (popped === 123) braces--
          else brackets--
          if (popped === want) break
        }
      }
    }
  }
  return { truncated: inString !== 0 || size > 0, depth }
}

/**
 * Whether `text` opens an object, array or string that it never closes — a cut-off generation.
 * Special tokens and fences around the value are ignored; stray extra closers are not truncation.
 *
 * @example
 * ```ts
 * isTruncatedJson('{"index": 3, "text": "hel') // true
 * isTruncatedJson('{"index": 3}<|call|>')       // false
 * ```
 */
export function isTruncatedJson(text: string): boolean {
  return measureJson(stripEdges(text, [])).truncated
}

/**
 * The closers (`}`, `]`) that text ending inside JSON lacks, when that is all it lacks: its unclosed
 * value, repaired, is the same text with only closers added (no string closed, no `null` filled in
 * after a key or `:`, no comma dropped, nothing changed inside), and it ends after a value, not an
 * opener. Otherwise `''`.
 *
 * @example
 * ```ts
 * missingClosers('Sure: {"name": "search", "arguments": {"query": "x"') // '}}'
 * missingClosers('{"name": "search", "arguments": {"query": ') // ''
 * ```
 */
export function missingClosers(text: string): string {
  const start = scanJson(text).truncatedStart
  const body = text.slice(start).trimEnd()
  try {
    // An opener with nothing after it holds no value yet: cut, not complete. The repair is not linear on
    // every input (a flood of closers that shut openers above their own), so a value is looked at up to
    // 16 KiB: a call longer than that which lacks its closers stays unclosed.
    const repaired = start < 0 || body.length > 16_384 || /[[{]$/.test(body) ? '' : jsonrepair(body)
    const added = repaired.slice(body.length)
    return repaired.startsWith(body) && /^[\]}]+$/.test(added) ? added : ''
  } catch {
    return ''
  }
}

/**
 * Rewrites Python-isms into JSON before the generic repair: single-quoted strings become
 * double-quoted (an apostrophe inside a word never ends a string, so `'what's up'` survives) and
 * `True`/`False`/`None` outside strings become `true`/`false`/`null`.
 */
function normalizePython(text: string): { text: string; changed: boolean } {
  const length = text.length
  let output = ''
  let copiedUpTo = 0
  let changed = false
  let index = 0
  while (index < length) {
    const code = text.charCodeAt(index)
    if (code === 34 && !isStrayQuote(text, index)) {
      // Skip a double-quoted string as is.
      index++
      while (index < length) {
        const inner = text.charCodeAt(index)
        if (inner === 92) index += 2
        else if (inner === 34) break
        else index++
      }
      index++
      continue
    }
    if (code === 39 && opensSingleQuotedString(text, index)) {
      let cursor = index + 1
      let content = ''
      let closed = -1
      let segmentStart = cursor
      while (cursor < length) {
        const inner = text.charCodeAt(cursor)
        if (inner === 92) {
          if (text.charCodeAt(cursor + 1) === 39) {
            content += text.slice(segmentStart, cursor) + "'"
            cursor += 2
            segmentStart = cursor
            continue
          }
          cursor += 2
          continue
        }
        if (inner === 34) {
          content += text.slice(segmentStart, cursor) + '\\"'
          cursor++
          segmentStart = cursor
          continue
        }
        if (inner === 39 && closesSingleQuotedString(text, cursor, length)) {
          closed = cursor
          break
        }
        cursor++
      }
      // No closing quote: leave the rest to the generic repair (and avoid rescanning it).
      if (closed < 0) break
      content += text.slice(segmentStart, closed)
      output += text.slice(copiedUpTo, index) + '"' + content + '"'
      copiedUpTo = closed + 1
      index = closed + 1
      changed = true
      continue
    }
    if ((code === 84 || code === 70 || code === 78) && (index === 0 || !isWordCode(text.charCodeAt(index - 1)))) {
      const word = text.startsWith('True', index) ? 'True' : text.startsWith('False', index) ? 'False' : text.startsWith('None', index) ? 'None' : ''
      if (word && !isWordCode(text.charCodeAt(index + word.length))) {
        output += text.slice(copiedUpTo, index) + (word === 'True' ? 'true' : word === 'False' ? 'false' : 'null')
        index += word.length
        copiedUpTo = index
        changed = true
        continue
      }
    }
    index++
  }
  if (!changed) return { text, changed }
  return { text: output + text.slice(copiedUpTo), changed }
}

function parseStrict(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) }
  } catch {
    return undefined
  }
}

/**
 * Parses JSON the way models write it. Strict `JSON.parse` first; then strips special tokens and
 * a leaked `json`/fence prefix, rewrites Python literals, and lets `jsonrepair` fix the rest
 * (trailing commas, unquoted keys, raw newlines in strings …).
 *
 * Returns `undefined` for text that is not JSON-ish, nested deeper than 64 levels, or truncated —
 * a cut-off value is never completed into something that could be executed.
 * Objects come from `JSON.parse`, so a `__proto__` key stays an own property.
 *
 * @example
 * ```ts
 * parseLenientJson("{'text': 'what's up', 'submit': True,}")
 * // { value: { text: "what's up", submit: true }, fixes: ['python-literals', 'lenient-json'] }
 * parseLenientJson('{"text": "hel') // undefined (truncated)
 * ```
 */
export function parseLenientJson(text: string): LenientJsonResult | undefined {
  if (typeof text !== 'string') return undefined
  const fixes: string[] = []
  let body = text.trim()
  if (body.length === 0) return undefined
  const first = body.charCodeAt(0)
  // Strict first: the common clean case costs one scan and one JSON.parse.
  if (first === 123 || first === 91 || first === 34) {
    const measure = measureJson(body)
    if (measure.depth > MAX_JSON_DEPTH) return undefined
    if (!measure.truncated) {
      const strict = parseStrict(body)
      if (strict) return { value: strict.value, fixes }
    }
  } else if (SCALAR.test(body)) {
    // A number or a literal: nothing can nest.
    const strict = parseStrict(body)
    if (strict) return { value: strict.value, fixes }
  } else if (!MAY_HOLD_JSON.test(body)) {
    // Prose: not worth a thrown SyntaxError (costly when a message holds thousands of candidates).
    return undefined
  }

  body = stripEdges(body, fixes)
  if (body.length === 0) return undefined
  const measure = measureJson(body)
  if (measure.truncated || measure.depth > MAX_JSON_DEPTH) return undefined
  if (fixes.length > 0) {
    const strict = parseStrict(body)
    if (strict) return { value: strict.value, fixes }
  }

  const python = normalizePython(body)
  if (python.changed) {
    pushFix(fixes, 'python-literals')
    body = python.text
    const strict = parseStrict(body)
    if (strict) return { value: strict.value, fixes }
  }
  const start = body.charCodeAt(0)
  // Only values that start like JSON go to jsonrepair, which would otherwise turn prose into a string.
  if (start !== 123 && start !== 91 && start !== 34) return undefined
  try {
    const repaired = jsonrepair(body)
    const value: unknown = JSON.parse(repaired)
    pushFix(fixes, 'lenient-json')
    return { value, fixes }
  } catch {
    return undefined
  }
}

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' }
const ESCAPE = /\\(u[0-9a-fA-F]{4}|[\s\S])/g

/** Whether every `"` in `text` is escaped (an odd run of backslashes before it), and there is one. */
function quotesAllEscaped(text: string): boolean {
  let seen = false
  for (let index = text.indexOf('"'); index >= 0; index = text.indexOf('"', index + 1)) {
    let slashes = 0
    while (index - slashes - 1 >= 0 && text.charCodeAt(index - slashes - 1) === 92) slashes++
    if (slashes % 2 === 0) return false
    seen = true
  }
  return seen
}

/** One layer of JSON string escaping removed: the whole text a quoted JSON string, or every quote escaped. */
function unescapeOnce(text: string): string | undefined {
  if (text.length >= 2 && text.charCodeAt(0) === 34 && text.charCodeAt(text.length - 1) === 34) {
    const parsed = parseStrict(text)
    if (parsed && typeof parsed.value === 'string') return parsed.value
  }
  if (!quotesAllEscaped(text)) return undefined
  // Exactly what JSON string escaping undoes, so a value that was cut off stays cut off.
  return text.replace(ESCAPE, (whole, escaped: string) => (escaped.length === 5 ? String.fromCharCode(Number.parseInt(escaped.slice(1), 16)) : (ESCAPES[escaped] ?? whole)))
}

/**
 * Text whose JSON was escaped as a string, once or several times: the whole answer a quoted JSON
 * string (a call stringified twice or more), or every quote backslash-escaped (`{\"name\": \"scroll\"}`).
 * Returns the text with every layer removed (at most 8), or `undefined` when there was none.
 *
 * @example
 * ```ts
 * decodeEscapedText('{\\"name\\": \\"scroll\\"}') // '{"name": "scroll"}'
 * decodeEscapedText('{"name": "scroll"}')       // undefined
 * ```
 */
export function decodeEscapedText(text: string): string | undefined {
  if (typeof text !== 'string') return undefined
  let current = text.trim()
  let layers = 0
  for (; layers < 8; layers++) {
    const next = unescapeOnce(current)
    if (next === undefined) break
    current = next.trim()
  }
  return layers > 0 ? current : undefined
}

// `key=value` / `key: value` argument text: a key, then a quoted or a bare value.
const PAIR_KEY = /[,;\s]*([A-Za-z_][\w.-]*)[ \t]*[=:][ \t]*/y
// The next `key=` (or `key:`) after whitespace, which ends a bare value.
const NEXT_KEY = /[A-Za-z_][\w.-]*[ \t]*[=:]/y
/** Longest argument text read as pairs: real `key=value` arguments are short. */
const MAX_PAIR_TEXT = 4096

/**
 * Arguments written as `key=value` text (`down=true`, `index=3, text="hi there"`, `index: 3 text: hi`)
 * as an object of strings — only when every key is one of `fields` and the whole text is read, so
 * prose never becomes arguments. Values stay text; schema-guided coercion types them.
 *
 * @example
 * ```ts
 * parseKeyValueText('index=3, text="hi there"', new Set(['index', 'text'])) // { index: '3', text: 'hi there' }
 * parseKeyValueText('down=true bogus=1', new Set(['down']))                  // undefined
 * ```
 */
export function parseKeyValueText(text: string, fields: ReadonlySet<string>): Record<string, string> | undefined {
  if (typeof text !== 'string' || text.length > MAX_PAIR_TEXT || fields.size === 0) return undefined
  const body = text.trim()
  const output: Record<string, string> = {}
  let position = 0
  let count = 0
  while (position < body.length) {
    PAIR_KEY.lastIndex = position
    const pair = PAIR_KEY.exec(body)
    if (!pair) return undefined
    const key = pair[1]!
    if (!fields.has(key) || Object.hasOwn(output, key) || key === '__proto__') return undefined
    position = PAIR_KEY.lastIndex
    const read = readPairValue(body, position)
    if (!read) return undefined
    output[key] = read.value
    position = read.end
    count++
    // Separators after the last value.
    while (position < body.length && /[,;\s]/.test(body[position]!)) position++
  }
  return count > 0 ? output : undefined
}

function readPairValue(text: string, start: number): { value: string; end: number } | undefined {
  const quote = text.charCodeAt(start)
  if (quote === 34 || quote === 39) {
    let index = start + 1
    while (index < text.length && text.charCodeAt(index) !== quote) index += text.charCodeAt(index) === 92 ? 2 : 1
    if (index >= text.length) return undefined
    const inner = text.slice(start + 1, index)
    const value = quote === 34 ? (parseStrict(text.slice(start, index + 1))?.value as string | undefined) ?? inner : inner.replace(/\\'/g, "'")
    return { value, end: index + 1 }
  }
  const end = bareValueEnd(text, start)
  const value = text.slice(start, end).trim()
  return value === '' ? undefined : { value, end }
}

/**
 * Where a bare value starting at `start` ends: at the spaces before a comma, semicolon or line
 * break, or before spaces and the next `key=`. A scan that reads each run of spaces once: the regex
 * `[ \t]*[,;\r\n]|[ \t]+(?=key=)` retried every position inside a long run (quadratic).
 */
function bareValueEnd(text: string, start: number): number {
  for (let index = start; index < text.length; ) {
    let after = index
    while (text[after] === ' ' || text[after] === '\t') after++
    const next = text[after]
    if (next === ',' || next === ';' || next === '\r' || next === '\n') return index
    if (after > index) {
      NEXT_KEY.lastIndex = after
      if (NEXT_KEY.test(text)) return index
    }
    index = Math.max(after, index + 1)
  }
  return text.length
}

