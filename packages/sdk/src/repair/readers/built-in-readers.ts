// The list of built-in readers: the one place that says which readers the default client runs, and in
// which order within each stage.
import type { Reader } from '../reader'
import { bareNameReader } from './bare-name'
import { gemmaReader } from './gemma'
import { glmReader } from './glm'
import { hermesReader } from './hermes'
import { jsonReader } from './json'
import { keyValueReader } from './key-value'
import { kimiK3Reader } from './kimi-k3'
import { minimaxM3Reader } from './minimax-m3'
import { namedElementReader } from './named-element'
import { pythonicReader } from './pythonic'
import { specialTokenReader } from './special-tokens'
import { xmlCallReader } from './xml-call'
import { xmlTreeReader } from './xml-tree'
import { yamlReader } from './yaml'

/**
 * Every built-in reader, in the order they run within each stage: what the default `@wildcall/sdk`
 * client reads (the autoFixer). Pass it to a `@wildcall/sdk/core` client to read the same.
 *
 * @example
 * ```ts
 * import { createClient } from '@wildcall/sdk/core'
 * import { builtInReaders } from '@wildcall/sdk'
 * const client = createClient({ baseURL, model, readers: builtInReaders })
 * ```
 */
export const builtInReaders: readonly Reader[] = [
  kimiK3Reader,
  minimaxM3Reader,
  xmlCallReader,
  namedElementReader,
  glmReader,
  hermesReader,
  xmlTreeReader,
  specialTokenReader,
  gemmaReader,
  jsonReader,
  pythonicReader,
  yamlReader,
  keyValueReader,
  bareNameReader,
]

/** The readers a `@wildcall/sdk/core` client has without being given more: JSON values only. */
export const jsonReaders: readonly Reader[] = [jsonReader]
