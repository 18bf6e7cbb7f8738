import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { classifyHttpError } from '../errors/classify-http'
import { createClient, defineAdapter, defineTool } from '../index'
import { startScriptedServer, toolCallResponse, type ScriptedServer } from '../testing'
import type { ChatRequest } from '../types'
import { applyFieldChange, findFieldChanges } from './adapt-to-rejected-field'

const body = (extra: Record<string, unknown> = {}): ChatRequest =>
  ({ model: 'm', messages: [{ role: 'user', content: 'go' }], tools: [], tool_choice: { type: 'function', function: { name: 'done' } }, parallel_tool_calls: false, max_tokens: 100, ...extra }) as ChatRequest
const rejection = (status: number, error: unknown) => classifyHttpError(status, undefined, JSON.stringify(error), error)

describe('findFieldChanges', () => {
  it.each([
    ['OpenAI (o3-mini)', { error: { message: "Unsupported parameter: 'parallel_tool_calls' is not supported with this model.", type: 'invalid_request_error', param: 'parallel_tool_calls', code: 'unsupported_parameter' } }, { field: 'parallel_tool_calls' }],
    ['OpenAI, asking for another name', { error: { message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", type: 'invalid_request_error', param: 'max_tokens', code: 'unsupported_parameter' } }, { field: 'max_tokens', rename: 'max_completion_tokens' }],
    ['OpenAI, a value only the default of which is taken', { error: { message: "Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value is supported.", type: 'invalid_request_error', param: 'temperature', code: 'unsupported_value' } }, { field: 'temperature' }],
    ['Azure', { error: { code: 'BadRequest', message: 'Unrecognized request argument supplied: parallel_tool_calls' } }, { field: 'parallel_tool_calls' }],
    ['vLLM (pydantic in the message)', { object: 'error', message: "[{'type': 'extra_forbidden', 'loc': ('body', 'verbosity'), 'msg': 'Extra inputs are not permitted', 'input': 'low'}]", type: 'BadRequestError', param: null, code: 400 }, { field: 'verbosity' }],
    ['Google', [{ error: { code: 400, message: 'Invalid JSON payload received. Unknown name "parallel_tool_calls": Cannot find field.', status: 'INVALID_ARGUMENT' } }], { field: 'parallel_tool_calls' }],
    ['a model that takes no named tool_choice', { error: { message: 'deepseek-reasoner does not support tool_choice', type: 'invalid_request_error' } }, { field: 'tool_choice', required: true }],
  ])('should read the field %s rejects', (_name, error, expected) => {
    expect(findFieldChanges(body({ temperature: 0.2, verbosity: 'low' }), rejection(400, error))).toEqual([expected])
  })

  it("should read pydantic's loc from a 422", () => {
    const error = rejection(422, { detail: [{ type: 'extra_forbidden', loc: ['body', 'enable_thinking'], msg: 'Extra inputs are not permitted', input: false }] })
    expect(findFieldChanges(body({ enable_thinking: false }), error)).toEqual([{ field: 'enable_thinking' }])
  })

  it('should take every field a 422 names as a culprit (pydantic lists one loc per field)', () => {
    const error = rejection(422, { detail: [
      { type: 'extra_forbidden', loc: ['body', 'enable_thinking'], msg: 'Extra inputs are not permitted', input: false },
      { type: 'extra_forbidden', loc: ['body', 'verbosity'], msg: 'Extra inputs are not permitted', input: 'low' },
    ] })
    expect(findFieldChanges(body({ enable_thinking: false, verbosity: 'low' }), error)).toEqual([{ field: 'enable_thinking' }, { field: 'verbosity' }])
  })

  it("should drop tool_choice once it is already 'required'", () => {
    const error = rejection(400, { error: { message: "tool_choice 'required' is not supported", type: 'invalid_request_error' } })
    expect(findFieldChanges(body({ tool_choice: 'required' }), error)).toEqual([{ field: 'tool_choice' }])
  })

  it.each([
    ['a value too large, not a refused field', 400, { error: { message: 'max_tokens is too large: 200000. This model supports at most 16384 completion tokens.', type: 'invalid_request_error', param: 'max_tokens', code: 'invalid_value' } }],
    ['a problem in the messages', 400, { error: { message: "Invalid 'messages[2].tool_calls': empty array. Expected an array with minimum length 1.", type: 'invalid_request_error', param: 'messages', code: 'empty_array' } }],
    ['an essential field', 400, { error: { message: "Unsupported parameter: 'tools' is not supported with this model.", param: 'tools' } }],
    ['two fields at once', 400, { error: { message: "Unsupported parameters: 'parallel_tool_calls' and 'verbosity' are not supported." } }],
    ['a refusal that names no field of the request', 400, { error: { message: "Unsupported parameter: 'logprobs' is not supported with this model.", param: 'logprobs' } }],
    ['an auth failure', 401, { error: { message: 'Unsupported authentication scheme' } }],
  ])('should change nothing for %s', (_name, status, error) => {
    expect(findFieldChanges(body({ verbosity: 'low' }), rejection(status, error))).toEqual([])
  })

  it("should never drop a field the caller's transformRequestBody set", () => {
    const error = rejection(400, { error: { message: "Unsupported parameter: 'seed' is not supported with this model.", param: 'seed' } })
    expect(findFieldChanges(body({ seed: 7 }), error)).toEqual([{ field: 'seed' }])
    expect(findFieldChanges(body({ seed: 7 }), error, new Set(['seed']))).toEqual([])
  })
})

describe('applyFieldChange', () => {
  it('should drop, rename or ask for any tool on a copy', () => {
    const original = body()
    expect(applyFieldChange(original, { field: 'parallel_tool_calls' })).not.toHaveProperty('parallel_tool_calls')
    expect(applyFieldChange(original, { field: 'max_tokens', rename: 'max_completion_tokens' })).toMatchObject({ max_completion_tokens: 100 })
    expect(applyFieldChange(original, { field: 'tool_choice', required: true }).tool_choice).toBe('required')
    expect(original).toEqual(body())
  })
})

describe('a client adapting to a rejected field', () => {
  const tools = { done: defineTool({ description: 'Finish', inputSchema: z.object({ text: z.string() }), execute: async ({ text }) => text }) }
  const messages = [{ role: 'user', content: 'go' }]
  const o3 = { status: 400, body: { error: { message: "Unsupported parameter: 'parallel_tool_calls' is not supported with this model.", type: 'invalid_request_error', param: 'parallel_tool_calls', code: 'unsupported_parameter' } } }
  let server: ScriptedServer
  beforeAll(async () => {
    server = await startScriptedServer({ script: [] })
  })
  afterAll(() => server.close())

  it('should resend without the field, report it, and leave it out of every later step', async () => {
    server.setScript([o3, { body: toolCallResponse('done', { text: 'one' }) }, { body: toolCallResponse('done', { text: 'two' }) }])
    const client = createClient({ baseURL: server.url, model: 'acme-reasoner-1', maxRetries: 0 })
    const first = await client.invoke(messages, tools, { toolChoiceName: 'done' })
    expect(first.toolResult).toBe('one')
    expect(first.fixes).toEqual(['dropped-parameter:parallel_tool_calls'])
    expect(first.rawRequest).not.toHaveProperty('parallel_tool_calls')
    const second = await client.invoke(messages, tools, { toolChoiceName: 'done' })
    expect(second.toolResult).toBe('two')
    expect(second.fixes).toEqual(['dropped-parameter:parallel_tool_calls'])
    expect(server.requests.map((request) => 'parallel_tool_calls' in request.body)).toEqual([true, false, false])
  })

  it("should fall back from a named tool_choice to 'required', then to none, one rejection at a time", async () => {
    const refuse = (message: string) => ({ status: 400, body: { error: { message, type: 'invalid_request_error' } } })
    server.setScript([refuse('tool_choice of type function is not supported'), refuse("tool_choice 'required' is not supported"), { body: toolCallResponse('done', { text: 'ok' }) }])
    const client = createClient({ baseURL: server.url, model: 'some-local-model', maxRetries: 0 })
    const run = client.stream(messages, tools, { toolChoiceName: 'done' })
    const result = await run.result
    expect(result.fixes).toEqual(['tool-choice-required', 'dropped-parameter:tool_choice'])
    expect(server.requests.slice(-3).map((request) => request.body.tool_choice)).toEqual([{ type: 'function', function: { name: 'done' } }, 'required', undefined])
  })

  it('should adapt on a later step although earlier steps already learnt several changes', async () => {
    const refuse = (field: string) => ({ status: 400, body: { error: { message: `Unsupported parameter: '${field}' is not supported with this model.`, param: field } } })
    const extra = defineAdapter({ name: 'extra', match: () => true, patchRequest: (request) => Object.assign(request, { a1: 1, a2: 2, a3: 3, a4: 4 }) })
    server.setScript([refuse('a1'), refuse('a2'), refuse('a3'), refuse('a4'), { body: toolCallResponse('done', { text: 'one' }) }, refuse('stream_options'), { body: toolCallResponse('done', { text: 'two' }) }])
    const client = createClient({ baseURL: server.url, model: 'acme-1', maxRetries: 0, adapters: [extra] })
    expect((await client.invoke(messages, tools)).fixes).toEqual(['dropped-parameter:a1', 'dropped-parameter:a2', 'dropped-parameter:a3', 'dropped-parameter:a4'])
    const streamed = await client.stream(messages, tools).result
    expect(streamed.toolResult).toBe('two')
    expect(streamed.fixes).toContain('dropped-parameter:stream_options')
  })

  it('should let the error stand when the rejected field is the caller\'s own', async () => {
    server.setScript([{ status: 400, body: { error: { message: "Unsupported parameter: 'seed' is not supported with this model.", param: 'seed' } } }])
    const client = createClient({ baseURL: server.url, model: 'gpt-4.1', maxRetries: 0, transformRequestBody: (request) => ({ ...request, seed: 7 }) })
    await expect(client.invoke(messages, tools)).rejects.toMatchObject({ type: 'bad_request', status: 400 })
  })
})
