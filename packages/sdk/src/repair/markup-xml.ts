/**
 * XML-ish tool-call markup: name/parameter pairs and wrapper tags.
 *
 * One tag scan feeds three readers:
 * - call tags carrying a name: `<function=NAME>`, `<function name="NAME">`, `<invoke name="NAME">`,
 *   DeepSeek's `<｜DSML｜invoke name="NAME">`, with `<parameter=K>v</parameter>`,
 *   `<parameter name="K" string="false">v</parameter>` or a JSON body;
 * - GLM's `NAME<arg_key>k</arg_key><arg_value>v</arg_value>`;
 * - wrapper tags around JSON (Hermes `<tool_call>{…}</tool_call>`, `<function_call>`, `<tools>` …).
 * Namespaced tags (`<minimax:tool_call>`) are read by their local name.
 *
 * Text rules of a parameter value (what is layout, what is the value), as the chat templates write them:
 * - Qwen3-Coder / Qwen3 XML / Nemotron 3 `<parameter=K>\nV\n</parameter>`: the `\n` after the opening tag
 *   and the `\n` before the closing tag are layout; in a pretty-printed call (the closing tag indented),
 *   that indentation after the last `\n` is layout too, and a value on one line loses the same
 *   indentation at its start. Every other newline, space or indentation is part of the value: a code
 *   block keeps its trailing newline and its inner indentation.
 * - Seed-OSS (`<parameter=K>` inside `<seed:tool_call>`; its template and its system prompt write
 *   `<parameter=K>V</parameter>`), MiniMax-M2, Step-3 and Glimmer `<invoke>` parameters, DeepSeek DSML
 *   and GigaChat 3.5 GCML parameters and GLM `<arg_value>`: the value is exactly the text between the tags.
 * - Other XML-ish calls and elements (no template to follow; MiniCPM 5's `<function name=…><param …>`
 *   puts every value holding a newline in CDATA, so the rule cannot touch it): the Qwen3 rule.
 * - In every one of them XML character references (`&lt; &gt; &amp; &quot; &apos; &#39; &#x3C;`) are
 *   decoded, a `&` or `<` that starts no reference or tag is kept, and a `<![CDATA[…]]>` section is its
 *   content as written — references and what would close a tag (`</param>`) included.
 * - The text is then typed by the field's schema ({@link decodeArgument}): a string field gets the text
 *   as is. DSML's `string="true"` marks the text as the string itself; `string="false"` as JSON.
 */
import { decodeArgument, decodeValue, decodeXmlReferences } from './decode-value'
import { parseLenientJson } from './lenient-json'
import { tokenAt } from './markup-special-tokens'
import { isSpaceCode, skipSpaces } from '../text/char-codes'
import { MAX_CALLS, addFound, cleanToolName, fenceAround, readName, setOwn } from './markup-shared'
import type { ExtractionContext } from './markup-shared'
import { looksLikeJsonOpener } from './scan-json'

export interface Tag {
  start: number
  end: number
  close: boolean
  /** Written with a special-token prefix, as DeepSeek's DSML `<｜DSML｜invoke …>`. */
  marked: boolean
  /** Local name in lower case (`tool_call` for `<minimax:tool_call>`). */
  local: string
  /** The namespace prefix in lower case (`seed` for `<seed:tool_call>`), if any. */
  ns?: string
  /** The value of `<name=VALUE>`. */
  value?: string
  attributes: Record<string, string>
}

// `<`, optional `/`, an optional `｜DSML｜`-style token prefix, an optional namespace, the name, then
// either `=VALUE` or attributes. Bounded and anchored on `<`, so the scan is linear: no `\s*` before
// the `>` (the attribute text already takes the spaces; the two traded a long run 400 ways).
// regex-bounded: a match attempt reads at most ~530 characters from its `<` and stops at the next `<` (test: packages/sdk/src/linear-time.test.ts)
const TAG = /<(\/?)(?:｜[^｜<>\n]{1,24}｜)?(?:([A-Za-z_][\w-]{0,40}):)?([A-Za-z_][\w.-]{0,60})((?:=|\s)[^<>]{0,400})?\/?>/g
// regex-bounded: run only on the text of one tag, at most 400 characters (TAG) or a 500-character window (readAttributeElements) (test: packages/sdk/src/linear-time.test.ts)
const ATTRIBUTE = /([\w:.-]{1,40})\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>/]+))/g

