/**
 * Kimi K3 (`Kimi-K3.jinja`): every tag is `<|open|>NAME attributes<|sep|>` … `<|close|>NAME<|sep|>`, no
 * whitespace anywhere: `<|open|>call tool="N" index="1"<|sep|>`, one
 * `<|open|>argument key="K" type="T"<|sep|>V<|close|>argument<|sep|>` per argument (or all of them as
 * one `<|open|>json type="object"<|sep|>{…}<|close|>json<|sep|>`), then `<|close|>call<|sep|>`. Text
 * rules: a value is exactly the text between its tags, nothing escaped, no layout; `type="string"`
 * makes it the string itself, any other type JSON (text that is not JSON is typed by the field's
 * schema). Attribute values decode `&amp;` and `&quot;`.
 *
 * A call the text ends inside is cut off, never a call.
 */
import { isRecord } from '../../util/is-record'
import { setOwn } from '../../util/set-own'
import { parseLenientJson } from '../lenient-json'
import type { Reader } from '../reader'
import { decodeArgument } from '../reading/decode-value'
import { decodeXmlReferences } from '../reading/decode-xml-references'
import { createMarkedPreview, recognizeMarkedCalls, type Markers, type OpenNode } from '../reading/marked-elements'
import { parsePartialJson } from '../parse-partial-json'
import { readAlone, type BuiltInReader, type ExtractionContext } from '../reading/reading-context'

const K3: Markers = ['<|open|>', '<|sep|>', '<|close|>']

/**
 * Kimi K3's arguments: typed by each argument's `type`, or one JSON value. While the call streams
 * (`open`: its preview) an open string shows its text so far, an open list or object what parses.
 */
function k3Arguments(context: Pick<ExtractionContext, 'schemaOf'>, name: string, children: OpenNode[], fixes: string[]): unknown {
  const args: Record<string, unknown> = {}
  for (const { name: kind, attributes, raw, open } of children) {
    if (kind === 'json') return (open ? parsePartialJson : parseLenientJson)(raw)?.value
    const key = decodeXmlReferences(attributes.key ?? '')
    let value: unknown = raw
    if (open) {
      if (attributes.type !== 'string') value = /^\s*[[{]/.test(raw) ? parsePartialJson(raw)?.value : undefined
      if (!raw) value = undefined
    } else if (attributes.type !== 'string') {
      try {
        value = JSON.parse(raw)
      } catch {
        value = decodeArgument(context, name, key, raw, fixes)
      }
    }
    if (!open || value !== undefined) setOwn(args, key, value)
  }
  return args
}

/** Kimi K3's `<|open|>call tool="N" …<|sep|>…<|close|>call<|sep|>` calls. */
export const recognizeKimiK3Calls = (context: ExtractionContext) => recognizeMarkedCalls(context, K3, `${K3[0]}call `, 'tool', (name, call, fixes) => k3Arguments(context, name, call.children, fixes), 'kimi-k3')

const reader: BuiltInReader = {
  name: 'kimi-k3',
  formats: ['tool-markup:kimi-k3'],
  recognize: recognizeKimiK3Calls,
  read: (text, context) => readAlone(reader, text, context),
  preview: createMarkedPreview(K3, `${K3[0]}call `, 'tool', (children) => {
    const args = k3Arguments({}, '', children, [])
    return isRecord(args) ? args : {}
  }),
}

/**
 * Kimi K3's token markup: `<|open|>call tool="NAME" index="1"<|sep|>`, one
 * `<|open|>argument key="KEY" type="TYPE"<|sep|>value<|close|>argument<|sep|>` per argument, then
 * `<|close|>call<|sep|>`. A value is the text between its tokens: the string itself for
 * `type="string"`, JSON for any other type. Streams a preview of the arguments as they arrive.
 *
 * @example
 * ```ts
 * kimiK3Reader.read('<|open|>call tool="scroll" index="1"<|sep|><|open|>argument key="down" type="boolean"<|sep|>true<|close|>argument<|sep|><|close|>call<|sep|>', { names: undefined, claimed: () => false })
 * // [{ name: 'scroll', args: { down: true }, format: 'tool-markup:kimi-k3', … }]
 * ```
 */
export const kimiK3Reader: Reader = reader
