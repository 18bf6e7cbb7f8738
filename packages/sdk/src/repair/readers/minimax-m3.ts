/**
 * MiniMax M3 (vLLM's `minimax_m3` parser): every tag is prefixed by `]<]minimax[>[` (an ordinary token,
 * so it survives special-token stripping): `]<]minimax[>[<invoke name="N">`, then one element per
 * argument, named after it (`<query>text</query>`), nested objects as child elements, list items as
 * `<item>`. Text rules: only a marker starts a tag, so a value is exactly the text between its tags —
 * `<`, `&`, quotes and newlines included, nothing decoded; whitespace between elements is layout. The
 * field's schema types the text (`42`, `true`, `null`), keeps a string field's children as its text
 * (`<note>a <b>b</b></note>` is the string `a <b>b</b>`, markers included), makes children an object or a list and an
 * empty element the empty list or object it admits; text with no schema stays text, children all
 * named `item` are a list, a repeated element collects into a list.
 *
 * A call the text ends inside is cut off, never a call.
 */
import { schemaAtPath, type JsonSchemaNode } from '../coerce'
import type { Reader } from '../reader'
import { admittedTypes, decodeValue } from '../reading/decode-value'
import { toObject } from '../reading/element-tree'
import { createMarkedPreview, recognizeMarkedCalls, type Markers, type Node, type OpenNode } from '../reading/marked-elements'
import { readAlone, type BuiltInReader, type ExtractionContext } from '../reading/reading-context'

const M3: Markers = [']<]minimax[>[<', '>', ']<]minimax[>[</']

/** MiniMax M3's value of an element, by its schema node. */
function m3Value({ raw, children }: Node, schema: JsonSchemaNode | undefined, fixes: string[]): unknown {
  const types = schema ? admittedTypes(schema) : new Set<string>()
  // A string field's value is its text with the elements inside it, exactly as written.
  if (children.length > 0 && types.has('string') && !types.has('object') && !types.has('array')) return raw
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

/** MiniMax M3's `]<]minimax[>[<invoke name="N">…]<]minimax[>[</invoke>` calls. */
export const recognizeMinimaxM3Calls = (context: ExtractionContext) =>
  recognizeMarkedCalls(context, M3, `${M3[0]}invoke `, 'name', (name, call, fixes) => m3Value(call, context.schemaOf?.(name) ?? { type: 'object' }, fixes), 'minimax-m3')

/** Elements while they stream, read as without a schema: a closed one whole, the open one's text or children so far (blank text shows nothing). */
function previewValue(node: OpenNode): unknown {
  if (!node.open) return m3Value(node, undefined, [])
  if (node.children.length === 0) return node.raw.trim() ? node.raw : undefined
  const entries = previewEntries(node.children)
  return node.children.every((child) => child.name === 'item') ? entries.map(([, value]) => value) : toObject(entries)
}
const previewEntries = (children: OpenNode[]) => children.flatMap((child): Array<[string, unknown]> => {
  const value = previewValue(child)
  return value === undefined ? [] : [[child.name, value]]
})

const reader: BuiltInReader = {
  name: 'minimax-m3',
  formats: ['tool-markup:minimax-m3'],
  recognize: recognizeMinimaxM3Calls,
  read: (text, context) => readAlone(reader, text, context),
  preview: createMarkedPreview(M3, `${M3[0]}invoke `, 'name', (children) => toObject(previewEntries(children))),
}

/**
 * MiniMax M3's markup: every tag prefixed by `]<]minimax[>[`, one `<invoke name="NAME">` per call and
 * one element per argument, named after it (`<query>text</query>`), nested objects as child elements,
 * list items as `<item>`. A value is the text between its tags, typed by the field's schema. Streams
 * a preview of the arguments as they arrive (values as text: the schema types them in the result).
 *
 * @example
 * ```ts
 * const M = ']<]minimax[>['
 * minimaxM3Reader.read(`${M}<tool_call>\n${M}<invoke name="scroll">\n${M}<down>true${M}</down>\n${M}</invoke>\n${M}</tool_call>`, { names: undefined, claimed: () => false })
 * // [{ name: 'scroll', args: { down: 'true' }, format: 'tool-markup:minimax-m3', … }] (typed by the schema when the context has one)
 * ```
 */
export const minimaxM3Reader: Reader = reader
