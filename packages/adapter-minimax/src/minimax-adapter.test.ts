import { createClient, defineTool, type ChatResponse, type InvokeError } from '@wildcall/sdk'
import { testAdapter } from '@wildcall/sdk/testing/vitest'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import insufficientBalance from './__fixtures__/minimax-insufficient-balance.json'
import markupInContent from './__fixtures__/minimax-markup-in-content.json'
import reasoningDetails from './__fixtures__/minimax-reasoning-details.json'
import thinkInContent from './__fixtures__/minimax-think-in-content.json'
import { minimaxAdapter } from './minimax-adapter'

testAdapter(minimaxAdapter(), {
  matches: ['MiniMax-M2', 'minimax-m3', 'MiniMaxAI/MiniMax-M2.1', { model: 'minimax/minimax-m2', baseURL: 'https://openrouter.ai/api/v1' }],
  rejects: ['kimi-k2-instruct', 'glm-4.6', 'qwen3-max'],
  requests: [
    { name: 'MiniMax-M2 on its API: parallel_tool_calls dropped, no thinking switch', model: 'MiniMax-M2', baseURL: 'https://api.minimax.io/v1', toolChoiceName: 'done', after: { tool_choice: { type: 'function', function: { name: 'done' } } }, absent: ['parallel_tool_calls', 'thinking'] },
    { name: 'minimax-m3: thinking disabled, parallel_tool_calls dropped on api.minimaxi.com', model: 'minimax-m3', baseURL: 'https://api.minimaxi.com/v1', after: { thinking: { type: 'disabled' } }, absent: ['parallel_tool_calls'] },
    { name: 'MiniMax-M3-Preview is an M3 model', model: 'MiniMax-M3-Preview', baseURL: 'https://api.minimax.io/v1', after: { thinking: { type: 'disabled' } }, absent: ['parallel_tool_calls'] },
    { name: 'MiniMax-M2 on a local vLLM keeps parallel_tool_calls (a provider patch, not the model\'s)', model: 'MiniMaxAI/MiniMax-M2', baseURL: 'http://127.0.0.1:8000/v1', after: { parallel_tool_calls: false } },
  ],
  responses: [
    { name: 'interleaved <think> in content beside a parsed call', model: 'MiniMax-M2', response: thinkInContent, expected: { name: 'done', args: { text: 'Form submitted.' } }, notEchoed: ['audio_content'] },
    { name: '<minimax:tool_call> markup left in content', model: 'MiniMaxAI/MiniMax-M2', response: markupInContent, expected: { name: 'scroll', args: { down: true, num_pages: 2 } } },
    { name: 'reasoning_split output with reasoning_details', model: 'MiniMax-M2', response: reasoningDetails, expected: { name: 'input_text', args: { index: 3, text: 'ada@example.com' } } },
    { name: 'base_resp 1008 behind an HTTP error status', model: 'MiniMax-M2', status: 400, response: insufficientBalance, expected: { error: 'quota_exceeded' } },
    { name: 'base_resp 1008 with HTTP 200 and choices: null', model: 'MiniMax-M2', response: { ...insufficientBalance, choices: null }, expected: { error: 'quota_exceeded' } },
  ],
})

testAdapter(minimaxAdapter({ thinking: true }), {
  requests: [{ name: 'thinking: true sends no thinking switch to M3', model: 'minimax-m3', baseURL: 'https://api.minimax.io/v1', absent: ['thinking', 'parallel_tool_calls'] }],
})

describe('minimaxAdapter', () => {
  const context = { model: 'MiniMax-M2', modelId: 'minimax-m2', baseURL: 'https://api.minimax.io/v1', host: 'api.minimax.io', adapters: ['minimax', 'openai'], tools: {}, stream: false }

  it('should copy reasoning_details into reasoning_content', () => {
    const fixed = minimaxAdapter().fixResponse!(structuredClone(reasoningDetails) as ChatResponse, context) as ChatResponse
    expect(fixed.choices[0]!.message.reasoning_content).toBe('Index 3 is the e-mail field.')
    expect(fixed.choices[0]!.message.tool_calls).toEqual(reasoningDetails.choices[0]!.message.tool_calls)
  })

  const failWith = (body: unknown, status = 200) =>
    createClient({ baseURL: 'https://api.minimax.io/v1', model: 'MiniMax-M2', adapters: [minimaxAdapter()], maxRetries: 0, customFetch: async () => new Response(JSON.stringify(body), { status }) })
      .invoke([{ role: 'user', content: 'go' }], { done: defineTool({ inputSchema: z.object({ text: z.string() }) }) })
      .then(() => expect.unreachable(), (error: unknown) => error as InvokeError)

  it.each([
    [1002, 'rate_limit'],
    [1004, 'auth_error'],
    [1008, 'quota_exceeded'],
    [1026, 'content_filter'],
    [1027, 'content_filter'],
    [1039, 'context_length'],
  ])('should classify base_resp status_code %i as %s, with HTTP 200 or an error status', async (code, type) => {
    const body = { id: 'x', choices: null, base_resp: { status_code: code, status_msg: 'x' } }
    expect((await failWith(body)).type).toBe(type)
    expect((await failWith(body, 400)).type).toBe(type)
  })

  it('should keep an error it does not know', async () => {
    const error = await failWith({ base_resp: { status_code: 2013, status_msg: 'invalid params' } }, 400)
    expect(error.type).toBe('bad_request')
    expect(error.message).not.toContain('[minimax]')
  })
})
