import { recognizeNamedElements } from '../markup-xml'
import type { Reader } from '../reader'
import { readAlone, type BuiltInReader } from '../reading-context'

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
