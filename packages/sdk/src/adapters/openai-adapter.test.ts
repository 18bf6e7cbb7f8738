import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createClient } from '../client/create-client'
import { startScriptedServer, toolCallResponse, type ScriptedServer } from '../testing/scripted-server'
import { testAdapter, type AdapterRequestCase } from '../testing/vitest'
import { defineTool } from '../tool/define-tool'
import { defineAdapter } from './define-adapter'
import { openaiAdapter } from './openai-adapter'
import { createAdapterRegistry } from './registry'

const minimal = (model: string): AdapterRequestCase => ({ name: `${model} gets reasoning_effort "minimal" and verbosity "low"`, model, after: { reasoning_effort: 'minimal', verbosity: 'low' } })
const none = (model: string): AdapterRequestCase => ({ name: `${model} gets reasoning_effort "none" and verbosity "low"`, model, after: { reasoning_effort: 'none', verbosity: 'low' } })
const chatLatest = (model: string): AdapterRequestCase => ({
  name: `${model} drops reasoning_effort and temperature`,
  model,
  temperature: 0.4,
  before: { reasoning_effort: 'low' },
  after: { verbosity: 'low' },
  absent: ['reasoning_effort', 'temperature'],
})
const noEffort = (model: string, after: Record<string, unknown> = {}, absent: string[] = []): AdapterRequestCase => ({
  name: `${model} must not receive reasoning_effort`,
  model,
  before: { reasoning_effort: 'low' },
  after,
  absent: ['reasoning_effort', ...absent],
})
const untouched = (model: string): AdapterRequestCase => ({
  name: `${model} is not a GPT and passes untouched`,
  model,
  temperature: 0.3,
  before: { reasoning_effort: 'high' },
  after: { reasoning_effort: 'high', temperature: 0.3 },
  absent: ['verbosity'],
})

testAdapter(openaiAdapter(), {
  // OpenAI's reasoning models refuse temperature and parallel_tool_calls wherever they are served (OpenAI, Azure, OpenRouter).
  modelQuirks: ['temperature', 'parallel_tool_calls'],
  // The default adapter runs last for every model, but matches (and is reported for) GPTs only.
  matches: ['gpt-4.1', 'openai/GPT-5.2-chat', 'chatgpt-4o-latest', 'o3-mini', 'o1', { model: 'openai/gpt-5-mini', baseURL: 'https://openrouter.ai/api/v1' }],
  rejects: ['llama-3.3-70b', 'Qwen/Qwen3-Max', 'gpt-oss-120b', 'olmo-2-13b', 'openchat-3.5', { model: 'anthropic/claude-sonnet-4.5', baseURL: 'https://openrouter.ai/api/v1' }],
  requests: [
    minimal('gpt-5'),
    minimal('gpt-5-mini'),
    minimal('gpt-5-nano'),
    minimal('gpt-5-2025-08-07'),
    minimal('gpt-5-mini-2025-08-07'),
    minimal('openai/GPT-5-Nano'),
    none('gpt-5.1'),
    none('gpt-5.2'),
    none('gpt-5.1-2025-11-13'),
    none('gpt-5.2-2026-01-15'),
    none('openai/gpt-5.2'),
    chatLatest('gpt-5-chat-latest'),
    chatLatest('gpt-5.1-chat-latest'),
    chatLatest('openai/gpt-5.2-chat-latest'),
    noEffort('gpt-5.4', { verbosity: 'low' }),
    noEffort('gpt-5.4-mini', { verbosity: 'low' }),
    noEffort('gpt-5.5', { verbosity: 'low' }),
    noEffort('gpt-5.1-codex', { verbosity: 'low' }),
    noEffort('gpt-5.2-pro', { verbosity: 'low' }),
    noEffort('gpt-4.1', {}, ['verbosity']),
    noEffort('gpt-4.1-mini', {}, ['verbosity']),
    noEffort('gpt-4o', {}, ['verbosity']),
    noEffort('chatgpt-4o-latest', {}, ['verbosity']),
    untouched('qwen3-max'),
    {
      name: 'o3-mini gets no parallel_tool_calls, no temperature, and its token limit as max_completion_tokens',
      model: 'o3-mini',
      temperature: 0.3,
      before: { max_tokens: 500 },
      after: { max_completion_tokens: 500 },
      absent: ['parallel_tool_calls', 'temperature', 'max_tokens', 'verbosity'],
    },
    { name: 'o4-mini (dated) keeps an effort the user set', model: 'o4-mini-2025-04-16', before: { reasoning_effort: 'low' }, after: { reasoning_effort: 'low' }, absent: ['parallel_tool_calls'] },
    { name: 'gpt-5 gets its token limit as max_completion_tokens', model: 'gpt-5-mini', before: { max_tokens: 800 }, after: { max_completion_tokens: 800, reasoning_effort: 'minimal' }, absent: ['max_tokens'] },
    { name: 'gpt-4.1 keeps max_tokens', model: 'gpt-4.1', before: { max_tokens: 800 }, after: { max_tokens: 800 }, absent: ['max_completion_tokens'] },
    untouched('gpt-oss-120b'),
    untouched('claude-sonnet-4.5'),
    { name: 'a GPT keeps the temperature the user set', model: 'gpt-4.1', temperature: 0.2, after: { temperature: 0.2 } },
    { name: 'an effort an earlier adapter set wins', model: 'gpt-5.2', before: { reasoning_effort: 'low', verbosity: 'medium' }, after: { reasoning_effort: 'low', verbosity: 'medium' } },
    { name: 'no effort is added next to a provider reasoning object', model: 'openai/gpt-5.2', before: { reasoning: { effort: 'low' } }, after: { reasoning: { effort: 'low' }, verbosity: 'low' }, absent: ['reasoning_effort'] },
    { name: 'the standard body survives', model: 'gpt-5.2', toolChoiceName: 'done', after: { tool_choice: { type: 'function', function: { name: 'done' } }, parallel_tool_calls: false } },
  ],
  responses: [
    { name: 'a tool call', model: 'gpt-5.2', response: toolCallResponse('input_text', { index: 2, text: 'hi' }), expected: { name: 'input_text', args: { index: 2, text: 'hi' } } },
    { name: 'finish_reason length is output_truncated', model: 'gpt-4.1', response: toolCallResponse('done', { text: 'cut' }, { finishReason: 'length' }), expected: { error: 'output_truncated' } },
    { name: 'finish_reason content_filter', model: 'gpt-4.1', response: toolCallResponse('done', { text: 'x' }, { finishReason: 'content_filter' }), expected: { error: 'content_filter' } },
  ],
  finishes: [
    { reason: 'stop', expected: 'ok' },
    { reason: 'tool_calls', expected: 'ok' },
    { reason: 'function_call', expected: 'ok' },
    { reason: 'length', expected: 'truncated' },
    { reason: 'content_filter', expected: 'filtered' },
    { reason: 'TOOL_CALLS', expected: 'ok' },
    { reason: 'eos', expected: undefined },
    { reason: 'MALFORMED_FUNCTION_CALL', expected: undefined },
    { reason: 'constructor', expected: undefined },
    { reason: null, expected: undefined },
  ],
})

