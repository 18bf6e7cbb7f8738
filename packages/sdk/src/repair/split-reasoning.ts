/**
 * The first stage: the message's content as text, with the reasoning blocks (every spelling of
 * `<think>`, harmony's analysis channel, typed reasoning parts) split from the answer.
 */
import { parseLenientJson } from './lenient-json'
import { scanJson } from './scan-json'
import type { JsonSpan, TextRange } from './scan-json'

export interface SplitReasoningResult {
  /** The content outside every reasoning block, trimmed. */
  answer: string
  /** The text of the reasoning blocks, in order, joined by a blank line. */
  reasoning: string
  /** `['stripped-reasoning']` when reasoning markup was found, else `[]`. */
  fixes: string[]
}

// Any tag whose name mentions thinking or reasoning: <think>, <thinking>, <seed:think>, <mm:think>,
// <reasoning>, <thought>, <antThinking> …; Mistral's [THINK]; <|begin_of_thought|> pairs; Kimi K3's
// <|open|>think<|sep|>; Apertus' <|inner_prefix|>; Gemma 4's <|channel>thought … <channel|>. The spaces
// after the `/` sit in its group: two adjacent `[ \t]*` made `<` before a long run of spaces quadratic.
export const REASONING_TAG =
  /<[ \t]*(?:(\/)[ \t]*)?([\w:.-]{0,24}(?:think|thought|reason)[\w:.-]{0,24})[ \t]*>|\[\/?THINK\]|<\|(?:begin|end)_of_(?:thought|reasoning)\|>|<\|(?:open|close)\|>think<\|sep\|>|<\|inner_(?:prefix|suffix)\|>|<\|channel>thought|<channel\|>/gi
// What makes one of the other markers a closer.
const CLOSER = /\/|end|close|suffix|l\|/i
/** Whether a match of {@link REASONING_TAG} opens a reasoning block (else it closes one). */
export const opensReasoning = (match: RegExpMatchArray): boolean => (match[2] !== undefined ? match[1] === undefined : !CLOSER.test(match[0]))
// A tag (`<think>`, `</mm:think>`) whose name is still being written.
const OPEN_TAG = /<[ \t]*(?:\/[ \t]*)?(?:[\w:.-]{1,54}[ \t]*)?$/

/**
 * Where a reasoning marker that more text may still complete can start in `text`, at `from` or
 * later (a stream holds it back until it knows): the first `<` or `[` of the last 24 characters,
 * which every fixed token (`<|close|>think<|sep|>`, `[/THINK]`) fits in, or a tag still open;
 * `text.length` when neither.
 *
 * @example
 * ```ts
 * markerTail('Done.<|close|>thi') // 5
 * markerTail('1 of [the list] is open') // 5
 * ```
 */
