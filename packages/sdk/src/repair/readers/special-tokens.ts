/**
 * Calls delimited by special tokens: a boundary (a special token, or Harmony's `to=`), an optional
 * tool name, a gap of more tokens or filler words, then JSON arguments. One reader covers
 * - Mistral `[TOOL_CALLS] [{…}]` and `[TOOL_CALLS]name[CALL_ID]id[ARGS]{…}`,
 * - DeepSeek `<｜tool▁call▁begin｜>function<｜tool▁sep｜>name` + ```json fence (V3) or bare JSON (V3.1),
 *   whatever the spelling of the opening marker,
 * - Kimi `functions.name:0<|tool_call_argument_begin|>{…}` (spaces, a missing `>`, quoted arguments),
 * - Harmony `to=functions.name <|constrain|>json<|message|>{…}` and its stripped `to=functions.name json{…}`,
 * - Llama `<|python_tag|>{…}`, and families not listed that put a name and JSON between tokens.
 *
 * Harmony (gpt-oss): a message whose header names a recipient `to=functions.NAME` is a call, in the
 * `commentary` and in the `analysis` channel, the recipient before or after `<|channel|>` (an answer to a
 * prompt that ends at `<|start|>assistant` begins ` to=functions.NAME<|channel|>…`), `<|call|>` or not.
 * An analysis message without a recipient is reasoning; so is one with a recipient when the model then
 * writes to the user (`final`): it only thought of the call (`splitReasoning` decides both).
 *
 * Functionary's `python` built-in writes raw code after its recipient (`>>>python\n<code>`): for a
 * declared tool of one string parameter, the text up to the next `\n>>>` message is that parameter.
 *
 * Text rules: the arguments are JSON (read leniently), so their values are typed by JSON itself and
 * strings keep every character the JSON spells; spaces and line breaks between the tokens, the name
 * and the JSON are layout (Kimi, V3.1 and harmony write none, DeepSeek V3 a line break and a ```json
 * fence). `Action Input: k=v` text is typed by the tool's schema (`decodePairs`).
 */
import { isWordCode, skipSpaces } from '../../text/char-codes'
import { parseKeyValueText, parseLenientJson } from '../lenient-json'
import { cleanToolName } from '../match-tool-name'
import type { Reader } from '../reader'
import { decodePairs } from '../reading/decode-value'
import { fenceAround } from '../reading/fences'
import { MAX_CALLS } from '../reading/limits'
import { readName } from '../reading/read-name'
import { addFound, readAlone, type BuiltInReader, type ExtractionContext } from '../reading/reading-context'
import { tokenAt, tokenFamily, tokenName, type TokenSpan } from '../reading/special-tokens'
import { looksLikeJsonOpener } from '../scan-json'

