/**
 * The JSON body of a markup element (`<tool_call>{…}</tool_call>`, `<function=NAME>{…}</function>`,
 * `<scroll>{…}</scroll>`): a JSON value read leniently after spaces, special tokens, a fence marker or
 * a `json` word; fix `fenced` when a fence is around it.
 */
import { parseLenientJson } from '../lenient-json'
import { looksLikeJsonOpener } from '../scan-json'
import { skipSpaces } from '../../text/char-codes'
import { fenceAround } from './fences'
import { readName } from './read-name'
import type { ExtractionContext } from './reading-context'
import { tokenAt } from './special-tokens'

export type JsonBody = { value: unknown; fixes: string[]; start: number; end: number } | 'truncated' | undefined

/** A JSON value at the start of `[from, to)`, after spaces, a fence marker or a `json` word. */
export function readJsonBody(context: ExtractionContext, from: number, to: number): JsonBody {
  const { text } = context
  let cursor = skipSpaces(text, from, to)
  let fenced = false
  if (text.startsWith('```', cursor)) {
    cursor = skipSpaces(text, readName(text, cursor + 3), to)
    fenced = true
  } else if (/^json\b/i.test(text.slice(cursor, cursor + 5))) {
    cursor = skipSpaces(text, cursor + 4, to)
  }
  for (let token = tokenAt(context, cursor); token; token = tokenAt(context, cursor)) cursor = skipSpaces(text, token.end, to)
  const code = text.charCodeAt(cursor)
  if (cursor >= to || (code !== 123 && code !== 91)) return undefined
  const end = context.scan.endOf(cursor)
  if (end < 0) return looksLikeJsonOpener(text, cursor) && to >= text.length ? 'truncated' : undefined
  const parsed = parseLenientJson(text.slice(cursor, end))
  if (!parsed) return undefined
  const fixes = [...parsed.fixes]
  if (fenced || fenceAround(context, cursor)) fixes.push('fenced')
  return { value: parsed.value, fixes, start: cursor, end }
}
