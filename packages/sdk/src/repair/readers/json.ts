/**
 * JSON values in text (`content-json`): every object and array, bare, fenced, several in a row, prose
 * around, found by the one linear JSON scan of the reading context and parsed leniently. A span that
 * overlaps a call markup took, or does not parse, is looked inside for values that do.
 * Envelopes (`{name, arguments}`) are left for the repair to unwrap.
 *
 * Text rules: JSON types the values; a fence around a value is layout (fix `fenced`). A name written in
 * a call's position right before an object (`web_search{…}`, `web_search({…})`, `web_search` alone on
 * the line above) is its `calledName`; a known name written before it on its line is its `nameHint`.
 */
import { isSpaceCode, skipSpaces } from '../../text/char-codes'
import { trimEndOf } from '../../text/trim-end-of'
import { MAX_JSON_DEPTH, parseLenientJson } from '../lenient-json'
import { cleanToolName } from '../match-tool-name'
import type { ExtractedCall } from '../reader'
import { fenceAround } from '../reading/fences'
import { MAX_CALLS } from '../reading/limits'
import { isNameCode, readName } from '../reading/read-name'
import { addFound, readAlone, type BuiltInReader, type ExtractionContext } from '../reading/reading-context'
import type { JsonSpan, TextRange } from '../scan-json'

/** JSON spans looked at per message: a flood of braces costs bounded work. */
const MAX_JSON_VISITS = 256

/** JSON objects and arrays in the text, outside what markup readers took. */
export function addJsonCandidates(context: ExtractionContext): void {
  const claimed: TextRange[] = context.found.map((found) => [found.call.start, found.end] as const)
  const { scan, text } = context
  // Depth-first over the span tree with an explicit stack: nesting depth must not reach the call stack.
  const pending: JsonSpan[] = [...scan.spans].reverse()
  let visits = 0
  while (pending.length > 0 && visits < MAX_JSON_VISITS && context.found.length < MAX_CALLS) {
    const span = pending.pop()!
    visits++
    // Too deep to parse, and its inner levels are no call of their own either.
    if (span.depth > MAX_JSON_DEPTH) continue
    let parsed: ReturnType<typeof parseLenientJson>
    // A claimed call may sit inside a larger span: look inside it for others.
    if (!overlapsAny(claimed, span.start, span.end)) parsed = parseLenientJson(text.slice(span.start, span.end))
    if (parsed === undefined || parsed.value === null || typeof parsed.value !== 'object') {
      const children = scan.childrenOf(span)
      for (let child = children.length - 1; child >= 0; child--) pending.push(children[child]!)
      continue
    }
    const fixes = [...parsed.fixes]
    const fence = fenceAround(context, span.start)
    if (fence) fixes.push('fenced')
    const call: ExtractedCall = { args: parsed.value, format: 'content-json', fixes, start: span.start }
    const called = fence ? undefined : nameCalling(text, span.start, span.end)
    const hint = called === undefined ? nameBefore(context, fence && fence.bodyStart <= span.start ? fence.start : span.start) : undefined
    if (called !== undefined) call.calledName = called
    else if (hint) call.nameHint = hint
    addFound(context, call, span.end)
  }
}

// Words that label a JSON block rather than name a call (`json\n{…}`, a fence's language without its
// fence), and a lone capitalised word (`Sure`, `Answer`): prose, not a tool's name.
const LABEL = /^(?:json\w*|javascript|js|python|py|text|code|tool_?code|tool_?calls?|tools?|functions?(?:_?calls?)?|calls?|output|result|response|answer|arg(?:ument)?s|param(?:eter)?s|inputs?)$/i

/**
 * The name written in a call's position right before the JSON object at `[start, end)`, known or not:
 * touching it (`web_search{…}`, Mistral's compact form with its tokens stripped), around it as the one
 * argument (`web_search({…})`), or alone on the line above it (`web_search\n{…}`). Every scan back is
 * bounded, so a flood of braces on one line costs linear time.
 */
function nameCalling(text: string, start: number, end: number): string | undefined {
  if (text.charCodeAt(start) !== 123) return undefined
  const inParentheses = text.charCodeAt(start - 1) === 40
  if (inParentheses && text.charCodeAt(skipSpaces(text, end)) !== 41) return undefined
  const nameEnd = inParentheses ? start - 1 : start
  let nameStart = nameEnd
  while (nameStart > 0 && nameEnd - nameStart < 128 && isNameCode(text.charCodeAt(nameStart - 1))) nameStart--
  if (nameStart < nameEnd) {
    // Part of a longer token (`\\frac{`, `a/b{`): no name. A tag or token may come right before it.
    const before = text.charCodeAt(nameStart - 1)
    return nameStart === 0 || isSpaceCode(before) || before === 62 || before === 93 ? calledName(text.slice(nameStart, nameEnd)) : undefined
  }
  if (inParentheses) return undefined
  // `name` alone on the line above: only spaces between the line break and the JSON.
  let lineBreak = start - 1
  while (lineBreak >= 0 && text.charCodeAt(lineBreak) !== 10 && isSpaceCode(text.charCodeAt(lineBreak))) lineBreak--
  if (text.charCodeAt(lineBreak) !== 10) return undefined
  const lineStart = Math.max(0, lineBreak - 130)
  const line = text.slice(lineStart, lineBreak)
  const from = line.lastIndexOf('\n') + 1
  return from > 0 || lineStart === 0 ? calledName(line.slice(from).trim()) : undefined
}

function calledName(raw: string): string | undefined {
  const name = cleanToolName(raw)
  return name && readName(name, 0) === name.length && !LABEL.test(name) && !/^[A-Z][a-z]*$/.test(name) ? name : undefined
}

// Words looked at before a JSON value for a name hint, and how far back on its line.
const HINT_WINDOW = 80
const WORD = /[A-Za-z_][\w.:-]*/g

/** The nearest known name written before `position` on the same line, as a whole word. */
function nameBefore(context: ExtractionContext, position: number): string | undefined {
  const { names, text } = context
  if (!names || names.size === 0 || position === 0) return undefined
  const lineStart = text.lastIndexOf('\n', position - 1) + 1
  const window = text.slice(Math.max(lineStart, position - HINT_WINDOW), position)
  const words = window.match(WORD)
  if (!words) return undefined
  for (let index = words.length - 1; index >= 0; index--) {
    const name = cleanToolName(trimEndOf(words[index]!, '.:-'), names)
    if (names.has(name)) return name
  }
  return undefined
}

/** Whether `[start, end)` overlaps any range in `ranges`. */
function overlapsAny(ranges: readonly TextRange[], start: number, end: number): boolean {
  for (const [rangeStart, rangeEnd] of ranges) if (start < rangeEnd && rangeStart < end) return true
  return false
}

/**
 * JSON objects and arrays anywhere in the text — bare, fenced, several in a row, prose around —
 * parsed leniently (`content-json`). Envelopes (`{name, arguments}`) are left for the repair to
 * unwrap; a known name written just before a value on its line is its `nameHint`.
 *
 * @example
 * ```ts
 * const client = createClient({ baseURL, model, readers: [hermesReader] }) // jsonReader is always there
 * ```
 */
export const jsonReader: BuiltInReader = {
  name: 'json',
  formats: ['content-json'],
  stage: 'json',
  recognize: addJsonCandidates,
  read: (text, context) => readAlone(jsonReader, text, context),
}
