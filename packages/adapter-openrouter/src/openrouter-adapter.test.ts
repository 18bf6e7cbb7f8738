import { createAdapterRegistry, createClient, defineTool } from '@wildcall/sdk'
import { startScriptedServer, type ScriptedServer } from '@wildcall/sdk/testing'
import { testAdapter } from '@wildcall/sdk/testing/vitest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
// The Claude adapter's source, so this end-to-end test needs no build of that package.
import { claudeAdapter } from '../../adapter-claude/src/index'
import freeModelsPerDay from './__fixtures__/openrouter-free-models-per-day.json'
import insufficientCredits from './__fixtures__/openrouter-insufficient-credits.json'
import moderation from './__fixtures__/openrouter-moderation.json'
import toolCall from './__fixtures__/openrouter-tool-call.json'
import upstreamContextLength from './__fixtures__/openrouter-upstream-context-length.json'
import upstreamRateLimit from './__fixtures__/openrouter-upstream-rate-limit.json'
import { openrouterAdapter } from './openrouter-adapter'

const openrouter = 'https://openrouter.ai/api/v1'

testAdapter(openrouterAdapter(), {
  matches: [{ model: 'anthropic/claude-sonnet-4.5', baseURL: openrouter }, { model: 'qwen/qwen3-max', baseURL: 'https://openrouter.ai/api/v1/' }, { model: 'openai/gpt-5.2', baseURL: 'https://eu.openrouter.ai/api/v1' }],
  rejects: ['anthropic/claude-sonnet-4.5', { model: 'qwen3-max', baseURL: 'https://dashscope.aliyuncs.com/compatible-mode/v1' }, { model: 'gpt-4.1', baseURL: 'https://openrouter.ai.example.com/v1' }],
  requests: [
    { name: "thinking disabled → reasoning { enabled: false }", model: 'anthropic/claude-sonnet-4.5', baseURL: openrouter, before: { thinking: { type: 'disabled' } }, after: { reasoning: { enabled: false } }, absent: ['thinking'] },
    { name: 'enable_thinking: false → reasoning { enabled: false }', model: 'qwen/qwen3-max', baseURL: openrouter, before: { enable_thinking: false }, after: { reasoning: { enabled: false } }, absent: ['enable_thinking'] },
    { name: "reasoning_effort 'low' → reasoning { enabled: true, effort: 'low' }", model: 'google/gemini-2.5-pro', baseURL: openrouter, before: { reasoning_effort: 'low' }, after: { reasoning: { enabled: true, effort: 'low' } }, absent: ['reasoning_effort'] },
    { name: "reasoning_effort 'minimal' keeps its effort", model: 'google/gemini-3-flash-preview', baseURL: openrouter, before: { reasoning_effort: 'minimal' }, after: { reasoning: { enabled: true, effort: 'minimal' } }, absent: ['reasoning_effort'] },
    { name: "reasoning_effort 'none' → reasoning { enabled: false }", model: 'google/gemini-2.5-flash', baseURL: openrouter, before: { reasoning_effort: 'none' }, after: { reasoning: { enabled: false } }, absent: ['reasoning_effort'] },
    { name: 'off wins when a model adapter set both thinking disabled and an effort', model: 'tencent/hy-t1', baseURL: openrouter, before: { thinking: { type: 'disabled' }, reasoning_effort: 'low' }, after: { reasoning: { enabled: false } }, absent: ['thinking', 'reasoning_effort', 'reasoning.effort'] },
    { name: 'thinking enabled with a budget → reasoning { enabled: true, max_tokens }', model: 'anthropic/claude-opus-4.1', baseURL: openrouter, before: { thinking: { type: 'enabled', budget_tokens: 2048 } }, after: { reasoning: { enabled: true, max_tokens: 2048 } }, absent: ['thinking'] },
    { name: 'a body without reasoning fields is left alone', model: 'openai/gpt-4.1', baseURL: openrouter, after: { parallel_tool_calls: false, tool_choice: 'required' }, absent: ['reasoning'] },
    { name: 'an existing reasoning object is merged', model: 'openai/gpt-5.2', baseURL: openrouter, before: { reasoning: { exclude: true }, reasoning_effort: 'high' }, after: { reasoning: { exclude: true, enabled: true, effort: 'high' } }, absent: ['reasoning_effort'] },
    { name: 'off drops an existing effort and budget, keeps the rest', model: 'anthropic/claude-sonnet-4.5', baseURL: openrouter, before: { reasoning: { exclude: true, effort: 'high', max_tokens: 512 }, thinking: { type: 'disabled' } }, after: { reasoning: { exclude: true, enabled: false } }, absent: ['thinking', 'reasoning.effort', 'reasoning.max_tokens'] },
    { name: "a user's own reasoning object alone is kept as it is", model: 'openai/gpt-5.2', baseURL: openrouter, before: { reasoning: { effort: 'low' } }, after: { reasoning: { effort: 'low' } }, absent: ['reasoning.enabled'] },
  ],
  responses: [
    { name: 'a tool call relayed from Anthropic', model: 'anthropic/claude-sonnet-4.5', baseURL: openrouter, response: toolCall, expected: { name: 'done', args: { text: 'Booked the 9:40 train.' } } },
    { name: '402 credits', model: 'anthropic/claude-sonnet-4.5', baseURL: openrouter, status: 402, response: insufficientCredits, expected: { error: 'quota_exceeded' } },
    { name: '403 moderation is content_filter, not auth', model: 'anthropic/claude-sonnet-4.5', baseURL: openrouter, status: 403, response: moderation, expected: { error: 'content_filter' } },
    { name: 'context window in metadata.raw', model: 'anthropic/claude-sonnet-4.5', baseURL: openrouter, status: 400, response: upstreamContextLength, expected: { error: 'context_length' } },
    { name: '429 free-models-per-day is quota_exceeded', model: 'qwen/qwen3-235b-a22b:free', baseURL: openrouter, status: 429, response: freeModelsPerDay, expected: { error: 'quota_exceeded' } },
    // The SDK's own classification of OpenRouter's envelope (the adapter only names the upstream).
    { name: '200 with code 502 is server_error', model: 'anthropic/claude-sonnet-4.5', baseURL: openrouter, response: { error: { code: 502, message: 'Provider returned error', metadata: { raw: 'upstream connect error', provider_name: 'Together' } } }, expected: { error: 'server_error' } },
    { name: '200 with code 408 is timeout', model: 'anthropic/claude-sonnet-4.5', baseURL: openrouter, response: { error: { code: 408, message: 'Timed out waiting for the upstream provider' } }, expected: { error: 'timeout' } },
    { name: '200 with code 402 is quota_exceeded', model: 'anthropic/claude-sonnet-4.5', baseURL: openrouter, response: { error: { code: 402, message: 'This request requires more credits, or fewer max_tokens.' } }, expected: { error: 'quota_exceeded' } },
    { name: '401 is auth_error', model: 'anthropic/claude-sonnet-4.5', baseURL: openrouter, status: 401, response: { error: { code: 401, message: 'No auth credentials found' } }, expected: { error: 'auth_error' } },
    { name: '404 no endpoints is model_not_found', model: 'anthropic/claude-sonnet-4.5', baseURL: openrouter, status: 404, response: { error: { code: 404, message: 'No endpoints found that support tool use.' } }, expected: { error: 'model_not_found' } },
    // Upstream wordings only the adapter reads.
    { name: "'too many input tokens' in metadata.raw is context_length", model: 'meta-llama/llama-3.3-70b-instruct', baseURL: openrouter, status: 400, response: { error: { code: 400, message: 'Provider returned error', metadata: { raw: 'Input validation error: too many input tokens', provider_name: 'Fireworks' } } }, expected: { error: 'context_length' } },
    { name: 'an upstream 429 relayed as a 400 is rate_limit', model: 'google/gemini-2.5-flash', baseURL: openrouter, status: 400, response: { error: { code: 400, message: 'Provider returned error', metadata: { raw: { error: { code: 429, message: 'Resource exhausted' } }, provider_name: 'Google' } } }, expected: { error: 'rate_limit' } },
  ],
})

