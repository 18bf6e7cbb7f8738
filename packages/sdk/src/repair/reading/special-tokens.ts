/**
 * Special tokens (`<|call|>`, `<｜tool▁sep｜>`, `[TOOL_CALLS]`, `<tool▁sep>`): found once per text, so the
 * JSON scan jumps over them and the token readers name them (`tokenName`), tell their family
 * (`tokenFamily`) and look one up by offset (`tokenAt`).
 */

/** Where a special token (`<|call|>`, `<｜tool▁sep｜>`, `[TOOL_CALLS]`, `<tool▁sep>`) is in the text; markup readers name it with `tokenName`. */
export interface TokenSpan {
  start: number
  end: number
}

// <|…|> (the closing `>` is sometimes missing), <｜…｜> with full-width bars, [UPPER_CASE] bracket
// tokens, and `▁`-spelled tokens whose bars a distilled model dropped. Every alternative is anchored
// on its first character and bounded, so the scan stays linear.
// regex-bounded: every alternative reads at most ~90 characters from its first (test: packages/sdk/src/linear-time.test.ts)
const SPECIAL_TOKEN = /<\|[^|<>\s]{1,48}\|>?|<｜[^｜<>\n]{1,48}｜>?|\[\/?[A-Z][A-Z0-9_]{1,30}\]|<\/?[^<>\s|｜]{0,40}▁[^<>\s]{0,40}>/g

/**
 * Finds every special token, in order: the JSON scan jumps over them, so `[TOOL_CALLS]` or `<|call|>`
 * never count as brackets. `<|"|>` (Gemma's string quote) is left to its parser.
 */
export function findSpecialTokens(text: string): TokenSpan[] {
  const tokens: TokenSpan[] = []
  if (!text.includes('<') && !text.includes('[')) return tokens
  for (const match of text.matchAll(SPECIAL_TOKEN)) if (match[0] !== '<|"|>') tokens.push({ start: match.index, end: match.index + match[0].length })
  return tokens
}

/**
 * `<|tool_call_begin|>` → `tool_call_begin`, `<｜tool▁sep｜>` → `tool_sep`, `[ARGS]` → `args`: the
 * lower-case name of the special token at `token`, delimiters removed and `▁` turned into `_`.
 */
export function tokenName(text: string, token: TokenSpan): string {
  const raw = text.slice(token.start, token.end)
  let from = 1
  let to = raw.length
  const second = raw[1]
  if (raw[0] === '<' && (second === '|' || second === '｜')) from = 2
  if (raw[to - 1] === '>' || raw[to - 1] === ']') to--
  if (raw[to - 1] === '|' || raw[to - 1] === '｜') to--
  const name = raw.slice(from, Math.max(from, to)).toLowerCase()
  return name.includes('▁') ? name.replaceAll('▁', '_') : name
}

/** The family the spelling of the token at `token` points to (`deepseek`, `mistral`, `kimi`, `harmony` …). */
export function tokenFamily(text: string, token: TokenSpan): string {
  const raw = text.slice(token.start, token.end)
  const name = tokenName(text, token)
  if (raw.includes('▁') || raw.includes('｜')) return 'deepseek'
  if (raw.startsWith('[')) return 'mistral'
  if (name.includes('argument_begin') || name.includes('section')) return 'kimi'
  if (name === 'message' || name === 'constrain' || name === 'channel' || name === 'call' || name === 'start' || name === 'end') return 'harmony'
  if (name === 'python_tag') return 'python-tag'
  if (name.includes('python_start') || name.includes('tool_call_start')) return 'pythonic'
  return 'special-token'
}

/** The special token that starts exactly at `offset` (binary search: tokens are sorted and disjoint). */
export function tokenAt(context: { readonly tokens: readonly TokenSpan[] }, offset: number): TokenSpan | undefined {
  const { tokens } = context
  let low = 0
  let high = tokens.length - 1
  while (low <= high) {
    const middle = (low + high) >> 1
    const start = tokens[middle]!.start
    if (start === offset) return tokens[middle]
    if (start < offset) low = middle + 1
    else high = middle - 1
  }
  return undefined
}
