/**
 * Elements whose tags are spelled with markers instead of `<` and `>`: one parser, two formats.
 *
 * Kimi K3 (`Kimi-K3.jinja`): every tag is `<|open|>NAME attributes<|sep|>` … `<|close|>NAME<|sep|>`, no
 * whitespace anywhere: `<|open|>call tool="N" index="1"<|sep|>`, one
 * `<|open|>argument key="K" type="T"<|sep|>V<|close|>argument<|sep|>` per argument (or all of them as
 * one `<|open|>json type="object"<|sep|>{…}<|close|>json<|sep|>`), then `<|close|>call<|sep|>`. Text
 * rules: a value is exactly the text between its tags, nothing escaped, no layout; `type="string"`
 * makes it the string itself, any other type JSON (text that is not JSON is typed by the field's
 * schema). Attribute values decode `&amp;` and `&quot;`.
 *
 * MiniMax M3 (vLLM's `minimax_m3` parser): every tag is prefixed by `]<]minimax[>[` (an ordinary token,
 * so it survives special-token stripping): `]<]minimax[>[<invoke name="N">`, then one element per
 * argument, named after it (`<query>text</query>`), nested objects as child elements, list items as
 * `<item>`. Text rules: only a marker starts a tag, so a value is exactly the text between its tags —
 * `<`, `&`, quotes and newlines included, nothing decoded; whitespace between elements is layout. The
 * field's schema types the text (`42`, `true`, `null`), makes children an object or a list and an
 * empty element the empty list or object it admits; text with no schema stays text, children all
 * named `item` are a list, a repeated element collects into a list.
 *
 * In both, a call the text ends inside is cut off, never a call.
 */
import { admittedTypes, decodeArgument, decodeValue, decodeXmlReferences } from './decode-value'
import { schemaAtPath, type JsonSchemaNode } from './coerce'
import { parseLenientJson } from './lenient-json'
import { MAX_CALLS, MAX_MARKUP_DEPTH, addFound, cleanToolName, setOwn } from './markup-shared'
import type { ExtractionContext } from './markup-shared'
import { readAttributes, toObject } from './markup-xml'

/** How a format spells a tag: `open + NAME attributes + end`, and `close + NAME + end`. */
type Markers = readonly [open: string, end: string, close: string]
const K3: Markers = ['<|open|>', '<|sep|>', '<|close|>']
const M3: Markers = [']<]minimax[>[<', '>', ']<]minimax[>[</']

interface Node {
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

/** Kimi K3's arguments: typed by each argument's `type`, or one JSON value. */
function k3Arguments(context: ExtractionContext, name: string, call: Node, fixes: string[]): unknown {
  const args: Record<string, unknown> = {}
  for (const { name: kind, attributes, raw } of call.children) {
    if (kind === 'json') return parseLenientJson(raw)?.value
    const key = decodeXmlReferences(attributes.key ?? '')
    let value: unknown = raw
    if (attributes.type !== 'string') {
      try {
        value = JSON.parse(raw)
      } catch {
        value = decodeArgument(context, name, key, raw, fixes)
      }
    }
    setOwn(args, key, value)
  }
  return args
}

/** MiniMax M3's value of an element, by its schema node. */
function m3Value({ raw, children }: Node, schema: JsonSchemaNode | undefined, fixes: string[]): unknown {
  const types = schema ? admittedTypes(schema) : new Set<string>()
  if (children.length === 0) {
    // The template writes an empty list or object as an empty element.
    if (!types.has('string') && !raw.trim() && (types.has('array') || types.has('object'))) return types.has('array') ? [] : {}
    return types.size > 0 ? decodeValue(raw, schema, fixes) : raw
  }
  if (types.has('array') || (!types.has('object') && children.every((child) => child.name === 'item'))) {
    return children.map((child, index) => m3Value(child, schema && schemaAtPath(schema, [index]), fixes))
  }
  return toObject(children.map((child) => [child.name, m3Value(child, schema && schemaAtPath(schema, [child.name]), fixes)]))
}

/** Finds the calls of one marked format: `opener` starts a call element, its attribute `nameKey` names it, `argumentsOf` reads it. */
function recognize(context: ExtractionContext, markers: Markers, opener: string, nameKey: string, argumentsOf: (name: string, call: Node, fixes: string[]) => unknown, format: string): void {
  const { text } = context
  for (let at = text.indexOf(opener); at >= 0 && context.found.length < MAX_CALLS; at = text.indexOf(opener, at + 1)) {
    const read = readNode(text, at, markers, 0)
    if (read === 'truncated') {
      context.truncated = true
      return
    }
    const name = read && cleanToolName(decodeXmlReferences(read.node.attributes[nameKey] ?? ''))
    if (!read || !name) continue
    const fixes: string[] = []
    addFound(context, { name, args: argumentsOf(name, read.node, fixes), format: `tool-markup:${format}`, fixes, start: at }, read.end)
    at = read.end - 1
  }
}

/** Kimi K3's `<|open|>call tool="N" …<|sep|>…<|close|>call<|sep|>` calls. */
export const recognizeKimiK3Calls = (context: ExtractionContext) => recognize(context, K3, `${K3[0]}call `, 'tool', (name, call, fixes) => k3Arguments(context, name, call, fixes), 'kimi-k3')

/** MiniMax M3's `]<]minimax[>[<invoke name="N">…]<]minimax[>[</invoke>` calls. */
export const recognizeMinimaxM3Calls = (context: ExtractionContext) =>
  recognize(context, M3, `${M3[0]}invoke `, 'name', (name, call, fixes) => m3Value(call, context.schemaOf?.(name) ?? { type: 'object' }, fixes), 'minimax-m3')
