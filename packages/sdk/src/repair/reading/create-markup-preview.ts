/**
 * The streamed preview of the named-parameter markup readers (xml-call, GLM): their `preview`, the
 * arguments of a call while it is being written, read incrementally with the same tag scan as the
 * readers (`./xml-tags`).
 */
import { parseLenientJson } from '../lenient-json'
import { setOwn } from '../../util/set-own'
import { cleanToolName } from '../match-tool-name'
import { readName } from './read-name'
import { findTags } from './xml-tags'
import { parsePartialJson } from '../parse-partial-json'
import { createTextBuffer } from '../../text/text-buffer'

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
  /** Reads the next piece of the content; a tag cut off at the end is read once it is whole. */
  push(piece: string): void
  /** The arguments so far: closed parameters, then the open one's text so far (JSON in it parsed partially). */
  read(): Record<string, unknown>
}

const PARAMETER_TAG = /^(?:param|arg)/
// The longest text kept for a GLM name (a name is at most 128 characters).
const LOOK_BACK = 500

/**
 * Creates the incremental reader behind streamed previews of markup calls (Qwen3-Coder and Seed
 * `<function=…><parameter=…>`, MiniMax and Claude-style `<invoke name=…><parameter name=…>`, GLM
 * `NAME<arg_key>…</arg_key><arg_value>…</arg_value>`), with the repair's own tag scan. Each piece is
 * scanned once (a tag cut off at its end is carried to the next), and the text of the open key or
 * value is kept apart, so a stream of any length costs a linear total. A tag inside inline code
 * (`` `<parameter=x>` `` in prose) is text. `from` is where the pieces start in the content.
 *
 * @example
 * ```ts
 * const preview = createMarkupPreview()
 * preview.push('<function=AgentOutput>\n<parameter=next_goal>\nOpen the ca')
 * preview.read() // { next_goal: 'Open the ca' }, and preview.name is 'AgentOutput'
 * ```
 */
export function createMarkupPreview(from = 0): MarkupPreview {
  // Where `carry` (a tag cut off at the end of the last piece) starts in the content.
  let offset = from
  let carry = ''
  let done = false
  let callLocal: string | undefined
  const closed: Record<string, unknown> = {}
  // 0: between parameters, 1: in a key element, 2: a key waiting for its value element, 3: in a value.
  let state = 0
  let key = ''
  let openLocal = ''
  // The text of the open key (state 1) or value (state 3), up to the last scanned piece.
  let open = createTextBuffer()
  // The text since the last tag, its last LOOK_BACK characters (a GLM name stands right before its first key).
  let sinceTag = ''
  let sinceTagCut = false
  // Inline code on the current line: single backticks seen so far (runs of three or more are
  // fences, not code spans), and the run of backticks the last piece ended in.
  let lineTicks = 0
  let tickRun = 0
  /** Counts the backticks of `text` from `from` to `to`, once per character across pieces. */
  const countTicks = (text: string, from: number, to: number) => {
    for (let index = from; index < to; index++) {
      const code = text.charCodeAt(index)
      if (code === 96) {
        tickRun++
        continue
      }
      if (tickRun > 0 && tickRun < 3) lineTicks += tickRun
      tickRun = 0
      if (code === 10) lineTicks = 0
    }
  }
  // The piece being read (with the carry before it), and where its text not yet taken starts.
  let text = ''
  let pendingFrom = 0
  /** Adds the text since the last state change, up to `to`, to `open` (in a key or a value: state 1 or 3) or `sinceTag`. */
  const take = (to: number) => {
    const taken = text.slice(pendingFrom, to)
    if (state % 2) open.append(taken)
    else addSinceTag(taken)
  }
  const addSinceTag = (text: string) => {
    sinceTag += text
    if (sinceTag.length > 2 * LOOK_BACK) {
      sinceTag = sinceTag.slice(-LOOK_BACK)
      sinceTagCut = true
    }
  }

  const preview: MarkupPreview = {
    start: -1,
    push(piece) {
      if (done) return
      text = carry + piece
      const base = offset
      pendingFrom = 0
      let scanned = 0
      // Where the backticks were counted up to.
      let counted = 0
      let end = text.length
      // No tag starts or ends in text without a `<` (most prose; a carry starts with one).
      if (text.includes('<')) {
        for (const tag of findTags(text)) {
          const start = base + tag.start
          const name = tag.value ?? tag.attributes.name
          scanned = tag.end
          if (state === 1) {
            if (tag.close && tag.local === openLocal) {
              take(tag.start)
              key = open.toString().trim()
              open = createTextBuffer()
              state = 2
              pendingFrom = tag.end
            }
            continue
          }
          if (state === 2) {
            if (!tag.close) {
              state = 3
              openLocal = tag.local
              open = createTextBuffer()
              pendingFrom = tag.end
            }
            continue
          }
          // An unclosed parameter ends at the next one or at its call's closer, as the repair reads it.
          const nextParameter = !tag.close && tag.local === openLocal && name !== undefined
          if (state === 3 && (nextParameter || (tag.close && (tag.local === openLocal || tag.local === callLocal)))) {
            take(tag.start)
            setOwn(closed, key, readValue(open.toString(), false))
            open = createTextBuffer()
            state = 0
            sinceTag = ''
            sinceTagCut = false
            pendingFrom = tag.end
            if (tag.close) continue
          }
          if (state === 3) continue
          take(tag.start)
          const before = sinceTag
          const beforeCut = sinceTagCut
          sinceTag = ''
          sinceTagCut = false
          pendingFrom = tag.end
          // Prose about markup: a tag in an inline code span of its line is text.
          countTicks(text, counted, tag.start)
          counted = tag.start
          if ((lineTicks + (tickRun < 3 ? tickRun : 0)) % 2 === 1) continue
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
            open = createTextBuffer()
          } else if (name !== undefined) {
            preview.name = cleanToolName(name)
            callLocal = tag.local
          } else if (tag.local.endsWith('key')) {
            if (preview.start < 0) {
              preview.start = start
              // GLM writes the call's name as text right before its first key.
              const trimmed = before.trim()
              const newline = trimmed.lastIndexOf('\n')
              const line = trimmed.slice(newline + 1).trim()
              if (preview.name === undefined && line && (newline >= 0 || !beforeCut) && readName(line, 0) === line.length) preview.name = cleanToolName(line)
            }
            state = 1
            openLocal = tag.local
            open = createTextBuffer()
          }
        }
        // A tag cut off at the end is read again with the next piece: carry it from its `<`.
        const lastOpen = text.lastIndexOf('<')
        const cut = lastOpen >= scanned && text.length - lastOpen < LOOK_BACK && !/>|^<\/?[^\w｜/]/.test(text.slice(lastOpen))
        if (cut) end = lastOpen
      }
      take(end)
      countTicks(text, counted, end)
      carry = text.slice(end)
      offset = base + end
    },
    read() {
      // Spreading copies a `__proto__` key as an own property, never as the prototype.
      const args = { ...closed }
      if (state === 3) {
        // Up to the last whole piece: a closing tag cut off at the end is not part of the value.
        const value = readValue(open.toString(), true)
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
