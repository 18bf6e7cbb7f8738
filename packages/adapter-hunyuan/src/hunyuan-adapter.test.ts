import type { ChatResponse } from '@wildcall/sdk'
import { testAdapter } from '@wildcall/sdk/testing/vitest'
import { describe, expect, it } from 'vitest'
import answerWrapper from './__fixtures__/hunyuan-answer-wrapper.json'
import sensitive from './__fixtures__/hunyuan-sensitive.json'
import toolCall from './__fixtures__/hunyuan-tool-call.json'
import { hunyuanAdapter } from './hunyuan-adapter'

testAdapter(hunyuanAdapter(), {
  matches: ['hy-t1', 'HY-T1-Latest', 'hy3-preview', 'hunyuan-turbos-latest', 'tencent/Hunyuan-A13B-Instruct', { model: 'tencent/hunyuan-a13b-instruct', baseURL: 'https://openrouter.ai/api/v1' }],
  rejects: ['hyperclova-x', 'hymba-1.5b', 'qwen3-max'],
  requests: [
    { name: 'hy-t1: thinking disabled and reasoning_effort low', model: 'hy-t1', toolChoiceName: 'done', after: { thinking: { type: 'disabled' }, reasoning_effort: 'low', tool_choice: { type: 'function', function: { name: 'done' } } } },
    { name: 'hy3-preview: the same', model: 'hy3-preview', after: { thinking: { type: 'disabled' }, reasoning_effort: 'low' } },
    { name: 'hunyuan-turbos-latest: no thinking patch', model: 'hunyuan-turbos-latest', absent: ['thinking', 'reasoning_effort'], after: { parallel_tool_calls: false } },
    { name: 'hunyuan-t1-latest (always thinks): no thinking patch', model: 'hunyuan-t1-latest', absent: ['thinking', 'reasoning_effort'] },
  ],
  responses: [
    { name: 'a parsed call', model: 'hy-t1', response: toolCall, expected: { name: 'input_text', args: { index: 5, text: '深圳' } } },
    { name: '<think> then an <answer>-wrapped call in content', model: 'tencent/Hunyuan-A13B-Instruct', response: answerWrapper, expected: { name: 'done', args: { text: 'Report sent.' } } },
    { name: 'finish_reason sensitive', model: 'hunyuan-turbos-latest', response: sensitive, expected: { error: 'content_filter' } },
  ],
  finishes: [
    { reason: 'sensitive', expected: 'filtered' },
    { reason: 'stop', expected: undefined },
  ],
})

testAdapter(hunyuanAdapter({ thinking: true }), {
  requests: [{ name: 'thinking: true sends neither switch', model: 'hy-t1', absent: ['thinking', 'reasoning_effort'] }],
})

describe('hunyuanAdapter', () => {
  it('should remove the <answer> wrapper and keep the <think> block for the SDK', () => {
    const context = { model: 'hunyuan-a13b', modelId: 'hunyuan-a13b', baseURL: 'https://api.hunyuan.cloud.tencent.com/v1', host: 'api.hunyuan.cloud.tencent.com', adapters: ['hunyuan', 'openai'], tools: {}, stream: false }
    const fixed = hunyuanAdapter().fixResponse!(structuredClone(answerWrapper) as ChatResponse, context) as ChatResponse
    expect(fixed.choices[0]!.message.content).toBe('<think>\nThe report is written; finish now.\n</think>\n\n{"name": "done", "arguments": {"text": "Report sent."}}')
    expect(hunyuanAdapter().fixResponse!(fixed, context) ?? fixed).toBe(fixed)
  })
})
