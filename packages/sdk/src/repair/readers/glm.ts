import { createMarkupPreview } from '../../client/create-markup-preview'
import { recognizeArgumentPairs } from '../markup-xml'
import type { Reader } from '../reader'
import { readAlone, type BuiltInReader } from '../reading-context'

const reader: BuiltInReader = {
  name: 'glm',
  formats: ['tool-markup:glm'],
  recognize: recognizeArgumentPairs,
  preview: createMarkupPreview,
  read: (text, context) => readAlone(reader, text, context),
}

/**
 * GLM-4.5+ argument pairs: `NAME<arg_key>KEY</arg_key><arg_value>value</arg_value>…`, usually inside
 * `<tool_call>`. Values keep their text; objects and arrays are parsed. Streams a preview.
 *
 * @example
 * ```ts
 * glmReader.read('<tool_call>scroll\n<arg_key>down</arg_key>\n<arg_value>true</arg_value>\n</tool_call>', { names: undefined, claimed: () => false })
 * ```
 */
export const glmReader: Reader = reader
