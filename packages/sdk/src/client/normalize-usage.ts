// Token usage: each provider's usage block in one shape, and the sum over the attempts of a step.

import { isPlainObject } from '../repair/coerce'
import type { Usage } from '../types'
import type { AttemptDetail } from './invoke-result'

// Where providers put each count, first match wins (OpenAI, Anthropic-style, camelCase, DeepSeek's cache hits …).
// Each path split once here (`outer.inner`), not on every response.
const USAGE_PATHS = ([
  ['promptTokens', 'prompt_tokens input_tokens promptTokens'],
  ['completionTokens', 'completion_tokens output_tokens completionTokens'],
  ['totalTokens', 'total_tokens totalTokens'],
  ['cachedTokens', 'prompt_tokens_details.cached_tokens prompt_cache_hit_tokens input_tokens_details.cached_tokens cache_read_input_tokens'],
  ['reasoningTokens', 'completion_tokens_details.reasoning_tokens output_tokens_details.reasoning_tokens reasoning_tokens'],
] as const).map(([key, paths]) => [key, paths.split(' ').map((path) => path.split('.') as [string, string?])] as const)

/** Normalises the usage block of any provider; a count it does not report stays `undefined`. */
export function normalizeUsage(usage: unknown): Usage {
  const result: Usage = {}
  if (!isPlainObject(usage)) return result
  for (const [key, paths] of USAGE_PATHS) {
    for (const [head, tail] of paths) {
      const outer = usage[head]
      const value = tail === undefined ? outer : isPlainObject(outer) ? outer[tail] : undefined
      if (typeof value === 'number' && Number.isFinite(value)) {
        result[key] = value
        break
      }
    }
  }
  if (result.totalTokens === undefined && result.promptTokens !== undefined && result.completionTokens !== undefined) result.totalTokens = result.promptTokens + result.completionTokens
  return result
}

const USAGE_KEYS = USAGE_PATHS.map(([key]) => key)

/** The usage of several attempts added up; a count no attempt reported stays `undefined`. */
export function sumUsage(details: readonly AttemptDetail[]): Usage {
  const total: Usage = {}
  for (const detail of details) {
    for (const key of USAGE_KEYS) {
      const value = detail.usage[key]
      if (value !== undefined) total[key] = (total[key] ?? 0) + value
    }
  }
  return total
}
