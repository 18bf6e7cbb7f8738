/**
 * Gemma's call syntax: `call:NAME{key:<escape>text<escape>,n:3,nested:{…},list:[…]}` — not JSON.
 *
 * Text rules (FunctionGemma's `<start_function_call>call:NAME{…}<end_function_call>`, Gemma 4's
 * `<|tool_call>call:NAME{…}<tool_call|>`):
 * - keys are bare words; a string sits between two `<escape>` (Gemma 4: `<|"|>`) delimiters and is
 *   exactly the text between them — commas, braces, colons, quotes, newlines and spaces included;
 *   the delimiters never reach the tool, and nothing inside is escaped;
 * - any other value is a bare literal (`5`, `true`, `null`, `None`) or a `{…}` / `[…]` of values; a bare
 *   literal where the field's schema wants a string and not that literal's type (`zip:02139`) is the
 *   text as written;
 * - items are joined by `,`; a model that leaves the comma out (`{a:<escape>x<escape>b:<escape>y<escape>}`)
 *   is read the same, since a delimited string or a `{…}` / `[…]` ends where it closes.
 */
import { skipSpaces } from '../../text/char-codes'
import { setOwn } from '../../util/set-own'
import { schemaAtPath, type JsonSchemaNode } from '../coerce'
import { cleanToolName } from '../match-tool-name'
import type { Reader } from '../reader'
import { admittedTypes } from '../reading/decode-value'
import { MAX_CALLS, MAX_MARKUP_DEPTH } from '../reading/limits'
import { readItems } from '../reading/read-items'
import { readName } from '../reading/read-name'
import { addOver, readAlone, type BuiltInReader, type ExtractionContext } from '../reading/reading-context'

const QUOTES = ['<escape>', '<|"|>'] as const
type GemmaResult = { value: unknown; end: number } | 'truncated' | undefined

/** The delimiter starting at `index`, if any. */
function quoteAt(text: string, index: number): string | undefined {
  if (text.charCodeAt(index) !== 60) return undefined
  for (const quote of QUOTES) if (text.startsWith(quote, index)) return quote
  return undefined
}

/** Finds `call:NAME{…}` calls. */
export function recognizeGemmaCalls(context: ExtractionContext): void {
  const { text } = context
  let at = text.indexOf('call:')
  while (at >= 0 && context.found.length < MAX_CALLS) {
    const nameStart = at + 5
    const nameEnd = readName(text, nameStart)
    let next = at + 5
    const name = cleanToolName(text.slice(nameStart, nameEnd), context.names)
    // Without its opening marker (`<start_function_call>`, `<|tool_call>`) a `call:` is a call only of a
    // known tool: `call:x{a:1}` inside another call's string or in prose is text.
    const sure = !context.names || context.names.has(name) || afterOpeningMarker(text, at)
    if (nameEnd > nameStart && sure && (at === 0 || !/[\w.]/.test(text[at - 1]!))) {
      const open = skipSpaces(text, nameEnd)
      if (open >= text.length) context.truncated = true
      else if (text.charCodeAt(open) === 123) {
        const schema = context.schemaOf?.(name)
        const parsed = parseGemmaValue(text, open, 0, schema)
        if (parsed === 'truncated') {
          context.truncated = true
          return
        }
        if (parsed) {
          addOver(context, { name, args: parsed.value, format: 'tool-markup:gemma', fixes: [], start: at }, open, parsed.end)
          next = parsed.end
        }
      }
    }
    at = text.indexOf('call:', next)
  }
}

const OPENING_MARKERS = ['<start_function_call>', '<|tool_call>', '<|tool_call|>']

function afterOpeningMarker(text: string, at: number): boolean {
  for (const marker of OPENING_MARKERS) if (text.endsWith(marker, at)) return true
  return false
}

