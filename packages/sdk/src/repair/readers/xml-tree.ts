import { recognizeElementTrees } from '../markup-xml'
import type { Reader } from '../reader'
import { readAlone, type BuiltInReader } from '../reading-context'

const reader: BuiltInReader = {
  name: 'xml-tree',
  formats: ['tool-markup:xml-tree'],
  recognize: recognizeElementTrees,
  read: (text, context) => readAlone(reader, text, context),
}

/**
 * A wrapper or call element whose body is nothing but elements — `<tool_call><name>scroll</name>
 * <arguments><down>true</down></arguments></tool_call>` — read as the object its element tree spells,
 * for the repair's envelope rules to name. Leaves stay text for the schema-guided coercion.
 *
 * @example
 * ```ts
 * xmlTreeReader.read('<tool_call><name>done</name><arguments></arguments></tool_call>', { names: undefined, claimed: () => false })
 * ```
 */
export const xmlTreeReader: Reader = reader
