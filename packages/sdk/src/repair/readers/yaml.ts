/**
 * YAML answers. Small models asked for "structured output" often write the input as YAML
 * (`next_goal: …\naction:\n  scroll:\n    down: true`, `action: scroll\ndown: true`, a ```yaml
 * fence). A small reader for the subset they write — block mappings and sequences by indentation,
 * plain and quoted scalars, `|`/`>` block scalars, flow `{…}`/`[…]` values read as lenient JSON —
 * turns each YAML-shaped run of lines into the value it spells, for the JSON pipeline to resolve.
 * Scalars stay text (the schema-guided coercion types them). It runs only when nothing else was
 * found, and takes a block only when it names a known tool or action: prose with colons never
 * becomes a call.
 */
import { isPlainObject } from '../coerce'
import { parseLenientJson } from '../lenient-json'
import { cleanToolName } from '../match-tool-name'
import type { Reader } from '../reader'
import { fenceAround } from '../reading/fences'
import { MAX_CALLS, MAX_MARKUP_DEPTH } from '../reading/limits'
import { addFound, readAlone, type BuiltInReader, type ExtractionContext } from '../reading/reading-context'
import { setOwn } from '../../util/set-own'
import { ACTION_KEY } from '../shape-macro-input'
import { envelopeName } from '../unwrap'

interface Line {
  indent: number
  /** The line without indentation and trailing spaces; `-` for a sequence marker split off its item; `` when blank. */
  text: string
  start: number
  end: number
}

/** A run of YAML lines and the value it spells. */
export interface YamlBlock {
  value: unknown
  start: number
  end: number
}

// A key and its colon. Only an identifier: a key with spaces is prose ("Next step: …").
const KEY = String.raw`([A-Za-z_$][\w.$-]*)[ \t]*:`
// The value starts at a non-blank: `[ \t]+(.*)` let the two parts trade a run of spaces.
const KEY_LINE = new RegExp(String.raw`^${KEY}(?:[ \t]+([^ \t].*))?$`)
// A `key:` line, tested at each line start before the text is split into lines.
const KEY_AT = new RegExp(String.raw`[ \t]*(?:- +)*${KEY}(?:\s|$)`, 'y')
// Keys that may name a call in an envelope.
const NAME_KEY = /name|tool|function|command|method/i
// Every line terminator of a JavaScript regex (`.` and `$` stop at each): a line split at `\n` alone
// left a `\r` or `\u2028` inside, where `KEY_LINE` failed only after trying each split of a run of spaces.
const LINE_BREAK = /\r\n?|[\n\u2028\u2029]/g
const LINE_SPLIT = /\r\n?|[\n\u2028\u2029]/

/** Where the line after the one containing `from` starts, or -1 after the last line. */
function nextLineStart(text: string, from: number): number {
  LINE_BREAK.lastIndex = from
  const found = LINE_BREAK.exec(text)
  return found ? found.index + found[0].length : -1
}

/** Splits `text` into lines; `- item` becomes a `-` marker and the item, indented as written. */
function splitLines(text: string): Line[] {
  const lines: Line[] = []
  for (let start = 0; start >= 0; ) {
    LINE_BREAK.lastIndex = start
    const found = LINE_BREAK.exec(text)
    const end = found ? found.index : text.length
    let from = start
    let to = end
    while (from < to && (text.charCodeAt(from) === 32 || text.charCodeAt(from) === 9)) from++
    while (to > from && text.charCodeAt(to - 1) <= 32) to--
    const marked = lines.length
    while (text.charCodeAt(from) === 45 && (from + 1 === to || text.charCodeAt(from + 1) === 32)) {
      lines.push({ indent: from - start, text: '-', start, end })
      for (from++; text.charCodeAt(from) === 32; ) from++
    }
    // A comment or a document marker is a blank line to the reader.
    let rest = from < to && text.charCodeAt(from) !== 35 ? text.slice(from, to) : ''
    if (rest === '---' || rest === '...') rest = ''
    if (rest || lines.length === marked) lines.push({ indent: from - start, text: rest, start, end })
    start = found ? end + found[0].length : -1
  }
  return lines
}

