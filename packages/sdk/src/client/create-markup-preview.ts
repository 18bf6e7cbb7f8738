import { parseLenientJson } from '../repair/lenient-json'
import { cleanToolName, readName, setOwn } from '../repair/markup-shared'
import { parsePartialJson } from './parse-partial-json'

/**
 * Reads, while it streams, a call that a model writes into content as named-parameter markup: a
 * parameter named by `<parameter=KEY>`, by a `name="KEY"` attribute or by a key element
 * (`<arg_key>KEY</arg_key>`), its value running to the element's closer. Only a preview: the repair
 * reads the final text on its own.
 */
export interface MarkupPreview {
  /** Where the first parameter starts in the content, or -1 while none has. */
  readonly start: number
  /** From `<function=NAME>`, `<invoke name="NAME">`, or the name written before the first key element. */
  readonly name: string | undefined
  /** Reads what arrived since the last scan; a tag cut off at the end is read once it is whole. */
  scan(content: string): void
  /** The arguments so far: closed parameters, then the open one's text so far (JSON in it parsed partially). */
  read(content: string): Record<string, unknown>
}

interface Tag {
  end: number
  close: boolean
  local: string
  /** `KEY` of `<parameter=KEY>` or of a `name="KEY"` attribute. */
  name?: string
}

// One tag at the cursor: optional `/`, an optional `｜DSML｜`-style token prefix, an optional
// namespace, the local name, then `=VALUE` or attributes. Bounded like the repair's tag scan.
const TAG = /<(\/?)(?:｜[^｜<>\n]{1,24}｜)?(?:[A-Za-z_][\w-]{0,40}:)?([A-Za-z_][\w.-]{0,60})((?:=|\s)[^<>]{0,400})?\s*\/?>/y
// A tag the stream has cut off: it may still become one of the above.
const PARTIAL_TAG = /<\/?(?:[A-Za-z_｜][^\s<>=/]{0,100}(?:[=\s][^<>]{0,400})?)?$/y
const NAME_ATTRIBUTE = /(?:^|\s)name\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>/]+))/
const PARAMETER_TAG = /^(?:param|arg)/

/**
 * Creates the incremental reader behind streamed previews of markup calls (Qwen3-Coder and Seed
 * `<function=…><parameter=…>`, MiniMax and Claude-style `<invoke name=…><parameter name=…>`, GLM
 * `NAME<arg_key>…</arg_key><arg_value>…</arg_value>`). Each scan reads only new text; tags inside
 * inline code (`` `<parameter=x>` `` in prose) are text.
 *
 * @example
 * ```ts
 * const preview = createMarkupPreview()
 * preview.scan('<function=AgentOutput>\n<parameter=next_goal>\nOpen the ca')
 * preview.read(text) // { next_goal: 'Open the ca' }, preview.name === 'AgentOutput'
 * ```
 */
