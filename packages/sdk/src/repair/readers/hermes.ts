import { recognizeWrappers } from '../markup-xml'
import type { Reader } from '../reader'
import { readAlone, type BuiltInReader } from '../reading-context'

const reader: BuiltInReader = {
  name: 'hermes',
  formats: ['tool-markup:hermes'],
  recognize: recognizeWrappers,
  read: (text, context) => readAlone(reader, text, context),
}

/**
 * Hermes / Qwen2.5 wrappers around JSON: `<tool_call>{"name": …, "arguments": {…}}</tool_call>`, also
 * `<tool_call>NAME\n{…}</tool_call>` and the other wrapper tags models use (`<function_call>`,
 * `<tools>` …). The JSON inside is read leniently and left for the repair to unwrap.
 *
 * @example
 * ```ts
 * hermesReader.read('<tool_call>{"name": "done", "arguments": {}}</tool_call>', { names: undefined, claimed: () => false })
 * // [{ args: { name: 'done', arguments: {} }, format: 'tool-markup:hermes', … }]
 * ```
 */
export const hermesReader: Reader = reader
