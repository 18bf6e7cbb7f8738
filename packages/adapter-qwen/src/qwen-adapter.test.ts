import { testAdapter } from '@wildcall/sdk/testing/vitest'
import arrearage from './__fixtures__/qwen-arrearage.json'
import bareThinkClose from './__fixtures__/qwen-bare-think-close.json'
import contextLength from './__fixtures__/qwen-context-length.json'
import dataInspectionFailed from './__fixtures__/qwen-data-inspection-failed.json'
import thinkLeak from './__fixtures__/qwen-think-leak.json'
import { qwenAdapter } from './qwen-adapter'

testAdapter(qwenAdapter(), {
  matches: ['Qwen/Qwen3-Max', 'qwen3.6-plus', 'qwen-plus-latest', 'qwen3-32b', 'Qwen3-Coder-480B-A35B-Instruct', { model: 'qwen/qwen3-235b-a22b-2507', baseURL: 'https://openrouter.ai/api/v1' }],
  rejects: ['gpt-4.1-mini', 'deepseek-chat', 'glm-4.6', 'kimi-k2-instruct'],
  requests: [
    { name: 'Qwen/Qwen3-Max: thinking off, temperature left to DashScope', model: 'Qwen/Qwen3-Max', after: { enable_thinking: false }, absent: ['temperature'] },
    { name: 'qwen3.6-plus: thinking off, no temperature', model: 'qwen3.6-plus', after: { enable_thinking: false }, absent: ['temperature'] },
    { name: 'qwen-plus-latest: thinking off, no temperature', model: 'qwen-plus-latest', after: { enable_thinking: false }, absent: ['temperature'] },
    { name: 'qwen3-coder-plus counts as a plus model', model: 'qwen3-coder-plus', after: { enable_thinking: false }, absent: ['temperature'] },
    { name: 'qwen3-32b: thinking off and temperature 1.0', model: 'qwen3-32b', after: { enable_thinking: false, temperature: 1 } },
    { name: 'qwen-turbo gets temperature 1.0', model: 'qwen-turbo', after: { temperature: 1 } },
    { name: "the user's temperature wins", model: 'qwen3-32b', temperature: 0.2, after: { enable_thinking: false, temperature: 0.2 } },
    { name: 'a thinking-only release keeps its thinking', model: 'qwen3-235b-a22b-thinking-2507', after: { temperature: 1 }, absent: ['enable_thinking'] },
    { name: 'messages and tool_choice pass untouched', model: 'qwen3-max', toolChoiceName: 'done', after: { tool_choice: { type: 'function', function: { name: 'done' } }, parallel_tool_calls: false } },
  ],
  responses: [
    { name: 'a leaked <think> block beside tool_calls (the SDK splits it off)', model: 'qwen3-32b', response: thinkLeak, expected: { name: 'scroll', args: { down: true, num_pages: 1 } } },
    { name: 'a bare </think> before a Hermes call in content', model: 'qwen3-30b-a3b', response: bareThinkClose, expected: { name: 'input_text', args: { index: 4, text: 'hello' } } },
    { name: 'DashScope "Range of input length"', model: 'qwen3-max', status: 400, response: contextLength, expected: { error: 'context_length' } },
    { name: 'DashScope data_inspection_failed', model: 'qwen3-max', status: 400, response: dataInspectionFailed, expected: { error: 'content_filter' } },
    { name: 'DashScope Arrearage', model: 'qwen3-max', status: 400, response: arrearage, expected: { error: 'quota_exceeded' } },
  ],
})

testAdapter(qwenAdapter({ thinking: true }), {
  requests: [{ name: 'thinking: true leaves enable_thinking alone', model: 'qwen3-max', absent: ['enable_thinking'] }],
})
