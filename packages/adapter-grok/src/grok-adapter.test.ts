import { testAdapter } from '@wildcall/sdk/testing/vitest'
import incorrectApiKey from './__fixtures__/grok-incorrect-api-key.json'
import noCredits from './__fixtures__/grok-no-credits.json'
import promptTooLong from './__fixtures__/grok-prompt-too-long.json'
import toolCall from './__fixtures__/grok-tool-call.json'
import { grokAdapter } from './grok-adapter'

testAdapter(grokAdapter(), {
  matches: ['grok-4.3', 'grok-code-fast-1', 'grok-3-mini', 'grok-4-fast-non-reasoning', { model: 'x-ai/grok-code-fast-1', baseURL: 'https://openrouter.ai/api/v1' }],
  rejects: ['gpt-4.1-mini', 'gemini-2.5-flash', 'kimi-k3'],
  requests: [
    { name: "grok-4.3: reasoning_effort 'none'", model: 'grok-4.3', after: { reasoning_effort: 'none', parallel_tool_calls: false } },
    { name: "grok-4.3-latest: 'none'", model: 'grok-4.3-latest', after: { reasoning_effort: 'none' } },
    { name: "grok-code-fast-1: 'low'", model: 'grok-code-fast-1', after: { reasoning_effort: 'low' } },
    { name: "grok-3-mini-fast: 'low'", model: 'grok-3-mini-fast', after: { reasoning_effort: 'low' } },
    { name: 'grok-4 has no switch: no reasoning_effort', model: 'grok-4', absent: ['reasoning_effort'] },
    { name: 'grok-4-fast-reasoning: no reasoning_effort', model: 'grok-4-fast-reasoning', absent: ['reasoning_effort'] },
    { name: 'grok-3: no reasoning_effort', model: 'grok-3', absent: ['reasoning_effort'] },
  ],
  responses: [
    { name: 'a parsed call with reasoning_content', model: 'grok-code-fast-1', response: toolCall, expected: { name: 'scroll', args: { down: true } }, notEchoed: ['reasoning_content'] },
    { name: 'maximum prompt length (error as a string)', model: 'grok-4', status: 400, response: promptTooLong, expected: { error: 'context_length' } },
    { name: '403 team without credits is quota_exceeded', model: 'grok-4', status: 403, response: noCredits, expected: { error: 'quota_exceeded' } },
    { name: '400 Incorrect API key is auth_error', model: 'grok-4', status: 400, response: incorrectApiKey, expected: { error: 'auth_error' } },
  ],
})
