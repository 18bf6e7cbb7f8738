import { parseLenientJson } from '../repair/lenient-json'
import { cleanToolName, readName, setOwn } from '../repair/markup-shared'
import { findTags } from '../repair/markup-xml'
import { parsePartialJson } from './parse-partial-json'

/**
 * Reads, while it streams, a call that a model writes into content as named-parameter markup: a
 * parameter named by `<parameter=KEY>`, by a `name="KEY"` attribute or by a key element
 * (`<arg_key>KEY</arg_key>`), its value running to the element's closer. Only a preview: the repair
 * reads the final text on its own.
 */
export interface MarkupPreview {
  /** Where the first parameter starts in the content, or -1 while none has. */
  start: number
  /** From `<function=NAME>`, `<invoke name="NAME">`, or the name written before the first key element. */
  name?: string
  /** Reads what arrived since the last scan; a tag cut off at the end is read once it is whole. */
  scan(content: string): void
  /** The arguments so far: closed parameters, then the open one's text so far (JSON in it parsed partially). */
  read(content: string): Record<string, unknown>
}

const PARAMETER_TAG = /^(?:param|arg)/

/**
 * Creates the incremental reader behind streamed previews of markup calls (Qwen3-Coder and Seed
 * `<function=…><parameter=…>`, MiniMax and Claude-style `<invoke name=…><parameter name=…>`, GLM
 * `NAME<arg_key>…</arg_key><arg_value>…</arg_value>`), with the repair's own tag scan. Each scan
 * reads only new text; a tag inside inline code (`` `<parameter=x>` `` in prose) is text.
 *
 * @example
 * ```ts
 * const preview = createMarkupPreview()
 * preview.scan(text) // text = '<function=AgentOutput>\n<parameter=next_goal>\nOpen the ca'
 * preview.read(text) // { next_goal: 'Open the ca' }, and preview.name is 'AgentOutput'
 * ```
 */
export function createMarkupPreview(from = 0): MarkupPreview {
  let cursor = from
  let lastTagEnd = from
  let done = false
  let callLocal: string | undefined
  const closed: Record<string, unknown> = {}
  // 0: between parameters, 1: in a key element, 2: a key waiting for its value element, 3: in a value.
  let state = 0
  let key = ''
  let openLocal = ''
  let openEnd = 0
  const preview: MarkupPreview = {
    start: -1,
    scan(content) {
      if (done) return
      const text = content.slice(cursor)
      let scanned = 0
      for (const tag of findTags(text)) {
        const start = cursor + tag.start
        const name = tag.value ?? tag.attributes.name
        const previousEnd = lastTagEnd
        lastTagEnd = cursor + tag.end
        scanned = tag.end
        if (state === 1) {
          if (tag.close && tag.local === openLocal) {
            key = content.slice(openEnd, start).trim()
            state = 2
          }
        } else if (state === 2) {
          if (!tag.close) {
            state = 3
            openLocal = tag.local
            openEnd = cursor + tag.end
          }
        } else {
          // An unclosed parameter ends at the next one or at its call's closer, as the repair reads it.
          const nextParameter = !tag.close && tag.local === openLocal && name !== undefined
          if (state === 3 && (nextParameter || (tag.close && (tag.local === openLocal || tag.local === callLocal)))) {
            setOwn(closed, key, readValue(content.slice(openEnd, start), false))
            state = 0
            if (tag.close) continue
          }
          if (state === 3) continue
          // Prose about markup: a tag in an inline code span of its line (looked at up to 500 characters
          // back, so a flood of tags on one line stays linear) is text.
          const line = content.slice(Math.max(0, start - 500), start)
          if (line.slice(line.lastIndexOf('\n') + 1).replace(/`{3,}/g, '').split('`').length % 2 === 0) continue
          if (tag.close || (name !== undefined && !PARAMETER_TAG.test(tag.local) && preview.start >= 0)) {
            // A call closes once it has parameters: a second call is not merged into the first one's preview.
            if (preview.start >= 0) {
              done = true
              return
            }
          } else if (name !== undefined && PARAMETER_TAG.test(tag.local)) {
            if (preview.start < 0) preview.start = start
            state = 3
            key = name
            openLocal = tag.local
            openEnd = cursor + tag.end
          } else if (name !== undefined) {
            preview.name = cleanToolName(name)
            callLocal = tag.local
          } else if (tag.local.endsWith('key')) {
            if (preview.start < 0) {
              preview.start = start
              // GLM writes the call's name as text right before its first key.
              const before = content.slice(previousEnd, start).trim()
              const line = before.slice(before.lastIndexOf('\n') + 1).trim()
              if (preview.name === undefined && line && readName(line, 0) === line.length) preview.name = cleanToolName(line)
            }
            state = 1
            openLocal = tag.local
            openEnd = cursor + tag.end
          }
        }
      }
      // A tag cut off at the end is read again with the next piece: resume at its `<`.
      const open = text.lastIndexOf('<')
      const cut = open >= scanned && text.length - open < 500 && !/>|^<\/?[^\w｜/]/.test(text.slice(open))
      cursor += cut ? open : text.length
    },
    read(content) {
      // Spreading copies a `__proto__` key as an own property, never as the prototype.
      const args = { ...closed }
      if (state === 3) {
        // Up to the cursor: a closing tag cut off at the end is not part of the value.
        const value = readValue(content.slice(openEnd, cursor), true)
        if (value !== undefined) setOwn(args, key, value)
      }
      return args
    },
  }
  return preview
}

/**
 * A parameter's value the way the repair reads it: one line break dropped on each side (Qwen's
 * template), an object or array parsed as JSON (partially while it is still open), anything else
 * text. An open value that has shown nothing yet is left out, like a JSON key without its value.
 */
function readValue(raw: string, open: boolean): unknown {
  const text = raw.replace(/^\r?\n|\r?\n$/g, '')
  const trimmed = text.trim()
  if (open && !trimmed) return undefined
  if (/^[[{]/.test(trimmed)) {
    const parsed = (open ? parsePartialJson : parseLenientJson)(trimmed)
    if (parsed && typeof parsed.value === 'object' && parsed.value !== null) return parsed.value
    // Half a JSON value shows nothing rather than its raw text, which would only flicker.
    if (open) return undefined
  }
  return text
}
