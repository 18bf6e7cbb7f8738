/**
 * Elements whose tags are spelled with markers instead of `<` and `>` (Kimi K3's `<|open|>NAME …<|sep|>`,
 * MiniMax M3's `]<]minimax[>[<NAME …>`): one element parser for both readers. A reader gives its
 * markers, the text that opens a call, the attribute that names it and how its arguments are read.
 * A value's raw text is exactly what lies between its tags; a marker inside a value that opens no
 * element is text of the value. A call the text ends inside is cut off, never a call.
 */
import { cleanToolName } from '../match-tool-name'
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

/** The element whose opening tag starts at `at`; a marker inside a value that opens no element is text. */
function readNode(text: string, at: number, markers: Markers, depth: number): Read {
  const [open, end, close] = markers
  const headEnd = text.slice(at, at + 600).indexOf(end, open.length)
  if (headEnd < 0) return at + 600 > text.length ? 'truncated' : undefined
  const head = text.slice(at + open.length, at + headEnd)
  const name = head.split(' ', 1)[0]!
  if (depth > MAX_MARKUP_DEPTH || !/^[\w.-]{1,64}$/.test(name)) return undefined
  const node: Node = { name, attributes: readAttributes(head), raw: '', children: [] }
  const bodyStart = at + headEnd + end.length
  const closer = close + name + end
  let closeAt = -1
  for (let cursor = bodyStart; ; ) {
    if (closeAt < cursor) closeAt = text.indexOf(closer, cursor)
    if (closeAt < 0) return 'truncated'
    const child = text.indexOf(open, cursor)
    if (child < 0 || child >= closeAt) {
      node.raw = text.slice(bodyStart, closeAt)
      return { node, end: closeAt + closer.length }
    }
    const read = readNode(text, child, markers, depth + 1)
    if (read === 'truncated') return read
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
