import { createAdapterRegistry, createClient, defineTool, normalizeModelName, type AdapterContext, type ChatRequest, type ChatResponse } from '@wildcall/sdk'
import { testAdapter } from '@wildcall/sdk/testing/vitest'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import contextWindowExceeded from './__fixtures__/claude-context-window-exceeded.json'
import creditBalance from './__fixtures__/claude-credit-balance.json'
import overloaded from './__fixtures__/claude-overloaded.json'
import promptTooLong from './__fixtures__/claude-prompt-too-long.json'
import refusal from './__fixtures__/claude-refusal.json'
import toolCall from './__fixtures__/claude-tool-call.json'
import toolUseBlocks from './__fixtures__/claude-tool-use-blocks.json'
import { claudeAdapter } from './claude-adapter'

testAdapter(claudeAdapter(), {
  // Claude's tool_choice forms are the model's wherever it is served (Anthropic, Bedrock, Vertex): not one host's.
  modelQuirks: ['tool_choice'],
  matches: ['claude-sonnet-4-5', 'claude-opus-4-1-20250805', 'claude-3-5-haiku-latest', 'claude-haiku-4.5', { model: 'anthropic/claude-sonnet-4.5', baseURL: 'https://openrouter.ai/api/v1' }],
  rejects: ['gpt-4.1', 'gemini-2.5-pro', 'qwen3-max'],
  requests: [
    { name: "sonnet: thinking disabled, 'required' → { type: 'any' }", model: 'claude-sonnet-4-5', after: { thinking: { type: 'disabled' }, tool_choice: { type: 'any' } }, absent: ['reasoning_effort'] },
    { name: "opus: a named tool → { type: 'tool', name }", model: 'claude-opus-4-1', toolChoiceName: 'done', after: { thinking: { type: 'disabled' }, tool_choice: { type: 'tool', name: 'done' } } },
    { name: 'claude-3.7-sonnet counts as sonnet', model: 'claude-3.7-sonnet', toolChoiceName: 'scroll', after: { thinking: { type: 'disabled' }, tool_choice: { type: 'tool', name: 'scroll' } } },
    { name: 'haiku 4.5 on its own endpoint', model: 'claude-haiku-4.5', after: { thinking: { type: 'disabled' }, tool_choice: { type: 'any' } } },
    { name: 'on OpenRouter the OpenAI tool_choice stays', model: 'anthropic/claude-sonnet-4.5', baseURL: 'https://openrouter.ai/api/v1', toolChoiceName: 'done', after: { thinking: { type: 'disabled' }, tool_choice: { type: 'function', function: { name: 'done' } } } },
    { name: 'another Claude model: reasoning_effort low, no tool_choice', model: 'claude-mythos-1', toolChoiceName: 'done', after: { reasoning_effort: 'low' }, absent: ['tool_choice', 'thinking'] },
  ],
  responses: [
    { name: 'an OpenAI-shaped tool call', model: 'claude-sonnet-4-5', response: toolCall, expected: { name: 'done', args: { text: 'All three forms are submitted.' } } },
    { name: 'native tool_use/thinking blocks passed through by a gateway', model: 'claude-sonnet-4-5', response: toolUseBlocks, expected: { name: 'scroll', args: { down: true, num_pages: 2 } } },
    { name: 'finish_reason refusal', model: 'claude-sonnet-4-5', response: refusal, expected: { error: 'content_filter' } },
    { name: 'finish_reason model_context_window_exceeded', model: 'claude-sonnet-4-5', response: contextWindowExceeded, expected: { error: 'output_truncated' } },
    { name: '400 credit balance too low', model: 'claude-sonnet-4-5', status: 400, response: creditBalance, expected: { error: 'quota_exceeded' } },
    { name: '400 prompt is too long', model: 'claude-sonnet-4-5', status: 400, response: promptTooLong, expected: { error: 'context_length' } },
    { name: 'overloaded_error inside a 200', model: 'claude-sonnet-4-5', response: overloaded, expected: { error: 'server_error' } },
    { name: '529 overloaded_error', model: 'claude-sonnet-4-5', status: 529, response: overloaded, expected: { error: 'server_error' } },
  ],
  finishes: [
    { reason: 'end_turn', expected: 'ok' },
    { reason: 'tool_use', expected: 'ok' },
    { reason: 'stop_sequence', expected: 'ok' },
    { reason: 'max_tokens', expected: 'truncated' },
    { reason: 'model_context_window_exceeded', expected: 'truncated' },
    { reason: 'refusal', expected: 'filtered' },
    { reason: 'pause_turn', expected: 'server_error' },
    { reason: 'tool_calls', expected: undefined },
  ],
})