export function createMarkupPreview(from = 0): MarkupPreview {
  let cursor = from
  let lastTagEnd = from
  let inCode = false
  let done = false
  let start = -1
  let name: string | undefined
  let callLocal: string | undefined
  const closed: [string, unknown][] = []
  // The open element: a key element being read, a key waiting for its value element, or a value.
  let state: 'outside' | 'key' | 'await-value' | 'value' = 'outside'
  let key = ''
  let openLocal = ''
  let openEnd = 0

  const closeValue = (content: string, end: number) => {
    closed.push([key, readValue(content.slice(openEnd, end), false)])
    state = 'outside'
  }

  function handle(content: string, tag: Tag, tagStart: number) {
    if (state === 'key') {
      if (tag.close && tag.local === openLocal) {
        key = content.slice(openEnd, tagStart).trim()
        state = 'await-value'
      }
      return
    }
    if (state === 'await-value') {
      if (!tag.close) {
        state = 'value'
        openLocal = tag.local
        openEnd = tag.end
      }
      return
    }
    if (state === 'value') {
      // An unclosed parameter ends at the next one or at its call's closer, as the repair reads it.
      const next = !tag.close && tag.local === openLocal && tag.name !== undefined
      if (!(tag.close && (tag.local === openLocal || tag.local === callLocal)) && !next) return
      closeValue(content, tagStart)
      if (!next) return
    }
    if (tag.close) {
      // A call closes once it has parameters: a second call is not merged into the first one's preview.
      if (start >= 0) done = true
      return
    }
    if (tag.name !== undefined && PARAMETER_TAG.test(tag.local)) {
      if (start < 0) start = tagStart
      state = 'value'
      key = tag.name
      openLocal = tag.local
      openEnd = tag.end
    } else if (tag.name !== undefined) {
      if (start >= 0) done = true
      else {
        name = cleanToolName(tag.name)
        callLocal = tag.local
      }
    } else if (tag.local.endsWith('key')) {
      if (start < 0) {
        start = tagStart
        // GLM writes the call's name as text right before its first key.
        const before = content.slice(lastTagEnd, tagStart).trim()
        const line = before.slice(before.lastIndexOf('\n') + 1).trim()
        if (name === undefined && line && readName(line, 0) === line.length) name = cleanToolName(line)
      }
      state = 'key'
      openLocal = tag.local
      openEnd = tag.end
    }
  }

  return {
    get start() {
      return start
    },
    get name() {
      return name
    },
    scan(content) {
      const length = content.length
      while (cursor < length && !done) {
        if (state !== 'outside') {
          const next = content.indexOf('<', cursor)
          if (next < 0) {
            cursor = length
            break
          }
          cursor = next
        } else {
          const code = content.charCodeAt(cursor)
          if (code === 96) {
            let run = cursor
            while (run < length && content.charCodeAt(run) === 96) run++
            // A run of backticks cut at the end may still be a fence: wait for the next piece.
            if (run === length) break
            if (run - cursor < 3) inCode = !inCode
            cursor = run
            continue
          }
          if (code === 10) inCode = false
          if (code !== 60 || inCode) {
            cursor++
            continue
          }
        }
        TAG.lastIndex = cursor
        const match = TAG.exec(content)
        if (!match) {
          PARTIAL_TAG.lastIndex = cursor
          if (PARTIAL_TAG.test(content)) break
          cursor++
          continue
        }
        const rest = match[3]?.trim() ?? ''
        const tagStart = cursor
        const tag: Tag = { end: tagStart + match[0].length, close: match[1] === '/', local: match[2]!.toLowerCase() }
        if (rest.startsWith('=')) tag.name = rest.slice(1).trim().replace(/^["']|["']$/g, '')
        else if (rest) {
          const attribute = NAME_ATTRIBUTE.exec(rest)
          if (attribute) tag.name = attribute[1] ?? attribute[2] ?? attribute[3]
        }
        cursor = tag.end
        handle(content, tag, tagStart)
        lastTagEnd = cursor
      }
    },
    read(content) {
      const args: Record<string, unknown> = {}
      for (const [closedKey, value] of closed) setOwn(args, closedKey, value)
      if (state === 'value' && !done) {
        // Up to the cursor: a closing tag cut off at the end is not part of the value.
        const value = readValue(content.slice(openEnd, cursor), true)
        if (value !== undefined) setOwn(args, key, value)
      }
      return args
    },
  }
}

/**
 * A parameter's value the way the repair reads it: one line break dropped on each side (Qwen's
 * template), an object or array parsed as JSON (partially while it is still open), anything else
 * text. An open value that has shown nothing yet is left out, like a JSON key without its value.
 */
function readValue(raw: string, open: boolean): unknown {
  const text = raw.replace(/^\r?\n/, '').replace(/\r?\n$/, '')
  const trimmed = text.trim()
  if (open && trimmed === '') return undefined
  const first = trimmed.charCodeAt(0)
  if (first === 123 || first === 91) {
    const parsed = open ? parsePartialJson(trimmed) : parseLenientJson(trimmed)
    if (parsed && typeof parsed.value === 'object' && parsed.value !== null) return parsed.value
    // Half a JSON value shows nothing rather than its raw text, which would only flicker.
    if (open) return undefined
  }
  return text
}
