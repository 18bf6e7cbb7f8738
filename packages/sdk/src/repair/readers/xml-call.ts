import { createMarkupPreview } from '../../client/create-markup-preview'
import { recognizeXmlCalls } from '../markup-xml'
import type { Reader } from '../reader'
import { readAlone, type BuiltInReader } from '../reading-context'

const reader: BuiltInReader = {
  name: 'xml-call',
  formats: ['tool-markup:qwen-xml', 'tool-markup:minimax', 'tool-markup:dsml', 'tool-markup:function-tag', 'tool-markup:xml'],
  recognize: recognizeXmlCalls,
  preview: createMarkupPreview,
  read: (text, context) => readAlone(reader, text, context),
}

/**
 * Calls written as a call element with parameter elements, or a JSON body:
 * - Qwen3-Coder and Seed-OSS `<function=NAME><parameter=KEY>value</parameter></function>` (`qwen-xml`),
 * - MiniMax and Claude-style `<invoke name="NAME"><parameter name="KEY">value</parameter></invoke>` (`minimax`),
 * - DeepSeek V3.2 DSML `<｜DSML｜invoke name="NAME">` with `string="true|false"` parameters (`dsml`),
 * - `<function=NAME>{json}</function>` (`function-tag`), inside `<tool_call>` or `<function_calls>` or not.
 * Layout, per format (see `markup-xml`): Qwen3-Coder / Nemotron 3 put a value on its own line, so the
 * newline after the opening tag and the one before the closing tag are dropped (a pretty-printed call's
 * closing-tag indentation too, and for a one-line value the same indentation before it); Seed-OSS,
 * MiniMax-M2, DSML, GCML and Glimmer values are exactly the text between the tags. Everything else a
 * value holds is its own; a `<![CDATA[…]]>` section is its text as written. The schema types the text
 * (an object or array field gets JSON parsed). Streams a preview of the parameters as they arrive.
 *
 * @example
 * ```ts
 * xmlCallReader.read('<function=scroll>\n<parameter=down>\ntrue\n</parameter>\n</function>', { names: new Set(['scroll']), claimed: () => false })
 * // [{ name: 'scroll', args: { down: 'true' }, format: 'tool-markup:qwen-xml', … }]
 * ```
 */
export const xmlCallReader: Reader = reader
