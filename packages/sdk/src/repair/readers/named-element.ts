/**
 * A known tool name used as the element name (models prompted in XML): `<scroll>{"down": true}</scroll>`,
 * `<click_element_by_index><index>3</index></click_element_by_index>`, or the input as attributes
 * `<click_element_by_index index="4"/>`. Only names of the step's tools and actions.
 *
 * Text rules: a JSON body is read leniently; a child element's value follows the Qwen3 rule
 * (`ON_OWN_LINE` of `../reading/xml-value-text`: one line break after the opening tag and before the
 * closing tag are layout), references decoded, CDATA kept as written; only whitespace may separate the
 * children. An attribute value is its text with references decoded. Each text is typed by the field's
 * schema ({@link decodeArgument}).
 */
import { isSpaceCode, skipSpaces } from '../../text/char-codes'
import { setOwn } from '../../util/set-own'
import type { Reader } from '../reader'
import { decodeArgument } from '../reading/decode-value'
import { decodeXmlReferences } from '../reading/decode-xml-references'
import { readJsonBody } from '../reading/json-body'
import { MAX_CALLS } from '../reading/limits'
import { addFound, readAlone, type BuiltInReader, type ExtractionContext } from '../reading/reading-context'
import { ATTRIBUTE } from '../reading/xml-tags'
import { ON_OWN_LINE, valueText } from '../reading/xml-value-text'

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

const reader: BuiltInReader = {
  name: 'named-element',
  formats: ['tool-markup:xml'],
  recognize: recognizeNamedElements,
  read: (text, context) => readAlone(reader, text, context),
}

/**
 * A known tool name used as the element name: `<scroll>{"down": true}</scroll>` or
 * `<click_element_by_index><index>3</index></click_element_by_index>` (models prompted in XML).
 * Only names of the step's tools and actions.
 *
 * @example
 * ```ts
 * namedElementReader.read('<done></done>', { names: new Set(['done']), claimed: () => false }) // [{ name: 'done', args: {}, … }]
 * ```
 */
export const namedElementReader: Reader = reader
