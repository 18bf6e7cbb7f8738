import { recognizeGemmaCalls } from '../markup-gemma'
import type { Reader } from '../reader'
import { readAlone, type BuiltInReader } from '../reading-context'

const reader: BuiltInReader = {
  name: 'gemma',
  formats: ['tool-markup:gemma'],
  recognize: recognizeGemmaCalls,
  read: (text, context) => readAlone(reader, text, context),
}

/**
 * FunctionGemma's call syntax: `<start_function_call>call:NAME{key:<|"|>text<|"|>,n:3}<end_function_call>` —
 * bare keys, strings between `<|"|>` tokens, other values bare literals.
 *
 * @example
 * ```ts
 * gemmaReader.read('<start_function_call>call:scroll{down:true}<end_function_call>', { names: undefined, claimed: () => false })
 * ```
 */
export const gemmaReader: Reader = reader
