import type { AdapterContext, ChatResponse } from '@wildcall/sdk'
import { testAdapter } from '@wildcall/sdk/testing/vitest'
import { describe, expect, it } from 'vitest'
import highRisk from './__fixtures__/kimi-high-risk.json'
import markupInContent from './__fixtures__/kimi-markup-in-content.json'
import sectionInReasoning from './__fixtures__/kimi-section-in-reasoning.json'
import suspended from './__fixtures__/kimi-suspended.json'
import tokenLimit from './__fixtures__/kimi-token-limit.json'
import toolCall from './__fixtures__/kimi-tool-call.json'
import { kimiAdapter } from './kimi-adapter'

testAdapter(kimiAdapter(), {
  // Kimi K3 refuses parallel_tool_calls and a named tool_choice wherever it runs.
  modelQuirks: ['parallel_tool_calls', 'tool_choice'],
  matches: ['moonshotai/Kimi-K2-Instruct', 'kimi-k3', 'kimi-k2.5', 'kimi-for-coding', { model: 'moonshotai/kimi-k2-thinking', baseURL: 'https://openrouter.ai/api/v1' }],
  rejects: ['moonshot-v1-8k', 'qwen3-max', 'glm-4.6'],
  requests: [
    { name: "kimi-k3: a named tool_choice becomes 'required', parallel_tool_calls dropped", model: 'kimi-k3', toolChoiceName: 'done', after: { tool_choice: 'required' }, absent: ['parallel_tool_calls', 'thinking'] },
    { name: "kimi-k3-preview: 'required' stays", model: 'kimi-k3-preview', after: { tool_choice: 'required' }, absent: ['parallel_tool_calls'] },
    { name: 'moonshotai/Kimi-K2-Instruct: thinking disabled', model: 'moonshotai/Kimi-K2-Instruct', toolChoiceName: 'done', after: { thinking: { type: 'disabled' }, tool_choice: { type: 'function', function: { name: 'done' } }, parallel_tool_calls: false } },
    { name: 'kimi-k2.5: thinking disabled', model: 'kimi-k2.5', after: { thinking: { type: 'disabled' } } },
    { name: 'a coding model gets no thinking switch', model: 'kimi-for-coding', absent: ['thinking'], after: { parallel_tool_calls: false } },
  ],
  responses: [
    { name: 'a parsed call with a Kimi-style id', model: 'kimi-k2-0905-preview', response: toolCall, expected: { name: 'input_text', args: { index: 2, text: 'Moonshot' } } },
    { name: 'the call section swallowed into reasoning_content', model: 'moonshotai/Kimi-K2-Thinking', response: sectionInReasoning, expected: { name: 'done', args: { text: 'Saved the draft.' } } },
    { name: 'native markup with spaces left in content', model: 'moonshotai/Kimi-K2-Instruct', response: markupInContent, expected: { name: 'scroll', args: { down: false, num_pages: 1 } } },
    { name: 'exceeded model token limit', model: 'kimi-k2-0905-preview', status: 400, response: tokenLimit, expected: { error: 'context_length' } },
    { name: 'a suspended account is quota_exceeded, not rate_limit', model: 'kimi-k2-0905-preview', status: 429, response: suspended, expected: { error: 'quota_exceeded' } },
    { name: 'a high-risk rejection', model: 'kimi-k2-0905-preview', status: 400, response: highRisk, expected: { error: 'content_filter' } },
  ],
})

testAdapter(kimiAdapter({ thinking: true }), {
  requests: [{ name: 'thinking: true sends no thinking switch', model: 'kimi-k2.5', absent: ['thinking'] }],
})

describe('kimiAdapter', () => {
  const context: AdapterContext = { model: 'kimi-k2-thinking', modelId: 'kimi-k2-thinking', baseURL: 'https://api.moonshot.ai/v1', host: 'api.moonshot.ai', adapters: ['kimi', 'openai'], tools: {}, stream: false }

  it('should move the tool-call section out of the reasoning and keep the rest of the reasoning', () => {
    const fixed = kimiAdapter().fixResponse!(structuredClone(sectionInReasoning) as ChatResponse, context) as ChatResponse
    expect(fixed.choices[0]!.message.reasoning_content).toBe('The task is complete; I will report it.')
    expect(fixed.choices[0]!.message.content).toBe('<|tool_calls_section_begin|><|tool_call_begin|>functions.done:0<|tool_call_argument_begin|>{"text": "Saved the draft."}<|tool_call_end|><|tool_calls_section_end|>')
    expect(kimiAdapter().fixResponse!(fixed, context) ?? fixed).toEqual(fixed)
  })

  it('should leave the reasoning alone when the server already parsed a call', () => {
    const response = structuredClone(sectionInReasoning) as ChatResponse
    response.choices[0]!.message.tool_calls = toolCall.choices[0]!.message.tool_calls
    expect(kimiAdapter().fixResponse!(response, context) ?? response).toBe(response)
  })
})