export function markerTail(text: string, from = 0): number {
  const start = Math.max(from, text.length - 24)
  const token = text.slice(start).search(/[<[]/)
  const tag = OPEN_TAG.exec(text.slice(Math.max(from, text.length - 64)))
  return Math.min(token < 0 ? text.length : start + token, tag ? text.length - tag[0].length : text.length)
}
// Harmony's analysis channel and a harmony-like message `to=self` (Muse Glimmer) are reasoning; each
// ends where the next message or channel starts. A message to the user after them: `final`, `to=user`.
// With the tokens stripped, an analysis message with a recipient (`assistantanalysis to=functions.x
// json{…}`, or `assistant to=functions.xanalysis json{…}`: that form always runs the channel into the
// name) is the same, `assistantfinal` the message to the user, and the next header its end.
const HARMONY_THOUGHT = /<\|channel\|>[ \t]*analysis\b|\bto=self\b|(?:^|assistant)analysis to=\w|assistant to=[\w.-]{1,128}?analysis\b/g
const HARMONY_END = /<\|(?:end|start|channel|return|call|eom|eot)\|>|assistant(?:analysis|commentary|final)/g
const TO_USER = /<\|channel\|>[ \t]*final\b|\bto=(?:user|all)\b|assistantfinal/g
const RECIPIENT = /\bto=(?!self\b)[\w.-]/

/**
 * Separates reasoning from the answer in `message.content`: `<think>…</think>`, a bare leading
 * `…</think>` (the chat template opened the block), an empty `<think>\n\n</think>`,
 * `[THINK]…[/THINK]`, `<seed:think>…</seed:think>`, `<reasoning>…`, other `<*think*>` variants (MiniMax
 * M3's `<mm:think>`), Kimi K3's `<|open|>think<|sep|>…<|close|>think<|sep|>`, Apertus'
 * `<|inner_prefix|>…<|inner_suffix|>`, Gemma 4's `<|channel>thought…<channel|>` and Harmony's `analysis` channel. A block opened and never closed runs to the end of the text.
 *
 * A marker inside a JSON value, or inside a call that `callRanges` finds in the whole text (a
 * `<parameter=text></think></parameter>` value), is text of that value: the reasoning ends at the
 * first closing marker outside a call.
 *
 * @example
 * ```ts
 * splitReasoning('I should scroll.</think>\n<tool_call>{"name": "scroll"}</tool_call>')
 * // { answer: '<tool_call>{"name": "scroll"}</tool_call>', reasoning: 'I should scroll.', fixes: ['stripped-reasoning'] }
 * ```
 */
export function splitReasoning(content: string, callRanges?: (text: string) => readonly TextRange[]): SplitReasoningResult {
  if (typeof content !== 'string' || content.length === 0) return { answer: '', reasoning: '', fixes: [] }
  const answerParts: string[] = []
  const reasoningParts: string[] = []
  let found = false
  let last = 0
  let depth = 0
  let reasoningStart = 0

  let blocks = dropMarkersInsideJson(content, collectMarkers(content))
  if (blocks.length > 0 && callRanges) {
    const ranges = callRanges(content)
    blocks = blocks.filter((marker) => marker.header || !ranges.some(([start, end]) => start < marker.start && marker.end <= end))
  }
  for (const marker of blocks) {
    found = true
    if (marker.open) {
      if (depth === 0) {
        answerParts.push(content.slice(last, marker.start))
        reasoningStart = marker.end
      }
      depth++
      continue
    }
    if (depth > 0) {
      depth--
      if (depth === 0) {
        reasoningParts.push(content.slice(reasoningStart, marker.start))
        last = marker.end
      }
      continue
    }
    // A closer without an opener: the template opened the block, so all before it is reasoning.
    reasoningParts.push(content.slice(last, marker.start))
    last = marker.end
  }
  if (depth > 0) reasoningParts.push(content.slice(reasoningStart))
  else answerParts.push(content.slice(last))

  return {
    answer: answerParts.map((part) => part.trim()).filter(Boolean).join('\n'),
    reasoning: reasoningParts.map((part) => part.trim()).filter(Boolean).join('\n\n'),
    fixes: found ? ['stripped-reasoning'] : [],
  }
}

/**
 * A tag inside a complete JSON value is text of that value (`{"text": "wrap it in <think>"}`), not
 * the model's reasoning. Only spans that hold a marker are parsed.
 */
function dropMarkersInsideJson(content: string, markers: Marker[]): Marker[] {
  if (markers.length === 0 || (!content.includes('{') && !content.includes('['))) return markers
  const { spans } = scanJson(content)
  if (spans.length === 0) return markers
  const verdicts = new Map<JsonSpan, boolean>()
  let spanIndex = 0
  return markers.filter((marker) => {
    while (spanIndex < spans.length && spans[spanIndex]!.end <= marker.start) spanIndex++
    const span = spans[spanIndex]
    if (!span || span.start >= marker.start || span.end < marker.end) return true
    let parses = verdicts.get(span)
    if (parses === undefined) {
      // Only a well-formed value (Python quotes allowed) counts: a repair could turn the stray brace
      // of a reasoning block plus its closing tag into "JSON".
      const parsed = parseLenientJson(content.slice(span.start, span.end))
      parses = parsed !== undefined && !parsed.fixes.includes('lenient-json')
      verdicts.set(span, parses)
    }
    return !parses
  })
}

interface Marker {
  start: number
  end: number
  open: boolean
  /** A harmony message header: a call range never holds it (the header decides whether it is a call). */
  header?: boolean
}

function collectMarkers(content: string): Marker[] {
  const markers: Marker[] = []
  for (const match of content.matchAll(REASONING_TAG)) {
    const start = match.index
    markers.push({ start, end: start + match[0].length, open: opensReasoning(match) })
  }
  if (content.includes('analysis') || content.includes('to=self')) {
    let toUser = -1
    let close: RegExpExecArray | null | undefined
    let noCloseAfter = Infinity
    for (const match of content.matchAll(TO_USER)) toUser = match.index
    for (const match of content.matchAll(HARMONY_THOUGHT)) {
      const header = harmonyHeader(content, match)
      if (!header) continue
      // A message with a recipient is a call, in the analysis channel too (vLLM's harmony parser takes
      // every `functions.*` recipient) — unless the model then wrote to the user: it only thought of it.
      if (header.recipient && toUser < header.end) continue
      const { start, end } = header
      // The next end token, found again only once the last one found lies behind: linear in a flood.
      if (!(close === null ? noCloseAfter <= end : close && close.index >= end)) {
        HARMONY_END.lastIndex = end
        close = HARMONY_END.exec(content)
        if (close === null) noCloseAfter = end
      }
      markers.push({ start, end, open: true, header: true })
      // The closing token belongs to the next message (`<|start|>`, `<|channel|>`), so keep it there.
      const closeAt = close ? close.index : content.length
      const closeEnd = close && close[0] === '<|end|>' ? close.index + close[0].length : closeAt
      markers.push({ start: closeAt, end: closeEnd, open: false, header: true })
    }
    markers.sort((left, right) => left.start - right.start || (left.open ? 1 : -1))
  }
  return markers
}

/**
 * The header of the harmony message whose channel (or `to=self`) `match` found: from the token before
 * it (or 200 characters back) to the end of its `<|message|>`, and whether it names a recipient. A
 * header stripped of its tokens (`assistantanalysis to=…`) is what the pattern matched, a recipient in it.
 */
function harmonyHeader(content: string, match: RegExpExecArray): { start: number; end: number; recipient: boolean } | undefined {
  const at = match.index
  if (match[0][0] === 'a') return { start: at, end: at + match[0].length, recipient: true }
  // Both searches are bounded, so a flood of headers without a message stays linear.
  const message = content.slice(at, at + 200).indexOf('<|message|>')
  if (message < 0) return undefined
  const after = content.slice(at, at + message)
  if (after.includes('<|end|>') || after.includes('<|start|>')) return undefined
  const window = content.slice(Math.max(0, at - 200), at)
  const before = window.slice(window.lastIndexOf('|>') + 2)
  const from = at - before.length
  const recipientBefore = before.search(RECIPIENT)
  return { start: recipientBefore >= 0 ? from + recipientBefore : at, end: at + message + 11, recipient: recipientBefore >= 0 || RECIPIENT.test(after) }
}

/** A content part that carries reasoning rather than answer text: `thinking` (Magistral, Anthropic), `reasoning`. */
const REASONING_PART = /^(?:thinking|reasoning|thought)$/

/**
 * The text of one typed content part, split by its role: `{type: 'text', text}` is answer text;
 * `{type: 'thinking', thinking: [{type: 'text', text}]}` (Magistral) or `{type: 'thinking', thinking:
 * '…'}` (Anthropic through a gateway) is reasoning. Anything else (images, tool calls) carries neither.
 */
export function readContentPart(part: unknown): { text?: string; reasoning?: string } {
  if (typeof part === 'string') return { text: part }
  if (typeof part !== 'object' || part === null) return {}
  const record = part as Record<string, unknown>
  if (typeof record.type === 'string' && REASONING_PART.test(record.type)) {
    const reasoning = partText(record.thinking ?? record.reasoning ?? record.text ?? record.summary)
    return reasoning ? { reasoning } : {}
  }
  return typeof record.text === 'string' ? { text: record.text } : {}
}

/** A string, or the texts of a list of `{text}` parts (one level: reasoning parts do not nest further). */
function partText(value: unknown): string {
  if (typeof value === 'string') return value
  if (!Array.isArray(value)) return ''
  let text = ''
  for (const item of value) {
    if (typeof item === 'string') text += item
    else if (typeof item === 'object' && item !== null && typeof (item as { text?: unknown }).text === 'string') text += (item as { text: string }).text
  }
  return text
}

/**
 * `content` as text: a string, or the text parts of a content array. Typed reasoning parts
 * (Magistral's `{type: 'thinking', thinking: […]}`) go to the reasoning, never to the answer.
 */
export function readContent(content: unknown): { text: string; reasoning: string } {
  if (typeof content === 'string') return { text: content, reasoning: '' }
  if (!Array.isArray(content)) return { text: '', reasoning: '' }
  const texts: string[] = []
  const reasoning: string[] = []
  for (const part of content) {
    const read = readContentPart(part)
    if (read.text) texts.push(read.text)
    if (read.reasoning) reasoning.push(read.reasoning)
  }
  return { text: texts.join('\n'), reasoning: reasoning.join('\n') }
}