/** Every run of YAML-shaped lines in `text` (starting at a `key:` or `- ` line) with the value it spells. */
export function readYamlBlocks(text: string): YamlBlock[] {
  const lines = splitLines(text)
  const blocks: YamlBlock[] = []
  // The line after the value read last, and the end of the line read last.
  let at = 0
  let end = 0
  const next = (index: number) => {
    while (index < lines.length && !lines[index]!.text) index++
    return index
  }

  /** The value starting on line `index`, indented at least `minimum`; leaves `at` after it. */
  const node = (index: number, minimum: number, depth: number): unknown => {
    const line = lines[index]
    at = index
    if (!line || line.indent < minimum || depth > MAX_MARKUP_DEPTH) return null
    const { indent } = line
    if (line.text === '-') {
      const items: unknown[] = []
      for (let item = index; lines[item]?.indent === indent && lines[item]!.text === '-'; item = next(at)) {
        end = lines[item]!.end
        items.push(node(next(item + 1), indent + 1, depth + 1))
        at = Math.max(at, item + 1)
      }
      return items
    }
    if (!KEY_LINE.test(line.text)) return scalar(line.text, index, minimum)
    const object: Record<string, unknown> = {}
    let match: RegExpExecArray | null
    for (let key = index; lines[key]?.indent === indent && (match = KEY_LINE.exec(lines[key]!.text)) !== null; key = next(at)) {
      end = lines[key]!.end
      at = key + 1
      const rest = match[2] ?? ''
      const below = lines[next(key + 1)]
      let value: unknown = null
      if (rest && rest[0] !== '#') value = scalar(rest, key, indent + 1)
      // `key:` then a more-indented value, or a sequence at the key's own indentation.
      else if (below && (below.indent > indent || below.text === '-')) value = node(next(key + 1), Math.min(below.indent, indent + 1), depth + 1)
      setOwn(object, match[1]!, value)
    }
    return object
  }

  /**
   * A scalar written on line `index` (`first` is its text) with the lines that continue it, indented
   * at least `minimum`: the body of a `|`/`>` block scalar, or a plain or flow value folded over lines.
   */
  const scalar = (first: string, index: number, minimum: number): unknown => {
    const block = /^([|>])([+-]?)\d?(?:[ \t]+#.*)?$/.exec(first)
    at = index + 1
    if (block) {
      while (at < lines.length && (!lines[at]!.text || lines[at]!.indent >= minimum)) at++
      while (at > index + 1 && !lines[at - 1]!.text) at--
      if (at === index + 1) return ''
      const rows = text.slice(lines[index + 1]!.start, (end = lines[at - 1]!.end)).split(LINE_SPLIT)
      let margin = Infinity
      for (const row of rows) if (row.trim()) margin = Math.min(margin, row.length - row.trimStart().length)
      let value = rows.map((row) => row.slice(margin).trimEnd()).join('\n')
      // Folding: a single line break is a space, an empty line a line break.
      if (block[1] === '>') value = value.replace(/\n(\n*)/g, (_, extra: string) => extra || ' ')
      return block[2] === '-' ? value : `${value}\n`
    }
    let joined = first
    const separator = first[0] === '{' || first[0] === '[' ? '\n' : ' '
    for (let line = lines[at]; line?.text && line.indent >= minimum && line.text !== '-' && !KEY_LINE.test(line.text); line = lines[++at]) {
      joined += separator + line.text
      end = line.end
    }
    return readScalar(joined)
  }

  for (let index = 0; index < lines.length; ) {
    const line = lines[index]!
    if (line.text !== '-' && !KEY_LINE.test(line.text)) {
      index++
      continue
    }
    end = line.end
    const value = node(index, line.indent, 0)
    blocks.push({ value, start: line.start + line.indent, end })
    index = Math.max(at, index + 1)
  }
  return blocks
}

/** Whether a line starts with a key that can make its block a call: only such text is split into lines. */
function hasCallKey(text: string, names: ReadonlySet<string>): boolean {
  for (let start = 0; start >= 0; start = nextLineStart(text, start)) {
    KEY_AT.lastIndex = start
    const name = KEY_AT.exec(text)?.[1]
    if (name && (isName(names, name) || ACTION_KEY.test(name) || NAME_KEY.test(name))) return true
  }
  return false
}

/**
 * YAML blocks that name a known tool or action — a key that is one (with a mapping, a list or nothing
 * under it), an `action` key whose value is one, or a `{name, arguments}` envelope — as unnamed
 * candidates (`tool-markup:yaml`). Only when no other reader found anything.
 */
export function recognizeYamlCalls(context: ExtractionContext): void {
  const { text, names } = context
  if (context.found.length > 0 || !names || names.size === 0 || !hasCallKey(text, names)) return
  for (const block of readYamlBlocks(text)) {
    if (context.found.length >= MAX_CALLS) return
    if (namesCall(block.value, names, false)) addFound(context, { args: block.value, format: 'tool-markup:yaml', fixes: fenceAround(context, block.start) ? ['fenced'] : [], start: block.start }, block.end)
  }
}

const isName = (names: ReadonlySet<string>, name: string) => names.has(cleanToolName(name, names))

/**
 * Whether a value names a known call: an envelope naming one, a key that is one, or an `action` key
 * naming one. Under `action` any known key counts; elsewhere a scalar under a known name
 * (`scroll: the page is long`) is prose, not a call.
 */
function namesCall(value: unknown, names: ReadonlySet<string>, inAction: boolean): boolean {
  if (typeof value === 'string') return inAction && isName(names, value)
  if (Array.isArray(value)) return value.some((item) => namesCall(item, names, inAction))
  if (!isPlainObject(value)) return false
  const named = envelopeName(value)
  return (
    (named !== undefined && isName(names, named)) ||
    Object.keys(value).some((key) => (isName(names, key) && (inAction || typeof value[key] === 'object')) || (ACTION_KEY.test(key) && namesCall(value[key], names, true)))
  )
}

/** A scalar's value: quoted text unquoted, `{…}`/`[…]` as lenient JSON, `null`/`~` as null, anything else as written. */
export function readScalar(raw: string): unknown {
  const text = raw.trim()
  const quote = text[0]
  if (quote === '"' || quote === "'") {
    const close = quote === '"' ? /^"(?:[^"\\]|\\.)*"/.exec(text) : /^'(?:[^']|'')*'/.exec(text)
    if (close) {
      if (quote === "'") return close[0].slice(1, -1).replaceAll("''", "'")
      try {
        return JSON.parse(close[0].replace(/\n/g, '\\n'))
      } catch {
        return close[0].slice(1, -1)
      }
    }
    return text
  }
  if (quote === '{' || quote === '[') {
    const parsed = parseLenientJson(text)
    if (parsed) return parsed.value
  }
  const plain = withoutComment(text)
  return plain === '' || plain === '~' || /^null$/i.test(plain) ? null : plain
}

