/**
 * Gemma's call syntax: `call:NAME{key:<|"|>text<|"|>,n:3,nested:{…},list:[…]}` — not JSON: keys are
 * bare, strings sit between `<|"|>` tokens, other values are bare literals.
 */
import { MAX_CALLS, MAX_MARKUP_DEPTH, addFound, cleanToolName, readName, setOwn, skipSpaces } from './markup-shared'
import type { ExtractionContext } from './markup-shared'

const QUOTE = '<|"|>'
type GemmaResult = { value: unknown; end: number } | 'truncated' | undefined

/** Finds `call:NAME{…}` calls. */
export function recognizeGemmaCalls(context: ExtractionContext): void {
  const { text } = context
  let at = text.indexOf('call:')
  while (at >= 0 && context.found.length < MAX_CALLS) {
    const nameStart = at + 5
    const nameEnd = readName(text, nameStart)
    let next = at + 5
    if (nameEnd > nameStart && (at === 0 || !/[\w.]/.test(text[at - 1]!))) {
      const open = skipSpaces(text, nameEnd)
      if (open >= text.length) context.truncated = true
      else if (text.charCodeAt(open) === 123) {
        const parsed = parseGemmaValue(text, open, 0)
        if (parsed === 'truncated') {
          context.truncated = true
          return
        }
        if (parsed) {
          addFound(context, { name: cleanToolName(text.slice(nameStart, nameEnd)), args: parsed.value, format: 'tool-markup:gemma', fixes: [], start: at }, parsed.end)
          next = parsed.end
        }
      }
    }
    at = text.indexOf('call:', next)
  }
}

function parseGemmaValue(text: string, index: number, depth: number): GemmaResult {
  if (depth > MAX_MARKUP_DEPTH) return undefined
  const cursor = skipSpaces(text, index)
  if (cursor >= text.length) return 'truncated'
  if (text.startsWith(QUOTE, cursor)) {
    const close = text.indexOf(QUOTE, cursor + QUOTE.length)
    if (close < 0) return 'truncated'
    return { value: text.slice(cursor + QUOTE.length, close), end: close + QUOTE.length }
  }
  const code = text.charCodeAt(cursor)
  if (code === 123) {
    const result: Record<string, unknown> = {}
    let position = cursor + 1
    for (;;) {
      position = skipSpaces(text, position)
      if (position >= text.length) return 'truncated'
      if (text.charCodeAt(position) === 125) return { value: result, end: position + 1 }
      let key: string
      if (text.startsWith(QUOTE, position)) {
        const close = text.indexOf(QUOTE, position + QUOTE.length)
        if (close < 0) return 'truncated'
        key = text.slice(position + QUOTE.length, close)
        position = close + QUOTE.length
      } else {
        const keyEnd = readName(text, position)
        if (keyEnd === position) return undefined
        key = text.slice(position, keyEnd)
        position = keyEnd
      }
      position = skipSpaces(text, position)
      if (position >= text.length) return 'truncated'
      if (text.charCodeAt(position) !== 58) return undefined
      const value = parseGemmaValue(text, position + 1, depth + 1)
      if (value === undefined || value === 'truncated') return value
      setOwn(result, key, value.value)
      position = skipSpaces(text, value.end)
      if (position >= text.length) return 'truncated'
      if (text.charCodeAt(position) === 44) position++
      else if (text.charCodeAt(position) !== 125) return undefined
    }
  }
  if (code === 91) {
    const items: unknown[] = []
    let position = cursor + 1
    for (;;) {
      position = skipSpaces(text, position)
      if (position >= text.length) return 'truncated'
      if (text.charCodeAt(position) === 93) return { value: items, end: position + 1 }
      const value = parseGemmaValue(text, position, depth + 1)
      if (value === undefined || value === 'truncated') return value
      items.push(value.value)
      position = skipSpaces(text, value.end)
      if (position >= text.length) return 'truncated'
      if (text.charCodeAt(position) === 44) position++
      else if (text.charCodeAt(position) !== 93) return undefined
    }
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
  if (raw === 'true') return { value: true, end }
  if (raw === 'false') return { value: false, end }
  if (raw === 'null' || raw === 'None') return { value: null, end }
  if (raw !== '' && Number.isFinite(Number(raw))) return { value: Number(raw), end }
  return raw === '' ? undefined : { value: raw, end }
}