// Words a template puts between the name and the arguments (`<|constrain|>json`, `commentary`).
const GAP_WORDS = new Set(['json', 'code', 'commentary', 'analysis'])
// A label before the arguments, maybe wrapped in symbols: `Action Input:`, `✿ARGS✿:`, `**Arguments:**`.
const ARGUMENT_LABEL = /^[^\w\s:{}[\]"'`(<]{0,3}(?:action[ _]input|input|arguments|args|parameters|params)[ \t]*[^\w\s{}[\]"'`(<]{0,3}:[^\w\s{}[\]"'`(<]{0,3}/i
// A label that names the call at a line start, wrapped in symbols: Qwen-Agent's `✿FUNCTION✿:`,
// `**Action:**`, `### Tool:`. Only a known name may follow it.
const NAME_LABEL = /^[ \t]*[^\w\s:{}[\]"'`(<]{1,3}[ \t]*(?:action|function|tool)[ \t]*[^\w\s{}[\]"'`(<]{1,4}/gim
// Role and channel words that follow a token but are not tool names.
const NOT_NAMES = new Set([
  'assistant',
  'user',
  'system',
  'developer',
  'model',
  'tool',
  'analysis',
  'commentary',
  'final',
  'json',
  'function',
  'functions',
  'call',
  'calls',
  'tool_call',
  'tool_calls',
  'args',
  'arguments',
  'parameters',
  'name',
])
const STRIPPED_CHANNEL = /(?:commentary|analysis)$/
const CALL_TOKEN_HINT = /tool|call|function|args|python|message/
const MAX_GAP_STEPS = 8

interface Boundary {
  start: number
  end: number
  family: string
  /** The token asks for a call (`[TOOL_CALLS]`, `<|tool_call_begin|>`) rather than being any token. */
  callish: boolean
  /** Only a known tool name may follow (the start of the answer is no marker of its own). */
  knownNameOnly?: boolean
  /** Without a name after it, the boundary is no call. */
  needsName?: boolean
}

function boundaryOf(text: string, token: TokenSpan): Boundary {
  const family = tokenFamily(text, token)
  return { start: token.start, end: token.end, family, callish: family !== 'special-token' || CALL_TOKEN_HINT.test(tokenName(text, token)) }
}

// Text markers that name a recipient or an action without special tokens: Harmony's `to=` (it
// survives when a server strips the tokens), Functionary's `>>>name`, ReAct's `Action: name`.
// A recipient marker is only a call when a name follows it (`to=[]` is a keyword argument).
const TEXT_MARKERS: ReadonlyArray<{ marker: string; family: string; needsName: boolean }> = [
  { marker: 'to=', family: 'harmony', needsName: true },
  { marker: '>>>', family: 'functionary', needsName: true },
  { marker: 'Action:', family: 'react', needsName: false },
]

/** Text-marker boundaries, in text order. A marker must follow a space, a line break or a tag. */
function findTextMarkers(text: string): Boundary[] {
  const boundaries: Boundary[] = []
  for (const { marker, family, needsName } of TEXT_MARKERS) {
    let at = text.indexOf(marker)
    while (at >= 0 && boundaries.length < 10_000) {
      const before = at === 0 ? 32 : text.charCodeAt(at - 1)
      if (before === 32 || before === 10 || before === 9 || before === 62 || before === 124) boundaries.push({ start: at, end: at + marker.length, family, callish: true, needsName })
      at = text.indexOf(marker, at + marker.length)
    }
  }
  for (const label of text.matchAll(NAME_LABEL)) {
    boundaries.push({ start: label.index, end: label.index + label[0].length, family: 'react', callish: true, knownNameOnly: true })
  }
  return boundaries.sort((left, right) => left.start - right.start)
}

/** Reads `[name] [gap] JSON` after every boundary. */
export function recognizeTokenCalls(context: ExtractionContext): void {
  const { text, tokens } = context
  const markers = findTextMarkers(text)
  // A known tool name opening the answer, then JSON (`scroll\n{"down": true}`, as GLM-4 writes it).
  const first = skipSpaces(text, 0)
  const nameEnd = readName(text, first)
  if (nameEnd > first && context.names?.has(cleanToolName(text.slice(first, nameEnd), context.names))) {
    markers.unshift({ start: first, end: first, family: 'name-json', callish: false, knownNameOnly: true })
  }
  if (tokens.length === 0 && markers.length === 0) return
  // Tokens and text markers merged in text order, without building one list of both.
  let tokenIndex = 0
  let markerIndex = 0
  while ((tokenIndex < tokens.length || markerIndex < markers.length) && context.found.length < MAX_CALLS) {
    const marker = markers[markerIndex]
    const token = tokens[tokenIndex]
    if (marker !== undefined && (token === undefined || marker.start < token.start)) {
      if (!context.claimed(marker.start, marker.start)) readAfterBoundary(context, marker)
      markerIndex++
    } else if (token) {
      // A token inside a call already read (`[A0]` in one of its strings) is text of that call.
      if (!context.claimed(token.start, token.start)) readAfterBoundary(context, boundaryOf(text, token))
      tokenIndex++
    }
  }
}

function readAfterBoundary(context: ExtractionContext, boundary: Boundary): void {
  const { text } = context
  // The first specific family seen (the boundary's or a gap token's) names the format.
  let family = boundary.family
  let cursor = skipSpaces(text, boundary.end)
  let name: string | undefined
  const nameEnd = readName(text, cursor)
  if (nameEnd > cursor) {
    const rawName = text.slice(cursor, nameEnd)
    cursor = nameEnd
    // Kimi's call index: `functions.scroll:0`.
    if (text.charCodeAt(cursor) === 58) {
      let digits = cursor + 1
      while (digits < text.length && text.charCodeAt(digits) >= 48 && text.charCodeAt(digits) <= 57) digits++
      if (digits > cursor + 1) cursor = digits
    }
    if (text.charCodeAt(cursor) === 40) return // `name(` is a pythonic call
    let cleaned = cleanToolName(rawName, context.names)
    // Harmony with its tokens stripped runs the channel into the recipient: `to=functions.searchcommentary json{…}`.
    const channel = STRIPPED_CHANNEL.exec(cleaned)
    if (channel && !context.names?.has(cleaned) && context.names?.has(cleaned.slice(0, channel.index))) {
      cursor -= channel[0].length
      cleaned = cleaned.slice(0, channel.index)
    }
    if (context.names?.has(cleaned) || !NOT_NAMES.has(cleaned.toLowerCase())) name = cleaned
  }
  if (boundary.knownNameOnly && !(name && context.names?.has(name))) return
  if (boundary.needsName && !name) return

  let fenced = false
  let labelled = false
  let tokensInGap = 0
  for (let step = 0; step < MAX_GAP_STEPS; step++) {
    cursor = skipSpaces(text, cursor)
    const token = tokenAt(context, cursor)
    if (token) {
      if (family === 'special-token') family = tokenFamily(text, token)
      tokensInGap++
      cursor = token.end
      if (tokenName(text, token) === 'call_id') cursor = readCallId(text, skipSpaces(text, cursor))
      continue
    }
    if (text.startsWith('```', cursor)) {
      cursor = readName(text, cursor + 3)
      fenced = true
      continue
    }
    const wordEnd = readName(text, cursor)
    if (wordEnd > cursor && GAP_WORDS.has(text.slice(cursor, wordEnd).toLowerCase())) {
      cursor = wordEnd
      continue
    }
    // A label before the arguments: ReAct's `Action Input:`, `Arguments:`, `Parameters:`.
    const label = ARGUMENT_LABEL.exec(text.slice(cursor, cursor + 24))
    if (label) {
      cursor += label[0].length
      labelled = true
      continue
    }
    break
  }
  // Without a name, JSON after an ordinary token (`<|im_start|>`) is left to the plain JSON candidates.
  if (!name && !boundary.callish && family === 'special-token') return

  const code = text.charCodeAt(cursor)
  if (cursor >= text.length) {
    // `[TOOL_CALLS]scroll[ARGS]` and nothing more: the generation stopped before the arguments.
    if (name && (tokensInGap > 0 || boundary.callish)) context.truncated = true
    return
  }
  let args: unknown
  let end: number
  const fixes: string[] = []
  if (code === 123 || code === 91) {
    const spanEnd = context.scan.endOf(cursor)
    // One try per text: each reads the rest of it, so a flood of openers would cost quadratic time.
    const list = spanEnd < 0 && code === 91 && boundary.callish && !triedList.has(context) ? (triedList.add(context), listShortOfItsCloser(text, cursor)) : undefined
    if (list) {
      // `[TOOL_CALLS][{…}, {…}` at the end of the answer: every call complete, only the list's `]` missing.
      args = list
      fixes.push('unclosed-call-list')
      end = text.length
    } else if (spanEnd < 0) {
      if ((name || boundary.callish) && looksLikeJsonOpener(text, cursor) && context.scan.truncated) context.truncated = true
      return
    } else {
      const parsed = parseLenientJson(text.slice(cursor, spanEnd))
      if (!parsed) return
      args = parsed.value
      fixes.push(...parsed.fixes)
      end = spanEnd
    }
  } else if (code === 34 && name) {
    // Kimi sometimes sends the arguments as a quoted JSON string.
    const stringEnd = findStringEnd(text, cursor)
    if (stringEnd < 0) {
      // Cut off only after a call's own token: `[A0]A"}` inside a JSON string is no call at all.
      if (boundary.callish) context.truncated = true
      return
    }
    let decoded: unknown
    try {
      decoded = JSON.parse(text.slice(cursor, stringEnd))
    } catch {
      return
    }
    const inner = typeof decoded === 'string' && /^\s*[{[]/.test(decoded) ? parseLenientJson(decoded) : undefined
    if (!inner || inner.value === null || typeof inner.value !== 'object') return
    args = inner.value
    fixes.push('double-encoded-arguments', ...inner.fixes)
    end = stringEnd
  } else if (boundary.family === 'functionary' && name && soleStringField(context, name)) {
    // Functionary's `python` built-in: `>>>python\n<code>`, the raw code up to the next `>>>` message,
    // for a declared tool of one string parameter.
    const next = text.indexOf('\n>>>', cursor)
    end = next < 0 ? text.length : next
    args = { [soleStringField(context, name)!]: text.slice(cursor, end) }
  } else {
    // `Action Input: down=true`: key=value text to the end of the labelled line, every key a field.
    const fields = labelled && name && context.fieldsOf?.(name)
    const lineEnd = text.indexOf('\n', cursor)
    end = lineEnd < 0 ? text.length : lineEnd
    // A special token the line ends in (`<|eot_id|>`) ends the text before it: it is no part of a value.
    const line = text.slice(cursor, end)
    if (line.includes('<|')) end = cursor + line.indexOf('<|')
    const pairs = fields ? parseKeyValueText(text.slice(cursor, end), fields) : undefined
    if (!pairs || !name) return
    args = decodePairs(context, name, pairs, fixes)
  }
  if (!name && (args === null || typeof args !== 'object')) return
  if (fenced || fenceAround(context, cursor)) fixes.push('fenced')
  // Take in a closing fence and the closing tokens so they are not read again.
  let callEnd = end
  for (let step = 0; step < 4; step++) {
    const next = skipSpaces(text, callEnd)
    if (text.startsWith('```', next)) callEnd = next + 3
    else {
      const token = tokenAt(context, next)
      if (token && /end|call$/.test(tokenName(text, token))) callEnd = token.end
      else break
    }
  }
  addFound(context, { ...(name ? { name } : {}), args, format: `tool-markup:${family}`, fixes, start: boundary.start }, callEnd)
}

const triedList = new WeakSet<ExtractionContext>()

/**
 * The list at `from` when the text ends with only its closing `]` missing: strict JSON once the `]` is
 * added, every item an object (a call). A list cut inside an item stays cut off.
 */
function listShortOfItsCloser(text: string, from: number): unknown[] | undefined {
  const rest = text.slice(from).trimEnd()
  if (!rest.endsWith('}')) return undefined
  try {
    const value: unknown = JSON.parse(`${rest}]`)
    return Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'object' && item !== null && !Array.isArray(item)) ? value : undefined
  } catch {
    return undefined
  }
}

/** The one parameter of tool `name` when it has exactly one and it is a string. */
function soleStringField(context: ExtractionContext, name: string): string | undefined {
  const properties = context.schemaOf?.(name)?.properties
  if (typeof properties !== 'object' || properties === null) return undefined
  const keys = Object.keys(properties)
  const only = keys.length === 1 ? (properties as Record<string, { type?: unknown }>)[keys[0]!] : undefined
  return only?.type === 'string' ? keys[0] : undefined
}

function readCallId(text: string, from: number): number {
  let cursor = from
  const limit = Math.min(text.length, from + 64)
  while (cursor < limit) {
    const code = text.charCodeAt(cursor)
    if (isWordCode(code) || code === 45) cursor++
    else break
  }
  return cursor
}

/** The offset after the closing quote of the JSON string at `from`, or -1 when it never closes. */
function findStringEnd(text: string, from: number): number {
  for (let index = from + 1; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code === 92) index++
    else if (code === 34) return index + 1
  }
  return -1
}

const reader: BuiltInReader = {
  name: 'special-tokens',
  formats: ['tool-markup:mistral', 'tool-markup:deepseek', 'tool-markup:kimi', 'tool-markup:harmony', 'tool-markup:python-tag', 'tool-markup:special-token'],
  recognize: recognizeTokenCalls,
  read: (text, context) => readAlone(reader, text, context),
}

/**
 * Calls delimited by special tokens: Mistral `[TOOL_CALLS]name[ARGS]{…}`, DeepSeek
 * `<｜tool▁call▁begin｜>function<｜tool▁sep｜>name` + JSON, Kimi `functions.name:0<|tool_call_argument_begin|>{…}`,
 * Harmony `to=functions.name <|constrain|>json<|message|>{…}`, Llama `<|python_tag|>{…}`, and
 * families not listed that put a name and JSON between tokens.
 *
 * @example
 * ```ts
 * specialTokenReader.read('[TOOL_CALLS]scroll[ARGS]{"down": true}', { names: new Set(['scroll']), claimed: () => false })
 * ```
 */
export const specialTokenReader: Reader = reader
