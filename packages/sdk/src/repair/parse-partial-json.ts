import { MAX_JSON_DEPTH } from './lenient-json'
import { setOwn } from '../util/set-own'
import { trimEndOf } from '../text/trim-end-of'
import { createTextBuffer, type TextBuffer } from '../text/text-buffer'

type Expect = 'key' | 'colon' | 'value' | 'comma'

interface Frame {
  expect: Expect
  container: Record<string, unknown> | unknown[]
  /** The key whose value comes next (objects). */
  key?: string
  /** Where the open child container sits: its key (objects). */
  childKey?: string
  /** Whether the last entry is a container still open (it is copied, not shared, in a snapshot). */
  openChild?: boolean
}

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/
const LITERALS: Record<string, unknown> = { true: true, false: false, null: null }
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' }
const HEX = /^[\dA-Fa-f]{4}$/

/**
 * A JSON text read piece by piece as it streams, with the value built as it goes: each piece is
 * scanned once, the scanner's state (open containers, an open string or number) is kept between
 * pieces, and a preview copies only the containers still open. Reading a text of any length in any
 * number of pieces, with a preview now and then, costs a linear total.
 */
export interface PartialJsonReader {
  /** Scans one more piece of the text. */
  push(piece: string): void
  /** The text so far. */
  text(): string
  /** Characters pushed so far. */
  readonly length: number
  /** Grows whenever the value a preview shows may have changed. */
  version(): number
  /** Whether one whole JSON value was read (what follows it is ignored). */
  complete(): boolean
  /**
   * The value so far, as {@link parsePartialJson} reads it: an open string closed where it stops,
   * open containers closed, a half-written key, `tru` or `-` left out. `undefined` before the first
   * value started or when the text is not JSON from its start.
   */
  read(): { value: unknown } | undefined
}

/**
 * Creates the incremental reader behind {@link parsePartialJson}.
 *
 * @example
 * ```ts
 * const reader = createPartialJsonReader()
 * reader.push('{"memory": "Clicked')
 * reader.push(' the bu')
 * reader.read()?.value // { memory: 'Clicked the bu' }
 * ```
 */
