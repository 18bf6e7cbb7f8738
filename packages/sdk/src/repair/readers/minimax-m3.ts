import { recognizeMinimaxM3Calls } from '../markup-marked-elements'
import type { Reader } from '../reader'
import { readAlone, type BuiltInReader } from '../reading-context'

const reader: BuiltInReader = {
  name: 'minimax-m3',
  formats: ['tool-markup:minimax-m3'],
  recognize: recognizeMinimaxM3Calls,
  read: (text, context) => readAlone(reader, text, context),
}

/**
 * MiniMax M3's markup: every tag prefixed by `]<]minimax[>[`, one `<invoke name="NAME">` per call and
 * one element per argument, named after it (`<query>text</query>`), nested objects as child elements,
 * list items as `<item>`. A value is the text between its tags, typed by the field's schema.
 *
 * @example
 * ```ts
 * const M = ']<]minimax[>['
 * minimaxM3Reader.read(`${M}<tool_call>\n${M}<invoke name="scroll">\n${M}<down>true${M}</down>\n${M}</invoke>\n${M}</tool_call>`, { names: undefined, claimed: () => false })
 * // [{ name: 'scroll', args: { down: 'true' }, format: 'tool-markup:minimax-m3', … }] (typed by the schema when the context has one)
 * ```
 */
export const minimaxM3Reader: Reader = reader