describe('openaiAdapter', () => {
  const tools = { done: defineTool({ description: 'Finish', inputSchema: z.object({ text: z.string() }) }) }
  let server: ScriptedServer
  beforeAll(async () => {
    server = await startScriptedServer({ script: [{ body: toolCallResponse('done', { text: 'ok' }) }] })
  })
  afterAll(() => server.close())

  it('should send reasoning_effort "none" and verbosity "low" to gpt-5.2-2026-01-15 over real HTTP', async () => {
    const client = createClient({ baseURL: server.url, model: 'gpt-5.2-2026-01-15', registry: createAdapterRegistry() })
    expect(client.adapters).toEqual(['openai'])
    await client.invoke([{ role: 'user', content: 'go' }], tools)
    expect(server.requests.at(-1)!.body).toMatchObject({ model: 'gpt-5.2-2026-01-15', reasoning_effort: 'none', verbosity: 'low' })
  })

  it('should remove a reasoning_effort a family adapter added for gpt-4.1', async () => {
    const eager = defineAdapter({ name: 'eager', match: { models: ['gpt-4'] }, patchRequest: (body) => void (body.reasoning_effort = 'low') })
    const client = createClient({ baseURL: server.url, model: 'gpt-4.1', adapters: [eager], registry: createAdapterRegistry() })
    expect(client.adapters).toEqual(['eager', 'openai'])
    await client.invoke([{ role: 'user', content: 'go' }], tools)
    expect(server.requests.at(-1)!.body).not.toHaveProperty('reasoning_effort')
  })

  it('should be replaced, in its last place, by an adapter named "openai"', async () => {
    const custom = defineAdapter({ name: 'openai', match: { models: ['gpt'] }, patchRequest: (body) => void (body.reasoning_effort = 'high') })
    const client = createClient({ baseURL: server.url, model: 'gpt-4.1', adapters: [custom], registry: createAdapterRegistry() })
    expect(client.adapters).toEqual(['openai'])
    await client.invoke([{ role: 'user', content: 'go' }], tools)
    expect(server.requests.at(-1)!.body.reasoning_effort).toBe('high')
  })
})
