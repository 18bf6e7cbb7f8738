import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defineAdapter, probeEndpoint, type ChatResponse } from '../index'
import { contentResponse, startScriptedServer, streamedReply, toolCallResponse, type RecordedRequest, type ScriptedReply, type ScriptedServer } from '../testing'

const refusal = (message: string): ScriptedReply => ({ status: 400, body: { error: { message, type: 'invalid_request_error' } } })
const answer = (request: RecordedRequest, response: ChatResponse): ScriptedReply => (request.body.stream ? streamedReply(response) : { body: response })
const call = (request: RecordedRequest) => answer(request, toolCallResponse('answer', { word: 'ready' }, { message: { reasoning_content: 'The user wants the tool.' } }))
const lacksReasoning = (request: RecordedRequest) => request.body.messages.some((message) => message.role === 'assistant' && typeof message.reasoning_content !== 'string')

let server: ScriptedServer
beforeAll(async () => {
  server = await startScriptedServer({ script: [] })
})
afterAll(() => server.close())
const probe = () => probeEndpoint({ baseURL: server.url, model: 'acme-reasoner-2' })

describe('probeEndpoint', () => {
  it('should find nothing to learn at an endpoint that takes everything, in 3 requests', async () => {
    server.setScript((request) => call(request))
    const report = await probe()
    expect(report.profile).toEqual({ version: 1, baseURL: server.url, model: 'acme-reasoner-2', fields: [], messageFields: {} })
    expect(report.requests).toBe(3)
    expect(server.requests).toHaveLength(3)
    expect(report.steps.map((step) => [step.name, step.ok])).toEqual([['tool_choice', true], ['second turn', true], ['stream', true]])
    expect(report.reasoningFields).toEqual(['reasoning_content'])
    expect(report.steps.flatMap((step) => step.fixes)).toEqual([])
  })

  it("should learn LM Studio's tool_choice form", async () => {
    server.setScript((request) => (typeof request.body.tool_choice === 'object' ? refusal("Invalid tool_choice type: 'object'. Supported string values: none, auto, required") : call(request)))
    const report = await probe()
    expect(report.profile.toolChoice).toBe('required')
    expect(report.requests).toBe(4)
    expect(report.steps[0]).toMatchObject({ ok: true, fixes: ['tool-choice-required'] })
    // Each step says what each of its requests saw: the refused form first, then the one taken.
    expect(report.steps[0]!.requests).toEqual([
      { status: 400, error: { type: 'bad_request', message: expect.stringContaining("Invalid tool_choice type: 'object'") }, durationMs: expect.any(Number) },
      { status: 200, durationMs: expect.any(Number) },
    ])
    expect(report.steps.slice(1).map((step) => step.requests.map((request) => request.status))).toEqual([[200], [200]])
  })

  it('should say what each request saw at an endpoint that refuses tools (Ollama), and learn prompt mode', async () => {
    server.setScript((request) =>
      request.body.tools ? { status: 400, body: { error: 'registry.ollama.ai/library/gemma3:4b does not support tools' } } : answer(request, contentResponse('<tool_call>{"name": "answer", "arguments": {"word": "ready"}}</tool_call>')),
    )
    const report = await probe()
    expect(report.profile.toolMode).toBe('prompt')
    expect(report.steps[0]!.requests.map(({ status, error }) => [status, error?.type])).toEqual([[400, 'bad_request'], [200, undefined]])
    expect(report.steps[0]!.requests[0]!.error!.message).toContain('does not support tools')
    // Learnt once: the later stages go straight to prompt mode.
    expect(report.steps.slice(1).map((step) => step.requests.map((request) => request.status))).toEqual([[200], [200]])
  })

  it('should learn, within 6 requests, a thinking endpoint that takes no forced choice and wants its reasoning back', async () => {
    server.setScript((request) =>
      typeof request.body.tool_choice === 'object'
        ? refusal('Thinking mode does not support this tool_choice')
        : request.body.tool_choice === 'required'
          ? refusal("tool_choice 'required' is incompatible with thinking enabled")
          : lacksReasoning(request)
            ? refusal('Missing `reasoning_content` field in the assistant message at message index 2.')
            : call(request),
    )
    const report = await probe()
    expect(report.profile).toMatchObject({ toolChoice: 'auto', messageFields: { reasoning_content: 'echo' } })
    expect(report.requests).toBe(6)
    expect(server.requests).toHaveLength(6)
    expect(report.steps.every((step) => step.ok)).toBe(true)
    expect(report.steps[1]!.fixes).toContain('echoed-message-field:reasoning_content')
  })

  it('should report a reasoning model that spends max_tokens thinking as taken requests cut short, and still learn its history rule', async () => {
    const thinking = (request: RecordedRequest): ChatResponse => ({
      ...contentResponse(''),
      choices: [{ index: 0, message: { role: 'assistant', content: '', reasoning_content: 'Let me think about which tool to call, and why, at length…' }, finish_reason: 'length' }],
      usage: { prompt_tokens: 30, completion_tokens: request.body.max_tokens ?? 0, total_tokens: 0 },
    })
    server.setScript((request) => (lacksReasoning(request) ? refusal('thinking is enabled but reasoning_content is missing in assistant tool call message at index 1') : answer(request, thinking(request))))
    const report = await probe()
    expect(server.requests[0]!.body.max_tokens).toBe(256)
    expect(report.steps.map((step) => [step.name, step.ok, step.error?.type])).toEqual([
      ['tool_choice', true, 'output_truncated'],
      ['second turn', true, 'output_truncated'],
      ['stream', true, 'output_truncated'],
    ])
    expect(report.profile.messageFields).toEqual({ reasoning_content: 'echo' })
    expect(report.maxTokens).toBe(256)
    expect(report.reasoningFields).toEqual(['reasoning_content'])
    expect(report.requests).toBeLessThanOrEqual(6)
  })

  it('should cope with an endpoint that answers 200 with anything but a completion, and never throw', async () => {
    server.setScript([{ status: 200, body: 'OK' }])
    const report = await probe()
    expect(report.steps.map((step) => step.ok)).toEqual([false, false, false])
    expect(report.steps[0]!.error?.type).toBe('invalid_response')
    expect(report.profile.fields).toEqual([])
    expect(report.requests).toBe(3)
  })

  it('should never send more than 6 requests, whatever the endpoint refuses', async () => {
    let n = 0
    server.setScript(() => ({ status: 400, body: { error: { message: `Unsupported parameter: 'p${n}' is not supported.`, param: `p${n++}` } } }))
    const fields = defineAdapter({ name: 'fields', match: () => true, patchRequest: (body) => Object.assign(body, { p0: 0, p1: 1, p2: 2, p3: 3, p4: 4, p5: 5, p6: 6, p7: 7 }) })
    const report = await probeEndpoint({ baseURL: server.url, model: 'acme-1', adapters: [fields] })
    expect(server.requests).toHaveLength(6)
    expect(report.requests).toBe(6)
    expect(report.steps.at(-1)).toMatchObject({ name: 'stream', ok: false, error: { type: 'skipped' } })
  })
})
