import { recognizeTokenCalls } from '../markup-tokens'
import type { Reader } from '../reader'
import { readAlone, type BuiltInReader } from '../reading-context'

const reader: BuiltInReader = {
  name: 'special-tokens',
  formats: ['tool-markup:mistral', 'tool-markup:deepseek', 'tool-markup:kimi', 'tool-markup:harmony', 'tool-markup:python-tag', 'tool-markup:special-token'],
  recognize: recognizeTokenCalls,
  read: (text, context) => readAlone(reader, text, context),
}

/**
 * Calls delimited by special tokens: Mistral `[TOOL_CALLS]name[ARGS]{…}`, DeepSeek
 * `<｜tool▁call▁begin｜>function<｜tool▁sep｜>name` + JSON, Kimi `functions.name:0<|tool_call_argument_begin|>{…}`,
 * Harmony `to=functions.name <|constrain|>json<|message|>{…}`, Llama `<|python_tag|>{…}`, and
 * families not listed that put a name and JSON between tokens.
 *
 * @example
 * ```ts
 * specialTokenReader.read('[TOOL_CALLS]scroll[ARGS]{"down": true}', { names: new Set(['scroll']), claimed: () => false })
 * ```
 */
export const specialTokenReader: Reader = reader
