// The list of built-in readers: the one place that says which readers the default client runs, and in
// which order within each stage.
// Imports in the order that bundles smallest: module order moves the gzip size (node scripts/check-size.mjs).
import { gemmaReader } from './gemma'
import { glmReader } from './glm'
import { hermesReader } from './hermes'
import { kimiK3Reader } from './kimi-k3'
import { jsonReader } from './json'
import { keyValueReader } from './key-value'
import { namedElementReader } from './named-element'
import { bareNameReader } from './bare-name'
import { minimaxM3Reader } from './minimax-m3'
import { specialTokenReader } from './special-tokens'
import { pythonicReader } from './pythonic'
import { xmlTreeReader } from './xml-tree'
import { xmlCallReader } from './xml-call'
import { yamlReader } from './yaml'
import type { Reader } from '../reader'

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