/** One value at `index`; `schema` is the value's own schema node, when known. */
function parseGemmaValue(text: string, index: number, depth: number, schema: JsonSchemaNode | undefined): GemmaResult {
  if (depth > MAX_MARKUP_DEPTH) return undefined
  const cursor = skipSpaces(text, index)
  if (cursor >= text.length) return 'truncated'
  const quote = quoteAt(text, cursor)
  if (quote) {
    const close = text.indexOf(quote, cursor + quote.length)
    if (close < 0) return 'truncated'
    return { value: text.slice(cursor + quote.length, close), end: close + quote.length }
  }
  const code = text.charCodeAt(cursor)
  if (code === 123) {
    const result: Record<string, unknown> = {}
    const end = readItems(text, cursor, 125, (at) => {
      let position = at
      let key: string
      const keyQuote = quoteAt(text, position)
      if (keyQuote) {
        const close = text.indexOf(keyQuote, position + keyQuote.length)
        if (close < 0) return 'truncated'
        key = text.slice(position + keyQuote.length, close)
        position = close + keyQuote.length
      } else {
        const keyEnd = readName(text, position)
        if (keyEnd === position) return undefined
        key = text.slice(position, keyEnd)
        position = keyEnd
      }
      position = skipSpaces(text, position)
      if (position >= text.length) return 'truncated'
      if (text.charCodeAt(position) !== 58) return undefined
      const value = parseGemmaValue(text, position + 1, depth + 1, schema && schemaAtPath(schema, [key]))
      if (value === undefined || value === 'truncated') return value
      setOwn(result, key, value.value)
      return value.end
    }, true)
    return typeof end === 'number' ? { value: result, end } : end
  }
  if (code === 91) {
    const items: unknown[] = []
    const end = readItems(text, cursor, 93, (at) => {
      const value = parseGemmaValue(text, at, depth + 1, schema && schemaAtPath(schema, [items.length]))
      if (value === undefined || value === 'truncated') return value
      items.push(value.value)
      return value.end
    }, true)
    return typeof end === 'number' ? { value: items, end } : end
  }
  if (code === 34) {
    // A plain JSON string, when the model used ordinary quotes.
    let end = cursor + 1
    while (end < text.length && text.charCodeAt(end) !== 34) end += text.charCodeAt(end) === 92 ? 2 : 1
    if (end >= text.length) return 'truncated'
    try {
      return { value: JSON.parse(text.slice(cursor, end + 1)) as unknown, end: end + 1 }
    } catch {
      return undefined
    }
  }
  // A bare literal runs to the next delimiter.
  let end = cursor
  while (end < text.length && !/[,}\]\n]/.test(text[end]!) && !text.startsWith('<|', end)) end++
  if (end >= text.length) return 'truncated'
  const raw = text.slice(cursor, end).trim()
  if (raw === '') return undefined
  const value = bareLiteral(raw)
  // `zip:02139` for a string field: the text as written, not the number it also spells.
  if (value !== raw && schema) {
    const types = admittedTypes(schema)
    const type = value === null ? 'null' : typeof value
    if (types.has('string') && !types.has(type)) return { value: raw, end }
  }
  return { value, end }
}

function bareLiteral(raw: string): unknown {
  if (raw === 'true') return true
  if (raw === 'false') return false
  if (raw === 'null' || raw === 'None') return null
  return Number.isFinite(Number(raw)) ? Number(raw) : raw
}

const reader: BuiltInReader = {
  name: 'gemma',
  formats: ['tool-markup:gemma'],
  recognize: recognizeGemmaCalls,
  read: (text, context) => readAlone(reader, text, context),
}

/**
 * FunctionGemma's call syntax: `<start_function_call>call:NAME{key:<|"|>text<|"|>,n:3}<end_function_call>` —
 * bare keys, strings between `<|"|>` tokens, other values bare literals.
 *
 * @example
 * ```ts
 * gemmaReader.read('<start_function_call>call:scroll{down:true}<end_function_call>', { names: undefined, claimed: () => false })
 * ```
 */
export const gemmaReader: Reader = reader
