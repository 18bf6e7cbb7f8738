import { describe, expect, it } from 'vitest'
import { normalizeModelName } from './normalize-model-name'

describe('normalizeModelName', () => {
  it.each([
    ['openai/GPT-5.2-chat', 'gpt-52-chat'],
    ['deepseek-ai/DeepSeek-V3.2', 'deepseek-v32'],
    ['Qwen/Qwen3-Max', 'qwen3-max'],
    ['qwen3.6-plus', 'qwen36-plus'],
    ['gpt-5.2-2026-01-15', 'gpt-52-2026-01-15'],
    ['anthropic/claude-sonnet-4.5', 'claude-sonnet-45'],
    ['accounts/fireworks/models/qwen3_235b_a22b', 'qwen3235ba22b'],
    ['  GLM-4.6  ', 'glm-46'],
    ['moonshotai/Kimi-K2-Instruct', 'kimi-k2-instruct'],
    ['gpt-4.1', 'gpt-41'],
  ])('should normalise %j to %j', (input, expected) => {
    expect(normalizeModelName(input)).toBe(expected)
  })

  it('should be idempotent', () => {
    for (const name of ['openai/GPT-5.2-chat', 'Qwen/Qwen3-Max', 'hy-t1.5']) {
      expect(normalizeModelName(normalizeModelName(name))).toBe(normalizeModelName(name))
    }
  })
})
