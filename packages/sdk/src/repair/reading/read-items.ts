/** Scanning `item, item, …` lists: the one loop of the markup value parsers (Python literals and calls, Gemma values). */
import { skipSpaces } from '../../text/char-codes'

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