const contextFor = (model: string, baseURL: string, adapters: string[]): AdapterContext => ({
  model,
  modelId: normalizeModelName(model),
  baseURL,
  host: new URL(baseURL).host,
  adapters,
  tools: {},
  stream: false,
})

describe('claudeAdapter', () => {
  const adapter = claudeAdapter()
  const named = { type: 'function', function: { name: 'done' } }

  it('should keep the OpenAI tool_choice when the openrouter adapter is in the chain, whatever the host', () => {
    const body: ChatRequest = { model: 'claude-sonnet-4.5', messages: [], tool_choice: structuredClone(named) }
    const patched = adapter.patchRequest!(body, contextFor('claude-sonnet-4.5', 'https://gateway.example.com/v1', ['claude', 'openrouter', 'openai'])) ?? body
    expect(patched.tool_choice).toEqual(named)
  })

  it('should convert a converted tool_choice no further', () => {
    const body: ChatRequest = { model: 'claude-sonnet-4-5', messages: [], tool_choice: structuredClone(named) }
    const context = contextFor('claude-sonnet-4-5', 'https://api.anthropic.com/v1', ['claude', 'openai'])
    const once = adapter.patchRequest!(body, context) ?? body
    const twice = adapter.patchRequest!(structuredClone(once), context) ?? once
    expect(twice.tool_choice).toEqual({ type: 'tool', name: 'done' })
  })

  it('should lift tool_use, thinking and text blocks into the OpenAI message shape', () => {
    const fixed = adapter.fixResponse!(structuredClone(toolUseBlocks) as ChatResponse, contextFor('claude-sonnet-4-5', 'https://api.anthropic.com/v1', ['claude', 'openai'])) as ChatResponse
    expect(fixed.choices[0]!.message).toEqual({
      role: 'assistant',
      content: 'Scrolling down.',
      reasoning_content: 'The results are below the fold.',
      tool_calls: [{ id: 'toolu_01A9bXcYdZe2f3G4h5J6k7L8', type: 'function', function: { name: 'scroll', arguments: '{"down":true,"num_pages":2}' } }],
    })
  })
})

// The adapter has no classifyError: Anthropic's error wording is the SDK's to classify. These run
// the whole pipeline (with the Claude adapter in the chain) and pin down what a caller relies on.
describe("Anthropic's errors through the pipeline", () => {
  const failWith = (status: number, body: unknown) =>
    createClient({
      baseURL: 'https://api.anthropic.com/v1',
      model: 'claude-sonnet-4-5',
      registry: createAdapterRegistry(),
      adapters: [claudeAdapter()],
      maxRetries: 0,
      customFetch: async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
    })
      .invoke([{ role: 'user', content: 'go' }], { done: defineTool({ inputSchema: z.object({ text: z.string() }) }) })
      .catch((error: unknown) => error)

  it('should report a low credit balance as a final quota_exceeded that quotes Anthropic', async () => {
    const failure = await failWith(400, creditBalance)
    expect(failure).toMatchObject({ type: 'quota_exceeded', retryable: false, status: 400 })
    expect((failure as Error).message).toContain('credit balance is too low')
  })

  it('should report "prompt is too long" as a final context_length', async () => {
    expect(await failWith(400, promptTooLong)).toMatchObject({ type: 'context_length', retryable: false })
  })

  it('should report overloaded_error as a retryable server_error, in a 200 or a 529', async () => {
    expect(await failWith(200, overloaded)).toMatchObject({ type: 'server_error', retryable: true })
    const failure = await failWith(529, overloaded)
    expect(failure).toMatchObject({ type: 'server_error', retryable: true, status: 529 })
    expect((failure as Error).message).toContain('overloaded')
  })
})
