import type { AdapterContext, ChatMessage, ChatRequest } from '@wildcall/sdk'
import { testAdapter } from '@wildcall/sdk/testing/vitest'
import { describe, expect, it } from 'vitest'
import dsmlContent from './__fixtures__/deepseek-dsml-content.json'
import insufficientBalance from './__fixtures__/deepseek-insufficient-balance.json'
import insufficientSystemResource from './__fixtures__/deepseek-insufficient-system-resource.json'
import toolCall from './__fixtures__/deepseek-tool-call.json'
import { deepseekAdapter } from './deepseek-adapter'

const history: ChatMessage[] = [
  { role: 'user', content: 'Search for wildcall' },
  {
    role: 'assistant',
    content: '',
    reasoning_content: 'Element 4 is the search box.',
    tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'input_text', arguments: '{"index":4,"text":"wildcall"}' } }],
  },
  { role: 'tool', tool_call_id: 'call_1', content: 'typed' },
]

testAdapter(deepseekAdapter(), {
  matches: ['deepseek-ai/DeepSeek-V3.2', 'deepseek-chat', 'deepseek-reasoner', 'DeepSeek-R1-Distill-Qwen-32B', { model: 'deepseek/deepseek-chat-v3.1', baseURL: 'https://openrouter.ai/api/v1' }],
  rejects: ['qwen3-max', 'gpt-5.2', 'glm-4.6'],
  requests: [
    { name: 'DeepSeek-V3.2 on api.deepseek.com: thinking disabled, tool_choice removed', model: 'DeepSeek-V3.2', baseURL: 'https://api.deepseek.com/v1', toolChoiceName: 'done', after: { thinking: { type: 'disabled' }, parallel_tool_calls: false }, absent: ['tool_choice'] },
    { name: "tool_choice 'required' is removed too on DeepSeek's API", model: 'deepseek-chat', baseURL: 'https://api.deepseek.com', after: { thinking: { type: 'disabled' } }, absent: ['tool_choice'] },
    { name: 'deepseek-ai/DeepSeek-V3.2 on a local vLLM keeps its named tool_choice (a provider patch, not the model\'s)', model: 'deepseek-ai/DeepSeek-V3.2', baseURL: 'http://127.0.0.1:8000/v1', toolChoiceName: 'done', after: { thinking: { type: 'disabled' }, tool_choice: { type: 'function', function: { name: 'done' } } } },
    { name: 'history reasoning_content is dropped when thinking is off', model: 'deepseek-chat', before: { messages: history }, absent: ['messages.1.reasoning_content'] },
    { name: 'deepseek-reasoner always thinks: no thinking switch', model: 'deepseek-reasoner', baseURL: 'https://api.deepseek.com/v1', before: { messages: history }, absent: ['thinking', 'tool_choice'] },
  ],
  responses: [
    { name: 'a plain tool call', model: 'deepseek-chat', response: toolCall, expected: { name: 'input_text', args: { index: 4, text: 'wildcall' } } },
    { name: 'finish_reason insufficient_system_resource', model: 'deepseek-chat', response: insufficientSystemResource, expected: { error: 'server_error' } },
    { name: '402 Insufficient Balance', model: 'deepseek-chat', status: 402, response: insufficientBalance, expected: { error: 'quota_exceeded' } },
    { name: 'V3.2 DSML markup in content', model: 'deepseek-ai/DeepSeek-V3.2', response: dsmlContent, expected: { name: 'scroll', args: { down: true } } },
  ],
  finishes: [
    { reason: 'insufficient_system_resource', expected: 'server_error' },
    { reason: 'tool_calls', expected: undefined },
  ],
})

testAdapter(deepseekAdapter({ thinking: true }), {
  requests: [
    { name: 'thinking: true enables thinking and keeps history reasoning', model: 'deepseek-chat', baseURL: 'https://api.deepseek.com/v1', before: { messages: history }, after: { thinking: { type: 'enabled' } }, absent: ['tool_choice'] },
  ],
})

const context = (model: string): AdapterContext => ({ model, modelId: model, baseURL: 'https://api.deepseek.com/v1', host: 'api.deepseek.com', adapters: ['deepseek', 'openai'], tools: {}, stream: false })

describe('deepseekAdapter', () => {
  it('should drop only the reasoning_content of history when thinking is off', () => {
    const body: ChatRequest = { model: 'deepseek-chat', messages: structuredClone(history) }
    const patched = deepseekAdapter().patchRequest!(body, context('deepseek-chat')) ?? body
    const { reasoning_content: _reasoning, ...assistant } = history[1]!
    expect(patched.messages).toEqual([history[0], assistant, history[2]])
  })

  it.each([
    ['deepseek-reasoner (always thinks)', deepseekAdapter(), 'deepseek-reasoner'],
    ['thinking: true', deepseekAdapter({ thinking: true }), 'deepseek-chat'],
  ])('should send history reasoning_content back for %s', (_label, adapter, model) => {
    const body: ChatRequest = { model, messages: structuredClone(history) }
    const patched = adapter.patchRequest!(body, context(model)) ?? body
    expect(patched.messages).toEqual(history)
  })

  it("should never modify the caller's messages when it drops history reasoning", () => {
    const messages = structuredClone(history)
    const body: ChatRequest = { model: 'deepseek-chat', messages, tool_choice: 'required' }
    const patched = deepseekAdapter().patchRequest!(body, context('deepseek-chat')) ?? body
    expect(patched.messages[1]).not.toHaveProperty('reasoning_content')
    expect(messages).toEqual(history)
  })
})
