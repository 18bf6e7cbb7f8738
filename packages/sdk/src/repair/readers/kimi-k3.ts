import { recognizeKimiK3Calls } from '../markup-marked-elements'
import type { Reader } from '../reader'
import { readAlone, type BuiltInReader } from '../reading-context'

const reader: BuiltInReader = {
  name: 'kimi-k3',
  formats: ['tool-markup:kimi-k3'],
  recognize: recognizeKimiK3Calls,
  read: (text, context) => readAlone(reader, text, context),
}

/**
 * Kimi K3's token markup: `<|open|>call tool="NAME" index="1"<|sep|>`, one
 * `<|open|>argument key="KEY" type="TYPE"<|sep|>value<|close|>argument<|sep|>` per argument, then
 * `<|close|>call<|sep|>`. A value is the text between its tokens: the string itself for
 * `type="string"`, JSON for any other type.
 *
 * @example
 * ```ts
 * kimiK3Reader.read('<|open|>call tool="scroll" index="1"<|sep|><|open|>argument key="down" type="boolean"<|sep|>true<|close|>argument<|sep|><|close|>call<|sep|>', { names: undefined, claimed: () => false })
 * // [{ name: 'scroll', args: { down: true }, format: 'tool-markup:kimi-k3', … }]
 * ```
 */
export const kimiK3Reader: Reader = reader