const PARAMETER_TAGS = new Set(['parameter', 'param', 'argument', 'arg'])
const CALL_TAG_HINT = /function|invoke|tool|call|action|command/
const WRAPPER_TAGS = new Set([
  'tool_call',
  'tool_calls',
  'toolcall',
  'function_call',
  'function_calls',
  'functioncall',
  'tool',
  'tools',
  'tool_use',
  'call',
  'calls',
  'response',
  'json',
  'xml',
  'action',
  'actions',
])

const NO_ATTRIBUTES: Record<string, string> = Object.freeze(Object.create(null) as Record<string, string>)

/** The `key="value"` attributes of a tag's text, keys in lower case, values as written. */
export function readAttributes(text: string): Record<string, string> {
  const attributes = Object.create(null) as Record<string, string>
  for (const attribute of text.matchAll(ATTRIBUTE)) attributes[attribute[1]!.toLowerCase()] = attribute[2] ?? attribute[3] ?? attribute[4] ?? ''
  return attributes
}

const CDATA = '<![CDATA['

export function findTags(text: string): Tag[] {
  const tags: Tag[] = []
  if (!text.includes('<')) return tags
  // A CDATA section is text: no tag starts inside it (`<![CDATA[</param>]]>`). One pass over the sections, in step with the tags.
  let cdataStart = text.indexOf(CDATA)
  let cdataEnd = cdataStart < 0 ? -1 : text.indexOf(']]>', cdataStart)
  for (const match of text.matchAll(TAG)) {
    while (cdataStart >= 0 && cdataEnd >= 0 && cdataEnd + 3 <= match.index) {
      cdataStart = text.indexOf(CDATA, cdataEnd + 3)
      cdataEnd = cdataStart < 0 ? -1 : text.indexOf(']]>', cdataStart)
    }
    if (cdataStart >= 0 && cdataStart < match.index && cdataEnd >= 0) continue
    const rest = match[4]?.trim() ?? ''
    const local = match[3]!.toLowerCase()
    // Only tags some reader looks at are kept: a flood of `<think>` or `<b>` costs no objects.
    if (!rest && !PARAMETER_TAGS.has(local) && !WRAPPER_TAGS.has(local) && local !== 'arg_key' && local !== 'arg_value' && !CALL_TAG_HINT.test(local)) continue
    const attributes = rest && !rest.startsWith('=') ? readAttributes(rest) : NO_ATTRIBUTES
    let value: string | undefined
    if (rest.startsWith('=')) {
      value = rest
        .slice(1)
        .trim()
        .replace(/^["']|["']$/g, '')
    }
    tags.push({
      start: match.index,
      end: match.index + match[0].length,
      close: match[1] === '/',
      marked: match[0].includes('｜'),
      local,
      ...(match[2] ? { ns: match[2].toLowerCase() } : {}),
      value,
      attributes,
    })
  }
  return tags
}

/** The tags of the text, computed once per context. */
const tagCache = new WeakMap<ExtractionContext, Tag[]>()
function tagsOf(context: ExtractionContext): Tag[] {
  let tags = tagCache.get(context)
  if (!tags) {
    tags = findTags(context.text)
    tagCache.set(context, tags)
  }
  return tags
}

/** Index of the tag closing `tags[from]`: the next `</local>`, not past another opener of the same name. */
function findClose(tags: readonly Tag[], from: number, local: string, limit = tags.length): number {
  for (let index = from + 1; index < limit; index++) {
    const tag = tags[index]!
    if (tag.local !== local) continue
    if (tag.close) return index
    return -1
  }
  return -1
}

/** How a format lays a value out between its tags (see the module comment). */
interface ValueLayout {
  /** One `\n` right after the opening tag and one right before the closing tag are layout. */
  newlines: boolean
}

const EXACT: ValueLayout = { newlines: false }
const ON_OWN_LINE: ValueLayout = { newlines: true }

/**
 * The text of a value: layout dropped, CDATA sections kept as written, references decoded outside them.
 * With `newlines`, one `\n` after the opening tag is layout, and so is the last line break when only the
 * closing tag's indentation follows it; a value on one line then loses that same indentation too (a
 * pretty-printed call indents it to the tag's depth). What else the value holds is its own.
 */
function valueText(raw: string, layout: ValueLayout): string {
  let text = raw
  if (layout.newlines) {
    if (text.charCodeAt(0) === 10) text = text.slice(1)
    const lineBreak = text.lastIndexOf('\n')
    const indent = text.slice(lineBreak + 1)
    if (lineBreak >= 0 && !indent.trim()) {
      text = text.slice(0, lineBreak)
      if (!text.includes('\n') && text.startsWith(indent)) text = text.slice(indent.length)
    }
  }
  // A CDATA section protects markup inside a value; its content is part of the value, as written.
  let value = ''
  for (let at = 0; ; ) {
    const open = text.indexOf(CDATA, at)
    const close = open < 0 ? -1 : text.indexOf(']]>', open)
    if (close < 0) return value + decodeXmlReferences(text.slice(at))
    value += decodeXmlReferences(text.slice(at, open)) + text.slice(open + 9, close)
    at = close + 3
  }
}

/** `<function=NAME>`, `<invoke name="NAME">`, `<｜DSML｜invoke name="NAME">` … with parameters or a JSON body. */
export function recognizeXmlCalls(context: ExtractionContext): void {
  const { text } = context
  const tags = tagsOf(context)
  for (let index = 0; index < tags.length && context.found.length < MAX_CALLS; index++) {
    const tag = tags[index]!
    // A tag MiniMax M3's marker opens is its reader's, whole or cut off.
    if (tag.close || PARAMETER_TAGS.has(tag.local) || text.endsWith('[>[', tag.start)) continue
    const rawName = tag.value ?? tag.attributes.name
    if (!rawName) continue
    const name = cleanToolName(rawName)
    if (!name || (!CALL_TAG_HINT.test(tag.local) && !context.names?.has(name))) continue

    let closeIndex = findClose(tags, index, tag.local)
    // Without its closer the body runs to the next call tag of the same kind, or to the end.
    let bodyEndTag = closeIndex
    if (closeIndex < 0) {
      bodyEndTag = tags.length
      for (let next = index + 1; next < tags.length; next++) {
        const candidate = tags[next]!
        // So does a wrapper opened between elements: the next call's `<tool_call>` (its own closer stripped too).
        if (!candidate.close && (candidate.local === tag.local || (WRAPPER_TAGS.has(candidate.local) && tags[next - 1]!.close))) {
          bodyEndTag = next
          break
        }
        // A closing wrapper (`</tool_call>`) ends the call too.
        if (candidate.close && !PARAMETER_TAGS.has(candidate.local)) {
          bodyEndTag = next
          break
        }
      }
      closeIndex = -1
    }
    const bodyEnd = bodyEndTag < tags.length ? tags[bodyEndTag]!.start : text.length
    const callEnd = closeIndex >= 0 ? tags[closeIndex]!.end : bodyEnd

    const args: Record<string, unknown> = {}
    const fixes: string[] = []
    const previous = tags[index - 1]
    const seed = tag.value !== undefined && previous !== undefined && !previous.close && previous.ns === 'seed' && WRAPPER_TAGS.has(previous.local)
    const layout = tag.marked || tag.local === 'invoke' || seed ? EXACT : ON_OWN_LINE
    let parameterCount = 0
    let truncated = false
    for (let inner = index + 1; inner < bodyEndTag; inner++) {
      const parameter = tags[inner]!
      if (parameter.close || !PARAMETER_TAGS.has(parameter.local)) continue
      const key = parameter.value ?? parameter.attributes.name
      if (key === undefined) continue
      const parameterClose = findClose(tags, inner, parameter.local, bodyEndTag)
      let valueEnd: number
      if (parameterClose >= 0) {
        valueEnd = tags[parameterClose]!.start
      } else {
        // An unclosed parameter that runs into the end of the text was cut off.
        let next = inner + 1
        while (next < bodyEndTag && !(PARAMETER_TAGS.has(tags[next]!.local) && !tags[next]!.close)) next++
        valueEnd = next < bodyEndTag ? tags[next]!.start : bodyEnd
        if (valueEnd >= text.length) truncated = true
      }
      setOwn(args, key, readParameter(context, layout, name, key, parameter, text.slice(parameter.end, valueEnd), fixes))
      parameterCount++
      if (parameterClose >= 0) inner = parameterClose
    }
    if (truncated) {
      context.truncated = true
      continue
    }

    let value: unknown = args
    let jsonBody = false
    let treeBody = false
    if (parameterCount === 0) {
      const body = readJsonBody(context, tag.end, bodyEnd)
      if (body === 'truncated') {
        context.truncated = true
        continue
      }
      if (body) {
        value = body.value
        fixes.push(...body.fixes)
        jsonBody = true
      } else {
        const rest = text.slice(tag.end, bodyEnd).trim()
        if (rest.length === 0 && closeIndex < 0 && bodyEnd >= text.length) {
          // `<function=scroll>` and nothing after it: cut off right after the opener.
          context.truncated = true
          continue
        }
        // A bare value (`<function=wait>3</function>`) is left for the single-field rule.
        if (rest.length > 0 && !rest.includes('<')) value = rest
        // Elements of any name as the parameters: `<action name="scroll"><down>true</down></action>`.
        else if (rest.startsWith('<') && rest.endsWith('>')) {
          const tree = readElementTree(text, text.indexOf('<', tag.end), bodyEnd, fixes)
          treeBody = isPlainTree(tree)
          if (treeBody) value = tree
        }
      }
    }
    const format = tag.marked
      ? 'dsml'
      : tag.local === 'invoke'
        ? 'minimax'
        : jsonBody || (tag.value === undefined && parameterCount === 0 && !treeBody)
          ? 'function-tag'
          : tag.value !== undefined
            ? 'qwen-xml'
            : 'xml'
    const start = enclosingWrapperStart(text, tags, index) ?? tag.start
    addFound(context, { name, args: value, format: `tool-markup:${format}`, fixes, start }, Math.max(callEnd, enclosingWrapperEnd(tags, index, closeIndex) ?? callEnd))
    if (closeIndex >= 0) index = closeIndex
  }
}

/**
 * One parameter of a call tag, by its format's text rules: Qwen3 XML `<parameter=K>` values sit on
 * their own line (inside Seed-OSS's `<seed:tool_call>` they do not); MiniMax and Step-3 `<invoke>` and
 * DSML parameters are exact. DSML's `string="true"` is the string itself, `string="false"` JSON.
 */
function readParameter(context: ExtractionContext, layout: ValueLayout, name: string, key: string, parameter: Tag, raw: string, fixes: string[]): unknown {
  const text = valueText(raw, layout)
  const flag = parameter.attributes.string
  if (flag === 'true') return text
  if (flag === 'false') {
    const parsed = parseLenientJson(text.trim())
    if (parsed !== undefined) return parsed.value
  }
  return decodeArgument(context, name, key, text, fixes)
}

/** The start of a wrapper tag (`<tool_call>`, `<minimax:tool_call>`) directly around the call tag: only spaces between (not `[{"query": "`). */
function enclosingWrapperStart(text: string, tags: readonly Tag[], index: number): number | undefined {
  const previous = tags[index - 1]
  if (previous && !previous.close && WRAPPER_TAGS.has(previous.local) && previous.value === undefined && !previous.attributes.name && !text.slice(previous.end, tags[index]!.start).trim()) return previous.start
  return undefined
}

function enclosingWrapperEnd(tags: readonly Tag[], index: number, closeIndex: number): number | undefined {
  if (closeIndex < 0) return undefined
  const previous = tags[index - 1]
  const next = tags[closeIndex + 1]
  if (previous && next && next.close && next.local === previous.local && WRAPPER_TAGS.has(previous.local)) return next.end
  return undefined
}

type JsonBody = { value: unknown; fixes: string[]; start: number; end: number } | 'truncated' | undefined

/** A JSON value at the start of `[from, to)`, after spaces, a fence marker or a `json` word. */
function readJsonBody(context: ExtractionContext, from: number, to: number): JsonBody {
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

/** GLM-4.5+: `NAME<arg_key>k</arg_key><arg_value>v</arg_value>…`, usually inside `<tool_call>`. */
export function recognizeArgumentPairs(context: ExtractionContext): void {
  const { text } = context
  const tags = tagsOf(context)
  for (let index = 0; index < tags.length && context.found.length < MAX_CALLS; index++) {
    const first = tags[index]!
    if (first.close || first.local !== 'arg_key') continue
    const previous = tags[index - 1]
    const nameFrom = previous ? previous.end : 0
    // The name is the text right before the first key, after the previous tag or token or line.
    let nameText = text.slice(Math.max(nameFrom, first.start - 256), first.start)
    const lineBreak = nameText.lastIndexOf('\n', nameText.trimEnd().length - 1)
    if (!previous && lineBreak >= 0) nameText = nameText.slice(lineBreak + 1)
    for (const token of context.tokens) {
      if (token.end <= first.start && token.end > first.start - nameText.length) nameText = text.slice(token.end, first.start)
    }
    const rawName = nameText.trim()
    if (rawName.length === 0 || readName(rawName, 0) !== rawName.replace(/:\d+$/, '').length) continue
    const name = cleanToolName(rawName)

    const args: Record<string, unknown> = {}
    const fixes: string[] = []
    // Tags of other names inside a value (`x<y=>` in text) are text: only a value tag closes a value.
    const pairTag = (from: number) => {
      let at = from
      while (at < tags.length && tags[at]!.local !== 'arg_key' && tags[at]!.local !== 'arg_value') at++
      return at
    }
    const isTag = (at: number, local: string, close: boolean) => at < tags.length && tags[at]!.local === local && tags[at]!.close === close
    let cursor = index
    let last = index
    let end = first.end
    let truncated = false
    while (isTag(cursor, 'arg_key', false)) {
      const keyClose = cursor + 1
      const valueOpen = cursor + 2
      const valueClose = pairTag(valueOpen + 1)
      // A key or value the text ends inside is cut off; a pair of another shape is no GLM call.
      if (!isTag(keyClose, 'arg_key', true)) {
        truncated = keyClose >= tags.length
        break
      }
      if (!isTag(valueOpen, 'arg_value', false)) {
        truncated = valueOpen >= tags.length
        break
      }
      if (!isTag(valueClose, 'arg_value', true)) {
        truncated = true
        break
      }
      const key = text.slice(tags[cursor]!.end, tags[keyClose]!.start).trim()
      setOwn(args, key, decodeArgument(context, name, key, valueText(text.slice(tags[valueOpen]!.end, tags[valueClose]!.start), EXACT), fixes))
      end = tags[valueClose]!.end
      last = valueClose
      cursor = valueClose + 1
    }
    if (truncated) {
      context.truncated = true
      break
    }
    if (last === index) continue
    const wrapper = previous && !previous.close && WRAPPER_TAGS.has(previous.local) ? previous : undefined
    const after = tags[last + 1]
    if (wrapper && after && after.close && after.local === wrapper.local) end = after.end
    addFound(context, { name, args, format: 'tool-markup:glm', fixes, start: wrapper ? wrapper.start : first.start - nameText.length }, end)
    index = last
  }
}

/** Hermes-style wrappers around JSON (`<tool_call>{…}</tool_call>` …) or around a bare tool name. */
export function recognizeWrappers(context: ExtractionContext): void {
  const { text } = context
  const tags = tagsOf(context)
  for (let index = 0; index < tags.length && context.found.length < MAX_CALLS; index++) {
    const tag = tags[index]!
    if (tag.close || !WRAPPER_TAGS.has(tag.local) || tag.value !== undefined || tag.attributes.name) continue
    let closeIndex = findClose(tags, index, tag.local)
    // Tags written inside the JSON body's strings (`{"text": "</tool_call>"}`) are text of the body: the
    // wrapper closes at the first tag after the JSON.
    let following = index + 1
    const bodyStart = skipSpaces(text, tag.end)
    const opener = text.charCodeAt(bodyStart)
    if ((opener === 123 || opener === 91) && following < tags.length) {
      const jsonEnd = context.scan.endOf(bodyStart)
      if (jsonEnd > tags[following]!.start) {
        while (following < tags.length && tags[following]!.start < jsonEnd) following++
        closeIndex = following < tags.length && tags[following]!.close && tags[following]!.local === tag.local ? following : -1
      }
    }
    let bodyEnd = text.length
    if (closeIndex >= 0) bodyEnd = tags[closeIndex]!.start
    else if (following < tags.length) bodyEnd = tags[following]!.start
    const body = text.slice(tag.end, bodyEnd)
    const trimmed = body.trim()
    const closeEnd = closeIndex >= 0 ? tags[closeIndex]!.end : bodyEnd

    // A bare tool name: GLM's rendering of a call without arguments.
    // Without its closer, only a body that runs to the end of the text is whole (servers strip stop tags).
    const whole = closeIndex >= 0 || index + 1 === tags.length
    if (whole && trimmed.length > 0 && readName(trimmed, 0) === trimmed.length && (closeIndex >= 0 || context.names?.has(cleanToolName(trimmed)))) {
      addFound(context, { name: cleanToolName(trimmed), args: {}, format: 'tool-markup:glm', fixes: [], start: tag.start }, closeEnd)
      continue
    }
    // A name, then JSON: `<tool_call>scroll\n{"down": true}</tool_call>`.
    const nameEnd = readName(text, skipSpaces(text, tag.end, bodyEnd))
    const nameStart = skipSpaces(text, tag.end, bodyEnd)
    if (nameEnd > nameStart) {
      // `name:`, or Kimi's call index `functions.name:0`.
      let afterName = skipSpaces(text, nameEnd, bodyEnd)
      if (text.charCodeAt(afterName) === 58) {
        afterName++
        while (afterName < bodyEnd && text.charCodeAt(afterName) >= 48 && text.charCodeAt(afterName) <= 57) afterName++
        afterName = skipSpaces(text, afterName, bodyEnd)
      }
      const json = readJsonBody(context, afterName, bodyEnd)
      if (json === 'truncated') {
        context.truncated = true
        continue
      }
      if (json && json.value !== null && typeof json.value === 'object') {
        addFound(context, { name: cleanToolName(text.slice(nameStart, nameEnd)), args: json.value, format: 'tool-markup:hermes', fixes: json.fixes, start: tag.start }, closeEnd)
        if (closeIndex >= 0) index = closeIndex
        continue
      }
    }
    let cursor = tag.end
    let first = true
    while (cursor < bodyEnd && context.found.length < MAX_CALLS) {
      const json = readJsonBody(context, cursor, bodyEnd)
      if (json === 'truncated') {
        context.truncated = true
        break
      }
      if (!json) break
      const start = first ? tag.start : json.start
      const end = first && closeIndex >= 0 && skipSeparators(text, json.end, bodyEnd) >= bodyEnd ? closeEnd : json.end
      addFound(context, { args: json.value, format: 'tool-markup:hermes', fixes: json.fixes, start }, end)
      first = false
      cursor = skipSeparators(text, json.end, bodyEnd)
    }
    if (closeIndex >= 0) index = closeIndex
    else if (following > index + 1) index = following - 1
  }
}

/** Skips what may separate several JSON calls in one wrapper: spaces, commas, semicolons, fences. */
function skipSeparators(text: string, from: number, to: number): number {
  let cursor = from
  while (cursor < to) {
    const code = text.charCodeAt(cursor)
    if (code === 32 || code === 9 || code === 10 || code === 13 || code === 44 || code === 59 || code === 96) cursor++
    else break
  }
  return cursor
}

/**
 * A known tool name used as the element name: `<scroll>{"down": true}</scroll>` or
 * `<click_element_by_index><index>3</index></click_element_by_index>` (models prompted in XML).
 */
export function recognizeNamedElements(context: ExtractionContext): void {
  const { text, names } = context
  if (!names || names.size === 0 || !text.includes('<')) return
  for (const name of names) {
    if (context.found.length >= MAX_CALLS) return
    const open = `<${name}>`
    const close = `</${name}>`
    let at = text.indexOf(open)
    while (at >= 0 && context.found.length < MAX_CALLS) {
      const bodyStart = at + open.length
      const closeAt = text.indexOf(close, bodyStart)
      const bodyEnd = closeAt < 0 ? text.length : closeAt
      const callEnd = closeAt < 0 ? text.length : closeAt + close.length
      const body = readElementBody(context, name, bodyStart, bodyEnd)
      if (body === 'truncated') {
        context.truncated = true
        return
      }
      if (body) addFound(context, { name, args: body.value, format: 'tool-markup:xml', fixes: body.fixes, start: at }, callEnd)
      // Without a closer this body ran to the end of the text: no later element can be whole.
      if (closeAt < 0) break
      at = text.indexOf(open, callEnd)
    }
    readAttributeElements(context, name)
  }
}

/** `<click_element_by_index index="4"/>` (or `…></click_element_by_index>`): the attributes are the input. */
function readAttributeElements(context: ExtractionContext, name: string): void {
  const { text } = context
  const open = `<${name}`
  for (let at = text.indexOf(open); at >= 0 && context.found.length < MAX_CALLS; at = text.indexOf(open, at + open.length)) {
    const next = text.charCodeAt(at + open.length)
    if (!isSpaceCode(next) && next !== 47) continue
    // Look for the `>` within a bounded window: a flood of unclosed `<name` must stay linear.
    const relative = text.slice(at, at + 500).indexOf('>')
    if (relative < 0) continue
    const tagEnd = at + relative
    const selfClosing = text.charCodeAt(tagEnd - 1) === 47
    const close = `</${name}>`
    if (!selfClosing && !text.startsWith(close, skipSpaces(text, tagEnd + 1))) continue
    const args: Record<string, unknown> = {}
    const fixes: string[] = []
    for (const attribute of text.slice(at + open.length, selfClosing ? tagEnd - 1 : tagEnd).matchAll(ATTRIBUTE)) {
      setOwn(args, attribute[1]!, decodeArgument(context, name, attribute[1]!, decodeXmlReferences(attribute[2] ?? attribute[3] ?? attribute[4] ?? ''), fixes))
    }
    const end = selfClosing ? tagEnd + 1 : skipSpaces(text, tagEnd + 1) + close.length
    addFound(context, { name, args, format: 'tool-markup:xml', fixes, start: at }, end)
  }
}

const CHILD_OPEN = /<([A-Za-z_][\w.-]{0,60})>/g
const MAX_CHILDREN = 64

/** A JSON body, child elements as key/value pairs, or nothing (an empty body is no arguments). */
function readElementBody(context: ExtractionContext, name: string, from: number, to: number): { value: unknown; fixes: string[] } | 'truncated' | undefined {
  const { text } = context
  const json = readJsonBody(context, from, to)
  if (json === 'truncated') return json
  if (json) return { value: json.value, fixes: json.fixes }
  const args: Record<string, unknown> = {}
  const fixes: string[] = []
  const body = text.slice(from, to)
  let cursor = skipSpaces(text, from, to)
  let children = 0
  while (cursor < to && children < MAX_CHILDREN) {
    CHILD_OPEN.lastIndex = cursor
    const child = CHILD_OPEN.exec(text)
    // Only whitespace may separate the children; anything else means this is prose, not arguments.
    if (!child || child.index !== cursor || child.index >= to) return undefined
    const valueStart = child.index + child[0].length
    // Searched within the body only, so elements that never close cost their own length, not the text's.
    const closeInBody = body.indexOf(`</${child[1]}>`, valueStart - from)
    const childClose = closeInBody < 0 ? -1 : from + closeInBody
    if (childClose < 0) return to >= text.length ? 'truncated' : undefined
    setOwn(args, child[1]!, decodeArgument(context, name, child[1]!, valueText(text.slice(valueStart, childClose), ON_OWN_LINE), fixes))
    children++
    cursor = skipSpaces(text, childClose + child[1]!.length + 3, to)
  }
  if (cursor < to) return undefined
  return { value: args, fixes }
}

// Any element, for the tree reader: `<name attr="…">`, `</name>`, `<name/>`. Bounded, anchored on `<`,
// and no `\s*` before the `>`: it traded a run of spaces with the attribute text (1 s on 100 kB).
// regex-bounded: a match attempt reads at most ~510 characters from its `<` and stops at the next `<` (test: packages/sdk/src/linear-time.test.ts)
const ELEMENT = /<(\/?)(?:[A-Za-z_][\w-]{0,40}:)?([A-Za-z_][\w.-]{0,60})((?:\s[^<>]{0,400})?)(\/?)>/g
const MAX_TREE_ELEMENTS = 512
const MAX_TREE_DEPTH = 32

/**
 * A wrapper or call tag whose body is nothing but elements — `<tool_call><name>scroll</name>
 * <arguments><down>true</down></arguments></tool_call>`, `<function_calls><invoke><tool_name>…
 * </tool_name><parameters>…</parameters></invoke></function_calls>` — read as the object its element
 * tree spells, for the envelope rules downstream to name. Leaves stay text for schema coercion.
 */
export function recognizeElementTrees(context: ExtractionContext): void {
  const { text } = context
  const tags = tagsOf(context)
  for (let index = 0; index < tags.length && context.found.length < MAX_CALLS; index++) {
    const tag = tags[index]!
    if (tag.close || tag.value !== undefined || tag.attributes.name || PARAMETER_TAGS.has(tag.local)) continue
    if (!WRAPPER_TAGS.has(tag.local) && !CALL_TAG_HINT.test(tag.local)) continue
    // The next tag of its name closes it; without its closer (servers strip the stop tag) the tree runs
    // to the next opener of its name, or the end.
    let next = index + 1
    while (next < tags.length && tags[next]!.local !== tag.local) next++
    const closed = next < tags.length && tags[next]!.close
    const bodyEnd = next < tags.length ? tags[next]!.start : text.length
    const start = skipSpaces(text, tag.end, bodyEnd)
    if (text.charCodeAt(start) !== 60) continue
    const fixes: string[] = []
    const tree = readElementTree(text, start, bodyEnd, fixes, !closed)
    if (tree === 'truncated') context.truncated ||= bodyEnd >= text.length
    else if (tree !== undefined) addFound(context, { args: tree, format: 'tool-markup:xml-tree', fixes, start: tag.start }, closed ? tags[next]!.end : bodyEnd)
    if (closed) index = next
  }
}

interface TreeFrame {
  key: string
  local: string
  at: number
  children: Array<[string, unknown]>
}

/**
 * The object an element sequence spells, descending through lone call/wrapper elements; undefined when
 * malformed. With `open`, elements left open at `to` close there when every value in them closed
 * (`'truncated'` when the text stops inside a value of a call).
 */
function readElementTree(text: string, from: number, to: number, fixes: string[], open = false): unknown {
  const root: TreeFrame = { key: '', local: '', at: from, children: [] }
  const stack: TreeFrame[] = [root]
  const pattern = new RegExp(ELEMENT.source, 'g')
  pattern.lastIndex = from
  let count = 0
  for (let match = pattern.exec(text); match && match.index < to; match = pattern.exec(text)) {
    if (++count > MAX_TREE_ELEMENTS) return undefined
    const local = match[2]!.toLowerCase()
    const top = stack[stack.length - 1]!
    if (match[1] === '/') {
      if (top === root || top.local !== local) return undefined
      stack.pop()
      const value = top.children.length > 0 ? toObject(top.children) : decodeValue(valueText(text.slice(top.at, match.index), ON_OWN_LINE), undefined, fixes)
      stack[stack.length - 1]!.children.push([top.key, value])
      continue
    }
    const nameAttribute = /\bname\s*=\s*["']([^"']{1,80})["']/.exec(match[3] ?? '')?.[1]
    const key = PARAMETER_TAGS.has(local) && nameAttribute ? nameAttribute : match[2]!
    if (match[4] === '/') {
      top.children.push([key, ''])
      continue
    }
    if (stack.length > MAX_TREE_DEPTH) return undefined
    stack.push({ key, local, at: match.index + match[0].length, children: [] })
  }
  while (open && stack.length > 1) {
    const top = stack.pop()!
    if (top.children.length === 0) return stack.length > 1 || root.children.length > 0 ? 'truncated' : undefined
    stack[stack.length - 1]!.children.push([top.key, toObject(top.children)])
  }
  if (stack.length !== 1 || root.children.length === 0) return undefined
  let children = root.children
  // `<function_calls><invoke>…</invoke></function_calls>`: the lone call element is the call.
  while (children.length === 1 && isPlainTree(children[0]![1]) && (WRAPPER_TAGS.has(children[0]![0].toLowerCase()) || CALL_TAG_HINT.test(children[0]![0].toLowerCase()))) {
    children = Object.entries(children[0]![1] as Record<string, unknown>)
  }
  // Several call elements side by side are several calls.
  if (children.length > 1 && children.every(([key, value]) => key === children[0]![0] && isPlainTree(value)) && CALL_TAG_HINT.test(children[0]![0].toLowerCase())) {
    return children.map(([, value]) => value)
  }
  return toObject(children)
}

const isPlainTree = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Children as an object; a repeated element becomes an array. Keys are set as own data properties. */
export function toObject(children: ReadonlyArray<[string, unknown]>): Record<string, unknown> {
  const object: Record<string, unknown> = {}
  for (const [key, value] of children) {
    if (Object.hasOwn(object, key)) {
      const existing = object[key]
      setOwn(object, key, Array.isArray(existing) ? [...existing, value] : [existing, value])
    } else setOwn(object, key, value)
  }
  return object
}
