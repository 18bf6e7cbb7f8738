/**
 * MiniMax M3's markup: XML-like elements in which every tag is prefixed by the marker `]<]minimax[>[`
 * (an ordinary token, so it survives special-token stripping):
 * `]<]minimax[>[<tool_call>`, `]<]minimax[>[<invoke name="N">`, then one element per argument, named
 * after it — `]<]minimax[>[<query>text]<]minimax[>[</query>` — nested objects as child elements and
 * list items as `<item>` elements.
 *
 * Text rules: only a marker starts a tag, so a value's text is exactly what lies between its tags —
 * `<`, `&`, quotes and newlines included, nothing decoded; whitespace between elements is layout. The
 * field's schema types the text (`42`, `true`, `null`), makes an element of children an object or a
 * list, and an empty element the empty list or object it admits; text with no schema stays text, and
 * children all named `item` are a list. A repeated element collects into a list. A call the text ends
 * inside is cut off, never a call.
 */
import { admittedTypes, decodeValue } from './decode-value'
import { schemaAtPath, type JsonSchemaNode } from './coerce'
import { MAX_CALLS, MAX_MARKUP_DEPTH, addFound, cleanToolName } from './markup-shared'
import type { ExtractionContext } from './markup-shared'
import { toObject } from './markup-xml'

const MARK = ']<]minimax[>['
const INVOKE = `${MARK}<invoke name=`

/** An element's content: its text, or its children in order. */
type Element = string | Array<[string, Element]>
type Read = { value: Element; end: number } | 'truncated' | undefined

/** The content of the element `name` whose opening tag ends at `from`, up to its `]<]minimax[>[</name>`. */
function readElement(text: string, from: number, name: string, depth: number): Read {
  const children: Array<[string, Element]> = []
  let body = ''
  for (let cursor = from; ; ) {
    const marker = text.indexOf(MARK, cursor)
    if (marker < 0) return 'truncated'
    body += text.slice(cursor, marker)
    const tag = marker + MARK.length
    if (text.startsWith(`</${name}>`, tag)) return { value: children.length > 0 ? children : body, end: tag + name.length + 3 }
    const close = text.indexOf('>', tag)
    if (close < 0) return 'truncated'
    const child = text.slice(tag + 1, close)
    if (text.charCodeAt(tag) !== 60 || depth > MAX_MARKUP_DEPTH || !/^[\w.-]{1,64}$/.test(child)) return undefined
    const read = readElement(text, close + 1, child, depth + 1)
    if (typeof read !== 'object') return read
    children.push([child, read.value])
    cursor = read.end
  }
}

/** The value an element spells, by its schema node. */
function toValue(element: Element, schema: JsonSchemaNode | undefined, fixes: string[]): unknown {
  const types = schema ? admittedTypes(schema) : new Set<string>()
  if (typeof element === 'string') {
    // The template writes an empty list or object as an empty element.
    if (!types.has('string') && !element.trim() && (types.has('array') || types.has('object'))) return types.has('array') ? [] : {}
    return types.size > 0 ? decodeValue(element, schema, fixes) : element
  }
  if (types.has('array') || (!types.has('object') && element.every(([key]) => key === 'item'))) {
    return element.map(([, child], index) => toValue(child, schema && schemaAtPath(schema, [index]), fixes))
  }
  return toObject(element.map(([key, child]) => [key, toValue(child, schema && schemaAtPath(schema, [key]), fixes)]))
}

/** Finds `]<]minimax[>[<invoke name="N">…]<]minimax[>[</invoke>` calls. */
export function recognizeMinimaxM3Calls(context: ExtractionContext): void {
  const { text } = context
  for (let at = text.indexOf(INVOKE); at >= 0 && context.found.length < MAX_CALLS; at = text.indexOf(INVOKE, at + 1)) {
    const nameEnd = text.slice(at, at + 200).indexOf('>', INVOKE.length)
    const read = nameEnd < 0 ? 'truncated' : readElement(text, at + nameEnd + 1, 'invoke', 0)
    if (read === 'truncated') {
      context.truncated = true
      return
    }
    const name = cleanToolName(text.slice(at + INVOKE.length, at + nameEnd).replace(/^["']|["']$/g, ''))
    if (!read || !name) continue
    const fixes: string[] = []
    const args = typeof read.value === 'string' ? {} : toValue(read.value, context.schemaOf?.(name) ?? { type: 'object' }, fixes)
    // The `<tool_call>` block around the first and last invoke belongs to them.
    const before = text.lastIndexOf(`${MARK}<tool_call>`, at)
    const start = before >= 0 && !text.slice(before + MARK.length + 11, at).trim() ? before : at
    const after = text.slice(read.end).match(/^\s*\]<\]minimax\[>\[<\/tool_call>/)
    addFound(context, { name, args, format: 'tool-markup:minimax-m3', fixes, start }, read.end + (after ? after[0].length : 0))
    at = read.end - 1
  }
}
