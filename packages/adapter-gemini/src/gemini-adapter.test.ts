import { createClient, defineTool, normalizeModelName, type AdapterContext, type ChatRequest, type ChatToolDefinition } from '@wildcall/sdk'
import { testAdapter } from '@wildcall/sdk/testing'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import apiKeyInvalid from './__fixtures__/gemini-api-key-invalid.json'
import contextLength from './__fixtures__/gemini-context-length.json'
import malformedFunctionCall from './__fixtures__/gemini-malformed-function-call.json'
import rateLimit from './__fixtures__/gemini-rate-limit.json'
import safety from './__fixtures__/gemini-safety.json'
import toolCall from './__fixtures__/gemini-tool-call.json'
import zeroQuota from './__fixtures__/gemini-zero-quota.json'
import zeroQuotaRetryHint from './__fixtures__/gemini-zero-quota-retry-hint.json'
import { geminiAdapter, toGeminiSchema } from './gemini-adapter'

const strictTool: ChatToolDefinition = {
  type: 'function',
  function: {
    name: 'pick',
    parameters: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        kind: { const: 'tab' },
        labels: { type: 'object', propertyNames: { pattern: '^[a-z]+$' }, additionalProperties: { type: 'string' } },
        note: { type: ['string', 'null'] },
      },
      required: ['kind'],
      additionalProperties: false,
    },
  },
}

testAdapter(geminiAdapter(), {
  matches: ['gemini-2.5-flash', 'models/gemini-3-flash-preview', 'gemini-2.5-pro', 'google/gemini-3-pro-preview', { model: 'google/gemini-2.5-flash', baseURL: 'https://openrouter.ai/api/v1' }],
  rejects: ['gemma-3-27b-it', 'gpt-4.1', 'claude-sonnet-4-5'],
  requests: [
    { name: "gemini-2.5-flash: reasoning_effort 'none'", model: 'gemini-2.5-flash', after: { reasoning_effort: 'none' } },
    { name: "gemini-2.5-flash-lite: 'none'", model: 'gemini-2.5-flash-lite', after: { reasoning_effort: 'none' } },
    { name: "gemini-2.5-pro cannot stop thinking: 'low'", model: 'gemini-2.5-pro', after: { reasoning_effort: 'low' } },
    { name: "models/gemini-3-flash-preview: 'minimal'", model: 'models/gemini-3-flash-preview', after: { reasoning_effort: 'minimal' } },
    { name: "gemini-3.1-flash-lite: 'minimal'", model: 'gemini-3.1-flash-lite-preview', after: { reasoning_effort: 'minimal' } },
    { name: "gemini-3-pro-preview: 'low'", model: 'gemini-3-pro-preview', after: { reasoning_effort: 'low' } },
    { name: 'gemini-2.0-flash does not think: no reasoning_effort', model: 'gemini-2.0-flash', absent: ['reasoning_effort'] },
    { name: 'additionalProperties is stripped from the generated tool schemas', model: 'gemini-2.5-flash', absent: ['tools.0.function.parameters.additionalProperties', 'tools.1.function.parameters.additionalProperties'] },
    {
      name: 'keywords Gemini rejects are rewritten in copies of the tools',
      model: 'gemini-2.5-flash',
      before: { tools: [strictTool] },
      absent: ['tools.0.function.parameters.$schema', 'tools.0.function.parameters.additionalProperties', 'tools.0.function.parameters.properties.labels.propertyNames', 'tools.0.function.parameters.properties.labels.additionalProperties', 'tools.0.function.parameters.properties.kind.const'],
    },
  ],
  responses: [
    { name: 'a plain tool call', model: 'gemini-2.5-flash', response: toolCall, expected: { name: 'input_text', args: { index: 7, text: 'weather in Lyon' } } },
    { name: 'MALFORMED_FUNCTION_CALL is a retryable invalid_schema', model: 'gemini-2.5-flash', response: malformedFunctionCall, expected: { error: 'invalid_schema' } },
    { name: 'SAFETY', model: 'gemini-2.5-pro', response: safety, expected: { error: 'content_filter' } },
    { name: '400 API key not valid (array-wrapped body) is auth_error', model: 'gemini-2.5-flash', status: 400, response: apiKeyInvalid, expected: { error: 'auth_error' } },
    { name: '400 input token count exceeds the maximum', model: 'gemini-2.5-flash', status: 400, response: contextLength, expected: { error: 'context_length' } },
    { name: '429 per-minute limit stays rate_limit', model: 'gemini-2.5-flash', status: 429, response: rateLimit, expected: { error: 'rate_limit' } },
    { name: '429 with limit: 0 is quota_exceeded', model: 'gemini-2.5-pro', status: 429, response: zeroQuota, expected: { error: 'quota_exceeded' } },
    { name: '429 with limit: 0 and a retry hint is still quota_exceeded', model: 'gemini-2.5-pro', status: 429, response: zeroQuotaRetryHint, expected: { error: 'quota_exceeded' } },
  ],
  finishes: [
    { reason: 'STOP', expected: 'ok' },
    { reason: 'MAX_TOKENS', expected: 'truncated' },
    { reason: 'SAFETY', expected: 'filtered' },
    { reason: 'RECITATION', expected: 'filtered' },
    { reason: 'PROHIBITED_CONTENT', expected: 'filtered' },
    { reason: 'MALFORMED_FUNCTION_CALL', expected: 'malformed' },
    { reason: 'malformed_function_call', expected: 'malformed' },
    { reason: 'UNEXPECTED_TOOL_CALL', expected: 'malformed' },
    { reason: 'OTHER', expected: 'unknown' },
    { reason: 'tool_calls', expected: undefined },
  ],
})

