// Token usage: each provider's usage block in one shape, and the sum over the attempts of a step.

import { isPlainObject } from '../repair/coerce'
import type { Usage } from '../types'
import type { AttemptDetail } from './invoke-result'

/** A count: a finite number, else `undefined`. */
const count = (value: unknown): number | undefined => (Number.isFinite(value) ? (value as number) : undefined)

/**
 * Normalises the usage block of any provider; a count it does not report stays `undefined`. Where
 * providers put each count, first match wins: OpenAI, Anthropic-style, camelCase, DeepSeek's cache
 * hits … (named reads, not a table of paths: this runs on every response).
 */
export function normalizeUsage(usage: unknown): Usage {
  const result: Usage = {}
  if (!isPlainObject(usage)) return result
  const u = usage as Record<string, Record<string, unknown> | undefined>
  const prompt = count(u.prompt_tokens) ?? count(u.input_tokens) ?? count(u.promptTokens)
  const completion = count(u.completion_tokens) ?? count(u.output_tokens) ?? count(u.completionTokens)
  const total = count(u.total_tokens) ?? count(u.totalTokens)
  const cached = count(u.prompt_tokens_details?.cached_tokens) ?? count(u.prompt_cache_hit_tokens) ?? count(u.input_tokens_details?.cached_tokens) ?? count(u.cache_read_input_tokens)
  const reasoning = count(u.completion_tokens_details?.reasoning_tokens) ?? count(u.output_tokens_details?.reasoning_tokens) ?? count(u.reasoning_tokens)
  if (prompt !== undefined) result.promptTokens = prompt
  if (completion !== undefined) result.completionTokens = completion
  if (total !== undefined) result.totalTokens = total
  if (cached !== undefined) result.cachedTokens = cached
  if (reasoning !== undefined) result.reasoningTokens = reasoning
  if (total === undefined && prompt !== undefined && completion !== undefined) result.totalTokens = prompt + completion
  return result
}

const USAGE_KEYS = ['promptTokens', 'completionTokens', 'totalTokens', 'cachedTokens', 'reasoningTokens'] as const

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
