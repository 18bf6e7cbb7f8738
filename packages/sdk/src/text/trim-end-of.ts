/**
 * `text` without the characters it ends in that are in `chars` (a string of them, or a regex for
 * one character). A loop, because `/[…]+$/` is quadratic: the regex retries from every position of
 * a long run of those characters that something else follows (`-+++…+1`, spaces then `2s`).
 *
 * @example
 * ```ts
 * trimEndOf('https://api.example.com//', '/') // 'https://api.example.com'
 * trimEndOf('1s, ', /[\s,.]/)                  // '1s'
 * ```
 */
export function trimEndOf(text: string, chars: string | RegExp): string {
  const drops = typeof chars === 'string' ? (char: string) => chars.includes(char) : (char: string) => chars.test(char)
  let end = text.length
  while (end > 0 && drops(text[end - 1]!)) end--
  return end === text.length ? text : text.slice(0, end)
}