testAdapter(geminiAdapter({ reasoningEffort: 'high' }), {
  requests: [{ name: 'the reasoningEffort option wins', model: 'gemini-2.5-flash', after: { reasoning_effort: 'high' } }],
})

const context = (model: string): AdapterContext => ({
  model,
  modelId: normalizeModelName(model),
  baseURL: 'https://generativelanguage.googleapis.com/v1beta/openai',
  host: 'generativelanguage.googleapis.com',
  adapters: ['gemini', 'openai'],
  tools: {},
  stream: false,
})

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    Object.freeze(value)
    for (const child of Object.values(value)) deepFreeze(child)
  }
  return value
}

describe('geminiAdapter', () => {
  it('should send the schema subset Gemini accepts without touching the frozen original', () => {
    const tool = deepFreeze(structuredClone(strictTool))
    const body: ChatRequest = { model: 'gemini-2.5-flash', messages: [], tools: [tool] }
    const patched = geminiAdapter().patchRequest!(body, context('gemini-2.5-flash')) ?? body
    expect(patched.tools![0]!.function.parameters).toEqual({
      type: 'object',
      properties: {
        kind: { type: 'string', enum: ['tab'] },
        labels: { type: 'object' },
        note: { type: 'string', nullable: true },
      },
      required: ['kind'],
    })
    expect(tool).toEqual(strictTool)
  })

  it('should reuse one converted copy per tool definition, and leave a converted one alone', () => {
    const adapter = geminiAdapter()
    const tool = deepFreeze(structuredClone(strictTool))
    const body: ChatRequest = { model: 'gemini-2.5-flash', messages: [], tools: [tool] }
    adapter.patchRequest!(body, context('gemini-2.5-flash'))
    const converted = body.tools![0]!
    expect(converted).not.toBe(tool)
    const again: ChatRequest = { model: 'gemini-2.5-flash', messages: [], tools: [tool] }
    adapter.patchRequest!(again, context('gemini-2.5-flash'))
    expect(again.tools![0]).toBe(converted)
    adapter.patchRequest!(again, context('gemini-2.5-flash'))
    expect(again.tools![0]).toBe(converted)
  })

  it("should take retryAfterMs from Gemini's rate-limit body when no header gave one", async () => {
    const failWith = (headers: Record<string, string>) =>
      createClient({
        baseURL: 'https://generativelanguage.googleapis.com/v1beta/openai',
        model: 'gemini-2.5-flash',
        adapters: [geminiAdapter()],
        maxRetries: 0,
        customFetch: async () => new Response(JSON.stringify(rateLimit), { status: 429, headers }),
      })
        .invoke([{ role: 'user', content: 'go' }], { done: defineTool({ inputSchema: z.object({ text: z.string() }) }) })
        .catch((error: unknown) => error)
    expect(await failWith({})).toMatchObject({ type: 'rate_limit', retryAfterMs: 37_500, retryable: true })
    expect(await failWith({ 'retry-after-ms': '5000' })).toMatchObject({ type: 'rate_limit', retryAfterMs: 5_000 })
  })

  it('should turn oneOf into anyOf, a multi-type into anyOf and exclusive bounds into inclusive ones', () => {
    expect(
      toGeminiSchema({
        type: 'object',
        properties: {
          target: { oneOf: [{ type: 'integer', exclusiveMinimum: 0 }, { type: 'string', maxLength: 20 }] },
          value: { type: ['number', 'boolean'] },
          additionalProperties: { type: 'string' },
        },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        target: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string', maxLength: 20 }] },
        value: { anyOf: [{ type: 'number' }, { type: 'boolean' }] },
        // A property that happens to be called additionalProperties is a property, not the keyword.
        additionalProperties: { type: 'string' },
      },
    })
  })

  it('should rewrite schemas inside $defs, items and anyOf, and leave property names alone', () => {
    expect(
      toGeminiSchema({
        type: 'object',
        properties: {
          const: { const: 'fixed' },
          oneOf: { type: 'array', items: { type: ['integer', 'null'], exclusiveMaximum: 10, maximum: 5 } },
          type: { anyOf: [{ type: 'string', propertyNames: { minLength: 1 } }, { type: 'null' }] },
        },
        $defs: { Item: { type: 'object', additionalProperties: false, properties: { id: { const: 7 } } } },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        const: { type: 'string', enum: ['fixed'] },
        // The schema's own maximum wins over the exclusive bound it would replace.
        oneOf: { type: 'array', items: { type: 'integer', nullable: true, maximum: 5 } },
        type: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      },
      // A constant that is not a string is left to local validation.
      $defs: { Item: { type: 'object', properties: { id: {} } } },
    })
  })

  it("should read only Gemini's own keywords, never a name inherited from Object.prototype", () => {
    expect(toGeminiSchema({ type: ['null'], default: { constructor: 'Point', toString: 'x' }, description: 'a point' })).toEqual({
      nullable: true,
      default: { constructor: 'Point', toString: 'x' },
      description: 'a point',
    })
  })
})
