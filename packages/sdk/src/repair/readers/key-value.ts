import { recognizeKeyValueCalls } from '../markup-key-value'
import type { Reader } from '../reader'
import { readAlone, type BuiltInReader } from '../reading-context'

const reader: BuiltInReader = {
  name: 'key-value',
  formats: ['tool-markup:key-value', 'tool-markup:toml'],
  stage: 'fallback',
  recognize: recognizeKeyValueCalls,
  read: (text, context) => readAlone(reader, text, context),
}

/**
 * A known name followed by `key = value` pairs: a TOML-ish table (`[scroll]` then `down = true` lines)
 * or one command-like line (`scroll down=true`). Taken only when every key is a field of that tool
 * (it needs `fieldsOf`) and nothing else was found.
 *
 * @example
 * ```ts
 * keyValueReader.read('scroll down=true', { names: new Set(['scroll']), fieldsOf: () => new Set(['down']), claimed: () => false })
 * ```
 */
export const keyValueReader: Reader = reader
