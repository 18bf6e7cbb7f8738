/**
 * Elements whose tags are spelled with markers instead of `<` and `>` (Kimi K3's `<|open|>NAME …<|sep|>`,
 * MiniMax M3's `]<]minimax[>[<NAME …>`): one element parser for both readers. A reader gives its
 * markers, the text that opens a call, the attribute that names it and how its arguments are read.
 * A value's raw text is exactly what lies between its tags; a marker inside a value that opens no
 * element is text of the value. A call the text ends inside is cut off, never a call.
 */
import { cleanToolName } from '../match-tool-name'
import type { ReaderPreview } from '../reader'
import { createTextBuffer } from '../../text/text-buffer'
import { decodeXmlReferences } from './decode-xml-references'
import { MAX_CALLS, MAX_MARKUP_DEPTH } from './limits'
import { addFound, type ExtractionContext } from './reading-context'
import { readAttributes } from './xml-tags'

/** How a format spells a tag: `open + NAME attributes + end`, and `close + NAME + end`. */
export type Markers = readonly [open: string, end: string, close: string]

/** An element: its name, attributes, raw text and child elements. */
export interface Node {
  name: string
  attributes: Record<string, string>
  /** The text between the tags, as written. */
  raw: string
  /** The child elements, in order. */
  children: Node[]
}
type Read = { node: Node; end: number } | 'truncated' | undefined

/** An element of a call still being written: the one the text ends inside is `open`, with its text and children so far. */
export interface OpenNode extends Node {
  open?: boolean
  children: OpenNode[]
}

/**
 * The element whose opening tag starts at `at`; a marker inside a value that opens no element is text.
 * `partial` (a call still being written): the element the text ends inside is `open`, with its
 * children or its text so far (a marker cut off at the end left out), instead of `truncated`.
 */
function readNode(text: string, at: number, markers: Markers, depth: number, partial?: boolean): Read {
  const [open, end, close] = markers
  const headEnd = text.slice(at, at + 600).indexOf(end, open.length)
  if (headEnd < 0) return at + 600 > text.length ? 'truncated' : undefined
  const head = text.slice(at + open.length, at + headEnd)
  const name = head.split(' ', 1)[0]!
  if (depth > MAX_MARKUP_DEPTH || !/^[\w.-]{1,64}$/.test(name)) return undefined
  const node: OpenNode = { name, attributes: readAttributes(head), raw: '', children: [] }
  const bodyStart = at + headEnd + end.length
  const closer = close + name + end
  // -1 once the closer is known to be missing (a partial element): the text is never searched again.
  let closeAt = -2
  for (let cursor = bodyStart; ; ) {
    if (closeAt !== -1 && closeAt < cursor) closeAt = text.indexOf(closer, cursor)
    if (closeAt < 0 && !partial) return 'truncated'
    const child = text.indexOf(open, cursor)
    const openAt = child < 0 ? text.length : child
    if (closeAt >= 0 && openAt >= closeAt) {
      node.raw = text.slice(bodyStart, closeAt)
      return { node, end: closeAt + closer.length }
    }
    const read = child < 0 ? 'truncated' : readNode(text, child, markers, depth + 1, partial)
    if (read === 'truncated' || (read && (read.node as OpenNode).open)) {
      if (!partial) return 'truncated'
      node.open = true
      node.raw = text.slice(bodyStart, openAt)
      if (child < 0) {
        // A closer or marker cut off at the end is not text of the value.
        for (let cut = Math.min(node.raw.length, closer.length - 1); cut > 0; cut--) {
          const tail = node.raw.slice(-cut)
          if (closer.startsWith(tail) || open.startsWith(tail)) {
            node.raw = node.raw.slice(0, -cut)
            break
          }
        }
      }
      if (read !== 'truncated') node.children.push(read.node)
      return { node, end: text.length }
    }
    // A marker that opens no element is text of the value.
    if (read) node.children.push(read.node)
    cursor = read ? read.end : child + 1
  }
}

/** Finds the calls of one marked format: `opener` starts a call element, its attribute `nameKey` names it, `argumentsOf` reads it. */
export function recognizeMarkedCalls(context: ExtractionContext, markers: Markers, opener: string, nameKey: string, argumentsOf: (name: string, call: Node, fixes: string[]) => unknown, format: string): void {
  const { text } = context
  for (let at = text.indexOf(opener); at >= 0 && context.found.length < MAX_CALLS; at = text.indexOf(opener, at + 1)) {
    const read = readNode(text, at, markers, 0)
    if (read === 'truncated') {
      context.truncated = true
      return
    }
    const name = read && cleanToolName(decodeXmlReferences(read.node.attributes[nameKey] ?? ''), context.names)
    if (!read || !name) continue
    const fixes: string[] = []
    addFound(context, { name, args: argumentsOf(name, read.node, fixes), format: `tool-markup:${format}`, fixes, start: at }, read.end)
    at = read.end - 1
  }
}

/**
 * The streamed preview (`Reader.preview`) of a marked format's first call: its name once its
 * opening tag is whole, then `argumentsOf` the elements written so far. Each piece is scanned once
 * for the call's opener or closer; the body is re-read only when the preview is read (the stream
 * reads it at growing intervals), so a stream of any length costs a linear total.
 */
export function createMarkedPreview(markers: Markers, opener: string, nameKey: string, argumentsOf: (children: OpenNode[]) => Record<string, unknown>): (from: number) => ReaderPreview {
  const [open, end, close] = markers
  const callCloser = close + opener.slice(open.length).trim() + end
  return (from) => {
    // The text where the opener or its tag may still be (from `offset` in the content), before the call.
    let head = ''
    let offset = from
    const body = createTextBuffer()
    let bodyEnd: number | undefined
    let tail = ''
    const preview: ReaderPreview = {
      start: -1,
      push(piece) {
        if (bodyEnd !== undefined) return
        if (preview.start < 0) {
          head += piece
          const at = head.indexOf(opener)
          const headEnd = at < 0 ? -1 : head.indexOf(end, at + opener.length)
          if (headEnd < 0) {
            // Keep what may start an opener; a tag longer than a name allows opens no call.
            const keep = at >= 0 && head.length - at < 600 ? at : Math.max(at + 1, head.length - opener.length + 1)
            offset += keep
            head = head.slice(keep)
            return
          }
          preview.name = cleanToolName(decodeXmlReferences(readAttributes(head.slice(at + opener.length, headEnd))[nameKey] ?? '')) || undefined
          preview.start = offset + headEnd + end.length
          piece = head.slice(at)
          head = ''
        }
        body.append(piece)
        const window = tail + piece
        const closeAt = window.indexOf(callCloser)
        // The call closed: a second call is not merged into the first one's preview.
        if (closeAt >= 0) bodyEnd = body.length - window.length + closeAt
        tail = window.slice(1 - callCloser.length)
      },
      read() {
        const read = readNode(body.toString().slice(0, bodyEnd), 0, markers, 0, true)
        return read && read !== 'truncated' ? argumentsOf(read.node.children) : {}
      },
    }
    return preview
  }
}
