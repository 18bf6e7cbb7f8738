/** Scanning a tool name in text: the characters a (dotted) name holds, and where one ends. */
import { isNameStartCode, isWordCode } from '../../text/char-codes'

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

