import { recognizeYamlCalls } from '../markup-yaml'
import type { Reader } from '../reader'
import { readAlone, type BuiltInReader } from '../reading-context'

const reader: BuiltInReader = {
  name: 'yaml',
  formats: ['tool-markup:yaml'],
  stage: 'fallback',
  recognize: recognizeYamlCalls,
  read: (text, context) => readAlone(reader, text, context),
}

/**
 * YAML blocks that name a known tool or action (a key that is one, an `action` key whose value is
 * one, or a `{name, arguments}` envelope). Only when no other reader found anything.
 *
 * @example
 * ```ts
 * yamlReader.read('action:\n  scroll:\n    down: true', { names: new Set(['scroll']), claimed: () => false })
 * ```
 */
export const yamlReader: Reader = reader
