import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { SpanKind, SpanStatusCode } from '@opentelemetry/api'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { AggregationTemporality, DataPointType, MeterProvider, MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base'
import { createClient, createMacroTool, defineAdapter, defineTool, type Adapter, type ClientConfig } from '@wildcall/sdk'
import { contentResponse, sseChunks, startScriptedServer, toolCallResponse, type ScriptedServer } from '@wildcall/sdk/testing'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { instrument, type InstrumentOptions } from './index'

const API_KEY = 'sk-otel-SECRET-0123456789abcdef'
const SECRET_TEXT = 'my card number is 4242'
const messages = [
  { role: 'system', content: 'You click buttons.' },
  { role: 'user', content: `click the third button, ${SECRET_TEXT}` },
]

class TestReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

let server: ScriptedServer
let exporter: InMemorySpanExporter
let tracerProvider: BasicTracerProvider
let meterProvider: MeterProvider
let reader: TestReader
let stops: Array<() => void> = []

function tools() {
  return {
    click: defineTool({ description: 'Click an element', inputSchema: z.object({ index: z.number().int() }), execute: async ({ index }) => `clicked ${index}` }),
    explode: defineTool({ description: 'Fails', inputSchema: z.object({ reason: z.string() }), execute: async ({ reason }): Promise<string> => { throw new RangeError(`tool broke: ${reason}`) } }),
  }
}

function setUp(config: Partial<ClientConfig> = {}, options: InstrumentOptions = {}) {
  const client = createClient({ baseURL: server.url, model: 'gpt-4.1-mini', apiKey: API_KEY, retry: { limit: 2, baseDelayMs: 5, maxDelayMs: 5, jitter: false }, ...config })
  stops.push(instrument(client, { tracerProvider, meterProvider, ...options }))
  return client
}

const spans = () => exporter.getFinishedSpans()
const named = (prefix: string) => spans().filter((span) => span.name.startsWith(prefix))
const only = (prefix: string) => {
  const found = named(prefix)
  expect(found.map((span) => span.name)).toHaveLength(1)
  return found[0]!
}
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId
const idOf = (span: ReadableSpan) => span.spanContext().spanId

async function collect(): Promise<ResourceMetrics> {
  const { resourceMetrics, errors } = await reader.collect()
  expect(errors).toEqual([])
  return resourceMetrics
}

function metric(resource: ResourceMetrics, name: string) {
  return resource.scopeMetrics.flatMap((scope) => scope.metrics).find((entry) => entry.descriptor.name === name)
}

beforeAll(async () => {
  server = await startScriptedServer({ script: [{ body: toolCallResponse('click', { index: 3 }) }] })
})
afterAll(() => server.close())

beforeEach(() => {
  exporter = new InMemorySpanExporter()
  tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
  reader = new TestReader({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE })
  meterProvider = new MeterProvider({ readers: [reader] })
})
afterEach(async () => {
  for (const stop of stops) stop()
  stops = []
  await tracerProvider.shutdown()
  await meterProvider.shutdown()
})

describe('instrument', () => {
  it('should trace a clean step: a step span, one chat CLIENT span with the GenAI attributes, the tool run', async () => {
    server.setScript([{ body: toolCallResponse('click', { index: 3 }, { usage: { prompt_tokens: 40, completion_tokens: 9, total_tokens: 49, prompt_tokens_details: { cached_tokens: 32 }, completion_tokens_details: { reasoning_tokens: 4 } } }) }])
    const client = setUp()
    const result = await client.invoke(messages, tools(), { maxTokens: 256 })
    const step = only('wildcall.step')
    const chat = only('chat ')
    const tool = only('execute_tool ')
    expect(chat.name).toBe('chat gpt-4.1-mini')
    expect(chat.kind).toBe(SpanKind.CLIENT)
    expect(step.kind).toBe(SpanKind.INTERNAL)
    expect(parentOf(chat)).toBe(idOf(step))
    expect(parentOf(tool)).toBe(idOf(step))
    const port = Number(new URL(server.url).port)
    expect(chat.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4.1-mini',
      'server.address': '127.0.0.1',
      'server.port': port,
      'wildcall.call.id': step.attributes['wildcall.call.id'],
      'wildcall.attempt': 1,
      'gen_ai.request.max_tokens': 256,
      'gen_ai.response.id': (result.rawResponse as { id: string }).id,
      'gen_ai.response.model': 'scripted',
      'gen_ai.response.finish_reasons': ['tool_calls'],
      'gen_ai.usage.input_tokens': 40,
      'gen_ai.usage.output_tokens': 9,
      'gen_ai.usage.cache_read.input_tokens': 32,
      'gen_ai.usage.reasoning.output_tokens': 4,
      'http.response.status_code': 200,
    })
    expect(chat.status.code).toBe(SpanStatusCode.UNSET)
    expect(tool.name).toBe('execute_tool click')
    expect(tool.kind).toBe(SpanKind.INTERNAL)
    expect(tool.attributes).toEqual({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'click', 'gen_ai.tool.call.id': result.toolCall.id, 'gen_ai.tool.type': 'function' })
    expect(step.attributes).toMatchObject({ 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4.1-mini', 'wildcall.attempts': 1, 'wildcall.fix.codes': [] })
    expect(step.status.code).toBe(SpanStatusCode.UNSET)

    const resource = await collect()
    const duration = metric(resource, 'gen_ai.client.inference.duration')!
    expect(duration.descriptor.unit).toBe('s')
    expect(duration.dataPointType).toBe(DataPointType.HISTOGRAM)
    const [point] = duration.dataPoints as Array<{ attributes: Record<string, unknown>; value: { count: number; sum: number } }>
    expect(point!.value.count).toBe(1)
    expect(point!.attributes).toEqual({ 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4.1-mini', 'server.address': '127.0.0.1', 'server.port': port, 'gen_ai.response.model': 'scripted' })
    const counted = (name: string) => (metric(resource, name)?.dataPoints as Array<{ attributes: Record<string, unknown>; value: number }> | undefined)?.map((entry) => [entry.value, entry.attributes['gen_ai.token.modality']])
    expect(counted('gen_ai.client.inference.usage.input_tokens')).toEqual([[40, 'unknown']])
    expect(counted('gen_ai.client.inference.usage.output_tokens')).toEqual([[9, 'unknown']])
    expect(counted('gen_ai.client.inference.usage.cache_read.input_tokens')).toEqual([[32, 'unknown']])
    expect(counted('gen_ai.client.inference.usage.reasoning.output_tokens')).toEqual([[4, 'unknown']])
    expect(metric(resource, 'gen_ai.client.operation.duration')).toBeUndefined()
    expect(metric(resource, 'gen_ai.client.token.usage')).toBeUndefined()
  })

  it('should show a retry and a repair: two chat spans, the failed one in error, and both as step span events', async () => {
    server.setScript([{ status: 503, body: { error: { message: 'overloaded' } } }, { body: contentResponse('{"name": "click", "arguments": {"index": "7"}}') }])
    const client = setUp()
    const result = await client.invoke(messages, tools())
    expect(result.toolCall.args).toEqual({ index: 7 })
    const chats = named('chat ')
    expect(chats.map((span) => span.attributes['wildcall.attempt'])).toEqual([1, 2])
    const [failed, ok] = chats
    expect(failed!.status.code).toBe(SpanStatusCode.ERROR)
    expect(failed!.attributes).toMatchObject({ 'error.type': 'server_error', 'gen_ai.response.finish_reasons': ['error'], 'http.response.status_code': 503 })
    expect(ok!.attributes['http.response.status_code']).toBe(200)
    expect(ok!.status.code).toBe(SpanStatusCode.UNSET)
    expect(ok!.attributes['gen_ai.response.finish_reasons']).toEqual(['stop'])
    const step = only('wildcall.step')
    expect(chats.every((span) => parentOf(span) === idOf(step))).toBe(true)
    expect(step.events.map((event) => event.name)).toEqual(['wildcall.retry', 'wildcall.repair'])
    expect(step.events[0]!.attributes).toEqual({ 'wildcall.attempt': 1, 'wildcall.max_attempts': 3, 'error.type': 'server_error', 'wildcall.retry.delay_ms': 5 })
    expect(step.events[1]!.attributes).toEqual({ 'wildcall.attempt': 2, 'wildcall.fix.codes': result.fixes, 'wildcall.reader': 'json' })
    expect(step.attributes['wildcall.attempts']).toBe(2)
    const resource = await collect()
    const points = metric(resource, 'gen_ai.client.inference.duration')!.dataPoints as Array<{ attributes: Record<string, unknown> }>
    expect(points.map((entry) => entry.attributes['error.type']).sort()).toEqual(['server_error', undefined])
  })

  it('should trace a streamed step, and report `error` as the finish reason of a stream cut short', async () => {
    const chunk = (delta: unknown, finish: string | null = null) => ({ id: 'chatcmpl-s1', model: 'scripted-stream', choices: [{ index: 0, delta, finish_reason: finish }] })
    const call = { index: 0, id: 'call_s1', type: 'function', function: { name: 'click', arguments: '' } }
    server.setScript([
      { chunks: sseChunks([chunk({ role: 'assistant', tool_calls: [call] }), chunk({ tool_calls: [{ index: 0, function: { arguments: '{"ind' } }] })], { done: false }) },
      {
        chunks: sseChunks([
          chunk({ role: 'assistant', tool_calls: [call] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{"index": 2}' } }] }),
          chunk({}, 'tool_calls'),
          { id: 'chatcmpl-s1', model: 'scripted-stream', choices: [], usage: { prompt_tokens: 21, completion_tokens: 6, total_tokens: 27 } },
        ]),
      },
    ])
    const client = setUp()
    const run = client.stream(messages, tools())
    for await (const _event of run) void _event
    const result = await run.result
    expect(result.toolCall.args).toEqual({ index: 2 })
    const [cut, whole] = named('chat ')
    expect(cut!.attributes).toMatchObject({ 'gen_ai.request.stream': true, 'gen_ai.response.finish_reasons': ['error'], 'error.type': 'network_error' })
    expect(whole!.attributes).toMatchObject({ 'gen_ai.request.stream': true, 'gen_ai.response.id': 'chatcmpl-s1', 'gen_ai.response.model': 'scripted-stream', 'gen_ai.response.finish_reasons': ['tool_calls'], 'gen_ai.usage.input_tokens': 21, 'gen_ai.usage.output_tokens': 6 })
    const step = only('wildcall.step')
    expect(step.attributes['gen_ai.request.stream']).toBe(true)
    expect(only('execute_tool ').attributes['gen_ai.tool.call.id']).toBe('call_s1')
  })

  it('should end a failing step in error: the chat span and the step span carry wildcall\'s error type', async () => {
    server.setScript([{ status: 401, body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } } }])
    const client = setUp()
    await expect(client.invoke(messages, tools())).rejects.toMatchObject({ type: 'auth_error' })
    const chat = only('chat ')
    const step = only('wildcall.step')
    for (const span of [chat, step]) {
      expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'auth_error' })
      expect(span.attributes['error.type']).toBe('auth_error')
    }
    expect(chat.attributes['gen_ai.response.finish_reasons']).toEqual(['error'])
    expect(named('execute_tool ')).toEqual([])
    const resource = await collect()
    const inputs = metric(resource, 'gen_ai.client.inference.usage.input_tokens')!.dataPoints as Array<{ value: number }>
    // A failed request is counted too: 0 tokens when no usage came.
    expect(inputs.map((entry) => entry.value)).toEqual([0])
  })

  it('should put a tool that throws in an execute_tool span in error, and the step in tool_execution_error', async () => {
    server.setScript([{ body: toolCallResponse('explode', { reason: 'disk' }) }])
    const client = setUp()
    await expect(client.invoke(messages, tools())).rejects.toMatchObject({ type: 'tool_execution_error' })
    const tool = only('execute_tool ')
    expect(tool.name).toBe('execute_tool explode')
    expect(tool.status).toEqual({ code: SpanStatusCode.ERROR, message: 'RangeError' })
    expect(tool.attributes['error.type']).toBe('RangeError')
    expect(only('chat ').status.code).toBe(SpanStatusCode.UNSET)
    expect(only('wildcall.step').attributes['error.type']).toBe('tool_execution_error')
  })

  it('should keep the spans and events of two concurrent calls on one client apart', async () => {
    // The first call's answer comes after the second's: the events interleave.
    server.setScript((request) => {
      const first = JSON.stringify(request.body.messages).includes('first')
      return first ? { delayMs: 120, body: toolCallResponse('click', { index: 1 }) } : { delayMs: 10, body: toolCallResponse('explode', { reason: 'second' }) }
    })
    const client = setUp()
    const seen: string[] = []
    client.events.on('*', (type, event) => seen.push(`${type}:${(event as { callId: string }).callId}`))
    const [one, two] = await Promise.allSettled([
      client.invoke([{ role: 'user', content: 'first' }], tools()),
      client.invoke([{ role: 'user', content: 'second' }], tools()),
    ])
    expect(one.status).toBe('fulfilled')
    expect(two.status).toBe('rejected')
    const steps = named('wildcall.step')
    expect(steps).toHaveLength(2)
    const ids = steps.map((span) => span.attributes['wildcall.call.id'])
    expect(new Set(ids).size).toBe(2)
    // Interleaved: the second call ended before the first.
    expect(seen.indexOf(`done:${ids[0]}`)).toBeGreaterThan(seen.indexOf(`request:${ids[1]}`))
    for (const step of steps) {
      const children = spans().filter((span) => parentOf(span) === idOf(step))
      expect(children.map((span) => span.name).sort()).toEqual(['chat gpt-4.1-mini', step.status.code === SpanStatusCode.ERROR ? 'execute_tool explode' : 'execute_tool click'])
      expect(children.every((span) => span.spanContext().traceId === step.spanContext().traceId)).toBe(true)
      expect(children.find((span) => span.name.startsWith('chat'))!.attributes['wildcall.call.id']).toBe(step.attributes['wildcall.call.id'])
    }
  })

  it('should record no content and never the API key without captureContent, and content (still no key) with it', async () => {
    const reply = { body: toolCallResponse('click', { index: 3 }, { message: { reasoning_content: 'I think about the button' } }) }
    server.setScript([reply])
    const quiet = setUp()
    await quiet.invoke(messages, tools())
    const dump = (list: ReadableSpan[]) => JSON.stringify(list.map((span) => [span.name, span.attributes, span.events, span.status]))
    const silent = dump(spans())
    for (const secret of [API_KEY, SECRET_TEXT, 'You click buttons', 'clicked 3', 'I think about', '"index"']) expect(silent).not.toContain(secret)
    expect(silent).not.toContain('gen_ai.input.messages')

    exporter.reset()
    server.setScript([reply])
    const loud = setUp({}, { captureContent: true })
    await loud.invoke(messages, tools())
    const recorded = spans()
    expect(dump(recorded)).not.toContain(API_KEY)
    const chat = recorded.find((span) => span.name.startsWith('chat'))!
    expect(JSON.parse(chat.attributes['gen_ai.input.messages'] as string)).toEqual([
      { role: 'system', parts: [{ type: 'text', content: 'You click buttons.' }] },
      { role: 'user', parts: [{ type: 'text', content: `click the third button, ${SECRET_TEXT}` }] },
    ])
    const output = JSON.parse(chat.attributes['gen_ai.output.messages'] as string)
    expect(output).toEqual([{ role: 'assistant', parts: [{ type: 'reasoning', content: 'I think about the button' }, { type: 'tool_call', id: expect.any(String), name: 'click', arguments: { index: 3 } }] }])
    const tool = recorded.find((span) => span.name.startsWith('execute_tool'))!
    expect(tool.attributes).toMatchObject({ 'gen_ai.tool.call.arguments': '{"index":3}', 'gen_ai.tool.call.result': '"clicked 3"' })
  })

  it('should never put an API key echoed by the server into a span, even with content', async () => {
    server.setScript([{ status: 400, body: { error: { message: `Invalid key ${API_KEY} for this model` } } }])
    const client = setUp({ retry: 0 }, { captureContent: true })
    await client.invoke(messages, tools()).catch(() => undefined)
    expect(JSON.stringify(spans().map((span) => [span.attributes, span.events, span.status]))).not.toContain(API_KEY)
  })

  it('should give a macro tool\'s action its own execute_tool span under the tool\'s', async () => {
    const AgentOutput = createMacroTool(tools())
    server.setScript([{ body: toolCallResponse('AgentOutput', { memory: 'm', action: { click: { index: 5 } } }) }])
    const client = setUp()
    await client.invoke(messages, { AgentOutput }, { toolChoiceName: 'AgentOutput' })
    const macro = spans().find((span) => span.name === 'execute_tool AgentOutput')!
    const action = spans().find((span) => span.name === 'execute_tool click')!
    expect(parentOf(action)).toBe(idOf(macro))
    expect(action.attributes['gen_ai.tool.name']).toBe('click')
  })

  it('should name the provider by the API host or the adapter family', async () => {
    const provider = async (baseURL: string, model: string, adapters: Adapter[] = []) => {
      exporter.reset()
      const customFetch = async () => new Response(JSON.stringify(toolCallResponse('click', { index: 1 })), { status: 200, headers: { 'content-type': 'application/json' } })
      const client = setUp({ baseURL, model, customFetch, adapters })
      await client.invoke(messages, tools())
      return only('chat ').attributes['gen_ai.provider.name']
    }
    const claude = defineAdapter({ name: 'claude', match: { models: [/^claude/] } })
    const router = defineAdapter({ name: 'router', kind: 'provider', match: { hosts: ['router.example'] } })
    expect(await provider('https://api.deepseek.com/v1', 'deepseek-chat')).toBe('deepseek')
    expect(await provider('https://generativelanguage.googleapis.com/v1beta/openai', 'gemini-2.5-flash')).toBe('gcp.gemini')
    expect(await provider('https://api.x.ai/v1', 'grok-4')).toBe('x_ai')
    expect(await provider('https://us-east5-aiplatform.googleapis.com/v1/projects/p/locations/l/endpoints/openapi', 'gemini-2.5-pro')).toBe('gcp.vertex_ai')
    // No well-known host: the family of the adapter that serves the call, a provider adapter first.
    expect(await provider('https://proxy.example/v1', 'claude-sonnet-4', [claude])).toBe('anthropic')
    expect(await provider('https://router.example/v1', 'claude-sonnet-4', [claude, router])).toBe('router')
    expect(await provider('https://proxy.example/v1', 'gpt-4.1-mini')).toBe('openai')
    expect(await provider(server.url, 'some-local-model')).toBe('openai_compatible')
  })

  it('should stop: no span after the stop function ran', async () => {
    server.setScript([{ body: toolCallResponse('click', { index: 3 }) }])
    const client = setUp()
    stops.pop()!()
    await client.invoke(messages, tools())
    expect(spans()).toEqual([])
  })

  it('should send its spans through the OTLP/HTTP exporter to a collector on 127.0.0.1 (JSON protocol)', async () => {
    const received: unknown[] = []
    const collector: Server = createServer((request, response) => {
      let text = ''
      request.on('data', (chunk) => (text += chunk))
      request.on('end', () => {
        received.push({ path: request.url, type: request.headers['content-type'], body: JSON.parse(text) })
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
      })
    })
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = collector.address() as AddressInfo
      const otlp = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `http://127.0.0.1:${port}/v1/traces` }))] })
      server.setScript([{ body: toolCallResponse('click', { index: 3 }) }])
      const client = createClient({ baseURL: server.url, model: 'gpt-4.1-mini', apiKey: API_KEY })
      const stop = instrument(client, { tracerProvider: otlp })
      await client.invoke(messages, tools())
      stop()
      await otlp.forceFlush()
      await otlp.shutdown()
      type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; arrayValue?: { values: OtlpValue[] } }
      type OtlpSpan = { name: string; kind: number; traceId: string; spanId: string; parentSpanId?: string; attributes: Array<{ key: string; value: OtlpValue }> }
      const bodies = received as Array<{ path: string; type: string; body: { resourceSpans: Array<{ scopeSpans: Array<{ scope: { name: string }; spans: OtlpSpan[] }> }> } }>
      expect(bodies.every((entry) => entry.path === '/v1/traces' && entry.type === 'application/json')).toBe(true)
      const scopes = bodies.flatMap((entry) => entry.body.resourceSpans.flatMap((resource) => resource.scopeSpans))
      expect(new Set(scopes.map((scope) => scope.scope.name))).toEqual(new Set(['@wildcall/otel']))
      const sent = scopes.flatMap((scope) => scope.spans)
      const value = (span: OtlpSpan, key: string) => {
        const found = span.attributes.find((attribute) => attribute.key === key)?.value
        return found?.stringValue ?? (found?.intValue === undefined ? found?.arrayValue?.values.map((entry) => entry.stringValue) : Number(found.intValue))
      }
      const chat = sent.find((span) => span.name === 'chat gpt-4.1-mini')!
      const step = sent.find((span) => span.name === 'wildcall.step')!
      expect(chat.kind).toBe(3) // SPAN_KIND_CLIENT
      expect(chat.parentSpanId).toBe(step.spanId)
      expect(value(chat, 'gen_ai.operation.name')).toBe('chat')
      expect(value(chat, 'gen_ai.provider.name')).toBe('openai')
      expect(value(chat, 'server.port')).toBe(Number(new URL(server.url).port))
      expect(value(chat, 'gen_ai.usage.input_tokens')).toBe(12)
      expect(value(chat, 'gen_ai.response.finish_reasons')).toEqual(['tool_calls'])
      expect(sent.map((span) => span.name).sort()).toEqual(['chat gpt-4.1-mini', 'execute_tool click', 'wildcall.step'])
      const wire = JSON.stringify(bodies)
      for (const secret of [API_KEY, SECRET_TEXT, 'gen_ai.system', 'gen_ai.input.messages']) expect(wire).not.toContain(secret)
    } finally {
      await new Promise((resolve) => collector.close(resolve))
    }
  })
})