describe('openrouterAdapter', () => {
  let server: ScriptedServer
  beforeAll(async () => {
    server = await startScriptedServer({ script: [{ body: toolCall }] })
  })
  afterAll(() => server.close())

  // The client talks to https://openrouter.ai (so the provider adapter matches by host); the fetch
  // carries the request to the scripted server on 127.0.0.1.
  const toServer: typeof fetch = (_url, init) => fetch(`${server.url}/chat/completions`, init)
  const tools = {
    done: defineTool({ description: 'Finish', inputSchema: z.object({ text: z.string() }), execute: async ({ text }) => text.length }),
  }

  it('should apply the Claude patch, then the OpenRouter translation, to the body the server receives', async () => {
    const client = createClient({
      baseURL: openrouter,
      model: 'anthropic/claude-sonnet-4.5',
      apiKey: 'sk-or-test',
      registry: createAdapterRegistry(),
      adapters: [claudeAdapter(), openrouterAdapter()],
      customFetch: toServer,
      maxRetries: 0,
    })
    expect(client.adapters).toEqual(['claude', 'openrouter'])
    const result = await client.invoke([{ role: 'user', content: 'Book the train' }], tools, { toolChoiceName: 'done' })
    expect(result.toolCall).toEqual({ id: 'toolu_vrtx_01Kx9Vb2Nm3Qw4Er5Ty6Ui7O', name: 'done', args: { text: 'Booked the 9:40 train.' } })
    expect(result.toolResult).toBe(22)
    expect(result.adapters).toEqual(['claude', 'openrouter'])
    const received = server.requests.at(-1)!.body
    // Claude asked for no thinking; OpenRouter received it in its own shape, and the OpenAI
    // tool_choice was kept because OpenRouter translates it for Anthropic itself.
    expect(received.reasoning).toEqual({ enabled: false })
    expect(received).not.toHaveProperty('thinking')
    expect(received.tool_choice).toEqual({ type: 'function', function: { name: 'done' } })
    expect(received.model).toBe('anthropic/claude-sonnet-4.5')
    expect(received.parallel_tool_calls).toBe(false)
    expect(server.requests.at(-1)!.headers.authorization).toBe('Bearer sk-or-test')
  })

  it('should classify an upstream 429 carried in metadata.raw as a retryable rate_limit', async () => {
    server.setScript([{ status: 429, body: upstreamRateLimit }])
    const client = createClient({ baseURL: openrouter, model: 'qwen/qwen3-235b-a22b:free', registry: createAdapterRegistry(), adapters: [openrouterAdapter()], customFetch: toServer, maxRetries: 0 })
    const failure = await client.invoke([{ role: 'user', content: 'hi' }], tools).catch((error: unknown) => error)
    expect(failure).toMatchObject({ type: 'rate_limit', retryable: true, status: 429 })
    expect((failure as Error).message).toContain('Chutes')
  })

  it('should name the upstream provider and keep the verdict retryable when a 502 relays its rate limit', async () => {
    server.setScript([{ status: 502, body: { error: { code: 502, message: 'Provider returned error', metadata: { raw: 'rate limit exceeded, slow down', provider_name: 'DeepInfra' } } } }])
    const client = createClient({ baseURL: openrouter, model: 'meta-llama/llama-3.3-70b-instruct', registry: createAdapterRegistry(), adapters: [openrouterAdapter()], customFetch: toServer, maxRetries: 0 })
    const failure = await client.invoke([{ role: 'user', content: 'hi' }], tools).catch((error: unknown) => error)
    expect(failure).toMatchObject({ type: 'rate_limit', retryable: true, status: 502 })
    expect((failure as Error).message).toContain('DeepInfra')
  })

  it('should report moderation as a final content_filter and name the upstream on a context-window error', async () => {
    server.setScript([{ status: 403, body: moderation }, { status: 400, body: upstreamContextLength }])
    const client = createClient({ baseURL: openrouter, model: 'anthropic/claude-sonnet-4.5', registry: createAdapterRegistry(), adapters: [openrouterAdapter()], customFetch: toServer, maxRetries: 0 })
    const flagged = await client.invoke([{ role: 'user', content: 'hi' }], tools).catch((error: unknown) => error)
    expect(flagged).toMatchObject({ type: 'content_filter', retryable: false, status: 403 })
    const tooLong = await client.invoke([{ role: 'user', content: 'hi' }], tools).catch((error: unknown) => error)
    expect(tooLong).toMatchObject({ type: 'context_length', retryable: false })
    expect((tooLong as Error).message).toContain('Anthropic')
  })
})
