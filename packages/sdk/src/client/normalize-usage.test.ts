import { describe, expect, it } from 'vitest'
import { normalizeUsage, sumUsage } from './normalize-usage'
import type { AttemptDetail } from './invoke-result'

describe('normalizeUsage', () => {
  it("should read each provider's usage block into one shape", () => {
    // OpenAI, with its details.
    expect(normalizeUsage({ prompt_tokens: 100, completion_tokens: 20, total_tokens: 120, prompt_tokens_details: { cached_tokens: 64 }, completion_tokens_details: { reasoning_tokens: 12 } })).toStrictEqual({
      promptTokens: 100,
      completionTokens: 20,
      totalTokens: 120,
      cachedTokens: 64,
      reasoningTokens: 12,
    })
    // Anthropic-style (and the Responses API's): input/output, cache reads, no total.
    expect(normalizeUsage({ input_tokens: 50, output_tokens: 7, cache_read_input_tokens: 30 })).toStrictEqual({ promptTokens: 50, completionTokens: 7, cachedTokens: 30, totalTokens: 57 })
    expect(normalizeUsage({ input_tokens: 50, output_tokens: 7, input_tokens_details: { cached_tokens: 9 }, output_tokens_details: { reasoning_tokens: 3 } })).toStrictEqual({
      promptTokens: 50,
      completionTokens: 7,
      cachedTokens: 9,
      reasoningTokens: 3,
      totalTokens: 57,
    })
    // camelCase gateways, and DeepSeek's cache hits.
    expect(normalizeUsage({ promptTokens: 5, completionTokens: 6, totalTokens: 11 })).toStrictEqual({ promptTokens: 5, completionTokens: 6, totalTokens: 11 })
    expect(normalizeUsage({ prompt_tokens: 40, completion_tokens: 2, total_tokens: 42, prompt_cache_hit_tokens: 32, reasoning_tokens: 1 })).toStrictEqual({
      promptTokens: 40,
      completionTokens: 2,
      totalTokens: 42,
      cachedTokens: 32,
      reasoningTokens: 1,
    })
  })

  it('should take the first place a count is found, and only finite numbers', () => {
    expect(normalizeUsage({ prompt_tokens: 10, input_tokens: 99, completion_tokens: 1 }).promptTokens).toBe(10)
    // A count that is no number (a string, null, NaN, Infinity) is passed over for the next place.
    expect(normalizeUsage({ prompt_tokens: '10', input_tokens: 12, completion_tokens: null, output_tokens: Number.NaN, completionTokens: 3 })).toStrictEqual({ promptTokens: 12, completionTokens: 3, totalTokens: 15 })
    expect(normalizeUsage({ total_tokens: Number.POSITIVE_INFINITY, prompt_tokens_details: 'none', completion_tokens_details: [4] })).toStrictEqual({})
    // The details' counts are read only from an object.
    expect(normalizeUsage({ prompt_tokens_details: null, input_tokens_details: { cached_tokens: 2 } })).toStrictEqual({ cachedTokens: 2 })
  })

  it('should give an empty usage for a block that is not an object', () => {
    for (const usage of [undefined, null, 42, 'usage', [1, 2]]) expect(normalizeUsage(usage)).toStrictEqual({})
  })
})

describe('sumUsage', () => {
  const detail = (usage: AttemptDetail['usage']): AttemptDetail => ({ status: 200, usage, rawResponse: undefined, durationMs: 1 })

  it('should add up the counts of every attempt, leaving out the ones none reported', () => {
    expect(sumUsage([detail({ promptTokens: 10, completionTokens: 2, totalTokens: 12 }), detail({ promptTokens: 11, totalTokens: 11, cachedTokens: 4 })])).toStrictEqual({
      promptTokens: 21,
      completionTokens: 2,
      totalTokens: 23,
      cachedTokens: 4,
    })
    expect(sumUsage([])).toStrictEqual({})
  })

  it("should give one attempt's usage as a copy", () => {
    const usage = { promptTokens: 3, completionTokens: 1, totalTokens: 4 }
    const summed = sumUsage([detail(usage)])
    expect(summed).toStrictEqual(usage)
    expect(summed).not.toBe(usage)
  })
})
