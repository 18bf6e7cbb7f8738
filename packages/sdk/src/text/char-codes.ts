// Character classes by char code, shared by the JSON scanner and every reader: one copy of each test.

/** An ASCII letter or `_`: what starts a name. */
export const isNameStartCode = (code: number) => (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95

/** A word character (`\w` in ASCII): a letter, a digit or `_`. */
export const isWordCode = (code: number) => isNameStartCode(code) || (code >= 48 && code <= 57)

/** A space, tab, line feed or carriage return. */
export const isSpaceCode = (code: number) => code === 32 || code === 9 || code === 10 || code === 13

/** The first offset at or after `index` (before `end`) that is not a space. */
export function skipSpaces(text: string, index: number, end = text.length): number {
  while (index < end && isSpaceCode(text.charCodeAt(index))) index++
  return index
}
