import { testAdapter } from '@wildcall/sdk/testing/vitest'
import insufficientBalance from './__fixtures__/glm-insufficient-balance.json'
import markupInContent from './__fixtures__/glm-markup-in-content.json'
import networkError from './__fixtures__/glm-network-error.json'
import promptTooLong from './__fixtures__/glm-prompt-too-long.json'
import sensitive from './__fixtures__/glm-sensitive.json'
import toolCall from './__fixtures__/glm-tool-call.json'
import unsafeContent from './__fixtures__/glm-unsafe-content.json'
import { glmAdapter } from './glm-adapter'

testAdapter(glmAdapter(), {
  matches: ['glm-4.6', 'zai-org/GLM-4.5-Air', 'glm-4.5v', { model: 'z-ai/glm-4.6', baseURL: 'https://openrouter.ai/api/v1' }],
  rejects: ['kimi-k2-instruct', 'qwen3-max', 'gemini-2.5-flash'],
  requests: [
    { name: 'glm-4.6: thinking disabled, tool_choice kept', model: 'glm-4.6', toolChoiceName: 'done', after: { thinking: { type: 'disabled' }, tool_choice: { type: 'function', function: { name: 'done' } }, parallel_tool_calls: false } },
    { name: 'zai-org/GLM-4.5-Air: thinking disabled', model: 'zai-org/GLM-4.5-Air', after: { thinking: { type: 'disabled' } } },
  ],
  responses: [
    { name: 'a parsed call', model: 'glm-4.6', response: toolCall, expected: { name: 'done', args: { text: 'The invoice is paid.' } } },
    { name: 'GLM arg_key/arg_value markup left in content', model: 'zai-org/GLM-4.5-Air', response: markupInContent, expected: { name: 'input_text', args: { index: 4, text: 'hello' } } },
    { name: 'finish_reason sensitive', model: 'glm-4.6', response: sensitive, expected: { error: 'content_filter' } },
    { name: 'finish_reason network_error is a retryable server_error', model: 'glm-4.6', response: networkError, expected: { error: 'server_error' } },
    { name: '1113 insufficient balance (HTTP 429) is quota_exceeded', model: 'glm-4.6', status: 429, response: insufficientBalance, expected: { error: 'quota_exceeded' } },
    { name: '1261 prompt exceeds max length', model: 'glm-4.6', status: 400, response: promptTooLong, expected: { error: 'context_length' } },
    { name: '1301 unsafe content', model: 'glm-4.6', status: 400, response: unsafeContent, expected: { error: 'content_filter' } },
  ],
  finishes: [
    { reason: 'sensitive', expected: 'filtered' },
    { reason: 'network_error', expected: 'server_error' },
    { reason: 'model_context_window_exceeded', expected: 'truncated' },
    { reason: 'tool_calls', expected: undefined },
  ],
})

testAdapter(glmAdapter({ thinking: true }), {
  requests: [{ name: 'thinking: true sends no thinking switch', model: 'glm-4.6', absent: ['thinking'] }],
})