export function createPartialJsonReader(): PartialJsonReader {
  const stack: Frame[] = []
  const text = createTextBuffer()
  let version = 0
  let root: { value: unknown } | undefined
  let topDone = false
  // Set once the text went wrong (a value after a value, `True`, a bad escape): what came before stands.
  let ended = false
  // An open string: its decoded text so far, whether it is a key, and a half-read escape.
  let inString = false
  let stringIsKey = false
  let string: TextBuffer = createTextBuffer()
  let escape = ''
  // An open number or literal.
  let token = ''

  const expecting = (): Expect => (stack.length === 0 ? (topDone ? 'comma' : 'value') : stack.at(-1)!.expect)
  const place = (value: unknown, open: boolean) => {
    version++
    const top = stack.at(-1)
    if (!top) {
      root = { value }
      if (!open) topDone = true
      return
    }
    if (Array.isArray(top.container)) top.container.push(value)
    else {
      setOwn(top.container, top.key!, value)
      if (open) top.childKey = top.key
    }
    top.openChild = open
    top.expect = 'comma'
  }
  const endToken = (): boolean => {
    const value = tokenValue(token)
    token = ''
    if (value === undefined) return false
    place(value.value, false)
    return true
  }

  /** Scans `piece`; returns false once nothing more can be read. */
  function scan(piece: string): boolean {
    const length = piece.length
    // Where the next quote and the next backslash sit, each searched natively and found once per
    // piece: a string's plain run ends at the nearer.
    let quoteAt = -1
    let slashAt = -1
    for (let index = 0; index < length; index++) {
      if (inString) {
        if (escape !== '') {
          escape += piece[index]
          if (escape.length === 2 && escape !== '\\u') {
            const decoded = ESCAPES[escape[1]!]
            if (decoded === undefined) return false
            string.append(decoded)
            escape = ''
          } else if (escape.length === 6) {
            const hex = escape.slice(2)
            if (!HEX.test(hex)) return false
            string.append(String.fromCharCode(Number.parseInt(hex, 16)))
            escape = ''
          } else continue
          if (!stringIsKey) version++
          continue
        }
        // A run of plain characters is taken whole (raw control characters too: models write raw newlines).
        // None found is -1, read unsigned: past any index, so never searched again.
        if (quoteAt < index) quoteAt = piece.indexOf('"', index) >>> 0
        if (slashAt < index) slashAt = piece.indexOf('\\', index) >>> 0
        const end = Math.min(quoteAt, slashAt, length)
        if (end > index) {
          string.append(piece.slice(index, end))
          if (!stringIsKey) version++
          index = end
          if (index === length) break
        }
        if (piece.charCodeAt(index) === 92) {
          escape = '\\'
          continue
        }
        inString = false
        if (stringIsKey) {
          stack.at(-1)!.key = string.toString()
          stack.at(-1)!.expect = 'colon'
        } else {
          place(string.toString(), false)
          if (topDone) return false
        }
        string = createTextBuffer()
        continue
      }
      const char = piece[index]!
      if (token !== '') {
        if (/[\w.+-]/.test(char)) {
          token += char
          version++
          continue
        }
        if (!endToken()) return false
        if (topDone) return false
      }
      if (char === ' ' || char === '\n' || char === '\r' || char === '\t') continue
      const expect = expecting()
      switch (char) {
        case '{':
        case '[': {
          // Deeper than any JSON the repair accepts: the preview stops there (100k `[` overflowed JSON.stringify).
          if (expect !== 'value' || stack.length >= MAX_JSON_DEPTH) return false
          const container = char === '{' ? {} : []
          place(container, true)
          stack.push({ expect: char === '{' ? 'key' : 'value', container })
          continue
        }
        case '}':
        case ']': {
          const top = stack.at(-1)
          const object = char === '}'
          // A trailing comma (`{"a": 1,}`) is tolerated: the value before it is complete.
          if (!top || Array.isArray(top.container) === object || !(expect === 'comma' || expect === (object ? 'key' : 'value'))) return false
          stack.pop()
          version++
          const parent = stack.at(-1)
          if (parent) parent.openChild = false
          else {
            topDone = true
            return false
          }
          continue
        }
        case ':':
          if (expect !== 'colon') return false
          stack.at(-1)!.expect = 'value'
          continue
        case ',':
          if (expect !== 'comma' || stack.length === 0) return false
          stack.at(-1)!.expect = Array.isArray(stack.at(-1)!.container) ? 'value' : 'key'
          continue
        case '"':
          if (expect !== 'key' && expect !== 'value') return false
          inString = true
          stringIsKey = expect === 'key'
          if (!stringIsKey) version++
          continue
        default:
          if (expect === 'value' && /[-\dtfn]/.test(char)) {
            token = char
            version++
            continue
          }
          return false
      }
    }
    return true
  }

  /** The open string value or number as it would show now, if it shows. */
  function openLeaf(): { value: unknown } | undefined {
    if (ended) return undefined
    if (inString) return stringIsKey ? undefined : { value: string.toString() }
    if (token === '') return undefined
    // A number cut after `.`, `e` or a sign still shows its digits; a cut literal shows nothing.
    return tokenValue(/^[-\d]/.test(token) ? trimEndOf(token, '.eE+-') : token)
  }

  const reader = {
    // Methods and a plain field, no getters: an object literal with a getter is slow to create and
    // to read (the stream asks every call's length on every delta).
    text: () => text.toString(),
    length: 0,
    version: () => version,
    complete: () => topDone,
    push(piece: string) {
      text.append(piece)
      reader.length += piece.length
      if (!ended && !topDone && !scan(piece)) {
        // Whatever was open when the text went wrong (or after the value ended) is not shown.
        if (!topDone) ended = true
        inString = false
        token = ''
      }
    },
    read() {
      let leaf = openLeaf()
      // Copy the open containers innermost first; a closed one is final and shared.
      for (let depth = stack.length - 1; depth >= 0; depth--) {
        const frame = stack[depth]!
        const copy: Record<string, unknown> | unknown[] = Array.isArray(frame.container) ? frame.container.slice() : { ...frame.container }
        const child = depth < stack.length - 1 ? leaf : undefined
        if (child) {
          if (Array.isArray(copy)) copy[copy.length - 1] = child.value
          else setOwn(copy, frame.childKey!, child.value)
        } else if (leaf && frame.expect === 'value') {
          if (Array.isArray(copy)) copy.push(leaf.value)
          else setOwn(copy, frame.key!, leaf.value)
        }
        leaf = { value: copy }
      }
      const value = stack.length > 0 ? leaf : (root ?? leaf)
      if (!value) return undefined
      // Arguments sent as a JSON string (double-encoded) are opened too.
      return typeof value.value === 'string' && /^\s*[{[]/.test(value.value) ? (parseNested(value.value) ?? value) : value
    },
  }
  return reader
}

function tokenValue(token: string): { value: unknown } | undefined {
  if (Object.hasOwn(LITERALS, token)) return { value: LITERALS[token] }
  return NUMBER.test(token) ? { value: Number(token) } : undefined
}

let nesting = 0
function parseNested(text: string): { value: unknown } | undefined {
  if (nesting >= 2) return undefined
  nesting++
  try {
    return parsePartialJson(text)
  } finally {
    nesting--
  }
}

/**
 * Best-effort parse of the arguments a model is still writing, in one linear pass: an open string
 * value is closed where it stops, open objects and arrays are closed, and whatever cannot be
 * completed honestly (a half-written key, a key without its value, `tru`, `-`) is left out rather
 * than guessed. A string that itself holds JSON (double-encoded arguments) is opened too. Returns
 * `undefined` when nothing can be parsed yet. The value is only a preview: fields appear, grow and
 * may still change until the stream ends. For a text that grows, use {@link createPartialJsonReader}.
 *
 * @example
 * ```ts
 * parsePartialJson('{"memory": "Opened the pa')?.value // { memory: 'Opened the pa' }
 * parsePartialJson('{"a": 1, "nex')?.value            // { a: 1 }
 * ```
 */
export function parsePartialJson(text: string): { value: unknown } | undefined {
  const reader = createPartialJsonReader()
  reader.push(text)
  return reader.read()
}
