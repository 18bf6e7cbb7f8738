import { MAX_JSON_DEPTH } from '../repair/lenient-json'
import { trimEndOf } from '../text/trim-end-of'

type Expect = 'key' | 'colon' | 'value' | 'comma'

interface Frame {
  kind: 'object' | 'array'
  expect: Expect
}

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/
const LITERALS = new Set(['true', 'false', 'null'])

/**
 * Closes a JSON text that was cut off anywhere, in one linear pass: an open string value is closed
 * where it stops, open objects and arrays are closed, and whatever cannot be completed honestly (a
 * half-written key, a key without its value, `tru`, `-`) is dropped rather than guessed. Raw control
 * characters inside strings (models write raw newlines) are escaped. Returns `undefined` when not
 * even the first value has started.
 *
 * @example
 * ```ts
 * completePartialJson('{"memory": "Clicked the bu') // '{"memory": "Clicked the bu"}'
 * completePartialJson('{"a": 1, "nex')              // '{"a": 1}'
 * ```
 */
export function completePartialJson(text: string): string | undefined {
  const stack: Frame[] = []
  // The closing brackets of the open containers, innermost first.
  let closers = ''
  let safeEnd = -1
  let safeClosers = ''
  let topDone = false
  let inString = false
  let stringIsKey = false
  let escape = false
  let unicodeLeft = 0
  let escapeStart = -1
  let tokenStart = -1
  const controls: number[] = []

  const expecting = (): Expect => (stack.length === 0 ? (topDone ? 'comma' : 'value') : stack[stack.length - 1]!.expect)
  const setExpect = (expect: Expect) => {
    if (stack.length > 0) stack[stack.length - 1]!.expect = expect
  }
  const valueDone = (end: number) => {
    if (stack.length === 0) topDone = true
    else setExpect('comma')
    safeEnd = end
    safeClosers = closers
  }
  const tokenValid = (token: string) => NUMBER.test(token) || LITERALS.has(token)

  let index = 0
  let stopped = false
  scan: for (; index < text.length; index++) {
    const char = text[index]!
    if (inString) {
      if (unicodeLeft > 0) unicodeLeft--
      else if (escape) {
        escape = false
        if (char === 'u') unicodeLeft = 4
      } else if (char === '\\') {
        escape = true
        escapeStart = index
      } else if (char === '"') {
        inString = false
        if (stringIsKey) setExpect('colon')
        else valueDone(index + 1)
        if (topDone) break
      } else if (char < ' ') controls.push(index)
      continue
    }
    if (tokenStart >= 0) {
      if (/[\w.+-]/.test(char)) continue
      if (!tokenValid(text.slice(tokenStart, index))) {
        stopped = true
        break
      }
      tokenStart = -1
      valueDone(index)
      if (topDone) break
    }
    if (char === ' ' || char === '\n' || char === '\r' || char === '\t') continue
    const expect = expecting()
    switch (char) {
      case '{':
      case '[':
        // Deeper than any JSON the repair accepts: the preview stops there (100k `[` overflowed JSON.stringify).
        if (expect !== 'value' || stack.length >= MAX_JSON_DEPTH) break scan
        stack.push({ kind: char === '{' ? 'object' : 'array', expect: char === '{' ? 'key' : 'value' })
        closers = (char === '{' ? '}' : ']') + closers
        safeEnd = index + 1
        safeClosers = closers
        continue
      case '}':
      case ']': {
        const top = stack[stack.length - 1]
        const kind = char === '}' ? 'object' : 'array'
        // A trailing comma (`{"a": 1,}`) is tolerated: the value before it is complete.
        if (!top || top.kind !== kind || !(expect === 'comma' || expect === (kind === 'object' ? 'key' : 'value'))) break scan
        stack.pop()
        closers = closers.slice(1)
        valueDone(index + 1)
        if (topDone) break scan
        continue
      }
      case ':':
        if (expect !== 'colon') break scan
        setExpect('value')
        continue
      case ',':
        if (expect !== 'comma' || stack.length === 0) break scan
        setExpect(stack[stack.length - 1]!.kind === 'object' ? 'key' : 'value')
        continue
      case '"':
        if (expect !== 'key' && expect !== 'value') break scan
        inString = true
        stringIsKey = expect === 'key'
        continue
      default:
        if (expect === 'value' && /[-\dtfn]/.test(char)) {
          tokenStart = index
          continue
        }
        break scan
    }
  }
  if (index < text.length) stopped = true

  let end = safeEnd
  let suffix = safeClosers
  if (!stopped && !topDone) {
    if (inString && !stringIsKey) {
      // Close the open string value where it stops, minus a half-written escape sequence.
      end = escape || unicodeLeft > 0 ? escapeStart : text.length
      suffix = `"${closers}`
    } else if (tokenStart >= 0) {
      const raw = text.slice(tokenStart)
      // A number cut after `.`, `e` or a sign still shows its digits; a cut literal shows nothing.
      const token = /^[-\d]/.test(raw) ? trimEndOf(raw, '.eE+-') : raw
      if (token && tokenValid(token)) {
        end = tokenStart + token.length
        suffix = closers
      }
    }
  } else if (topDone) {
    suffix = ''
  }
  if (end < 0) return undefined
  return escapeControls(text.slice(0, end), controls) + suffix
}

function escapeControls(text: string, controls: number[]): string {
  if (controls.length === 0) return text
  let out = ''
  let from = 0
  for (const position of controls) {
    if (position >= text.length) break
    out += text.slice(from, position) + `\\u${text.charCodeAt(position).toString(16).padStart(4, '0')}`
    from = position + 1
  }
  return out + text.slice(from)
}

/**
 * Best-effort parse of the arguments a model is still writing: {@link completePartialJson}, then
 * `JSON.parse`. A string that itself holds JSON (double-encoded arguments) is opened too. Returns
 * `undefined` when nothing can be parsed yet. The value is only a preview: fields appear, grow and
 * may still change until the stream ends.
 *
 * @example
 * ```ts
 * parsePartialJson('{"memory": "Opened the pa')?.value // { memory: 'Opened the pa' }
 * ```
 */
export function parsePartialJson(text: string): { value: unknown } | undefined {
  return parseLevel(text, 0)
}

function parseLevel(text: string, depth: number): { value: unknown } | undefined {
  const completed = completePartialJson(text)
  if (completed === undefined) return undefined
  let value: unknown
  try {
    value = JSON.parse(completed)
  } catch {
    return undefined
  }
  if (typeof value === 'string' && depth < 2 && /^\s*[{[]/.test(value)) {
    return parseLevel(value, depth + 1) ?? { value }
  }
  return { value }
}