/**
 * `value  # note` → `value`: a `#` after a space or tab starts a comment, on the scalar's last line.
 * Searched with indexOf, as `/[ \t]+#.*$/` took quadratic time on a long run of spaces.
 */
function withoutComment(text: string): string {
  const lineStart = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'), text.lastIndexOf('\u2028'), text.lastIndexOf('\u2029')) + 1
  let hash = text.indexOf('#', lineStart + 1)
  while (hash > 0 && text[hash - 1] !== ' ' && text[hash - 1] !== '\t') hash = text.indexOf('#', hash + 1)
  if (hash < 0) return text
  let end = hash - 1
  while (end > 0 && (text[end - 1] === ' ' || text[end - 1] === '\t')) end--
  return text.slice(0, end)
}

const reader: BuiltInReader = {
  name: 'yaml',
  formats: ['tool-markup:yaml'],
  stage: 'fallback',
  recognize: recognizeYamlCalls,
  read: (text, context) => readAlone(reader, text, context),
}

/**
 * YAML blocks that name a known tool or action (a key that is one, an `action` key whose value is
 * one, or a `{name, arguments}` envelope). Only when no other reader found anything.
 *
 * @example
 * ```ts
 * yamlReader.read('action:\n  scroll:\n    down: true', { names: new Set(['scroll']), claimed: () => false })
 * ```
 */
export const yamlReader: Reader = reader
