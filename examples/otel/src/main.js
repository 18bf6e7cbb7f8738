// The OpenTelemetry example (`npm start` in this folder): two steps of a small agent, traced with
// @wildcall/otel and printed by the OpenTelemetry SDK's console exporters.
//
// The "model" is a SCRIPTED local server on 127.0.0.1 that replays replies written by hand in the
// shapes real models send. It is not a model. Set WILDCALL_BASE_URL and WILDCALL_MODEL (and
// WILDCALL_API_KEY) to drive a real OpenAI-compatible endpoint instead.
import { ConsoleMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics'
import { BasicTracerProvider, ConsoleSpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { instrument } from '@wildcall/otel'
import { createClient, createMacroTool, defineTool } from '@wildcall/sdk'
import { contentResponse, startScriptedServer, toolCallResponse } from '@wildcall/sdk/testing'
import { z } from 'zod'

const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new ConsoleSpanExporter())] })
const metricReader = new PeriodicExportingMetricReader({ exporter: new ConsoleMetricExporter(), exportIntervalMillis: 60_000 })
const meterProvider = new MeterProvider({ readers: [metricReader] })

const AgentOutput = createMacroTool({
  search: defineTool({ description: 'Search the catalogue', inputSchema: z.object({ query: z.string() }), execute: async ({ query }) => [`${query} (blue)`, `${query} (steel)`] }),
  done: defineTool({ description: 'Finish with an answer', inputSchema: z.object({ text: z.string() }), execute: async ({ text }) => text }),
})

// What the scripted server answers, in order: NOT a model.
const script = [
  // Step 1: the server is overloaded once (a retry), then a clean native call.
  { status: 503, body: { error: { message: 'The server is overloaded, please try again.' } } },
  { body: toolCallResponse('AgentOutput', { next_goal: 'Find kettles.', action: { search: { query: 'kettle' } } }, { usage: { prompt_tokens: 310, completion_tokens: 24, total_tokens: 334 } }) },
  // Step 2: the call written as JSON text (a repair, read by the JSON reader).
  { body: contentResponse(JSON.stringify({ name: 'AgentOutput', arguments: { memory: 'Two kettles found.', action: { done: { text: 'The blue kettle and the steel one.' } } } }), { usage: { prompt_tokens: 355, completion_tokens: 30, total_tokens: 385 } }) },
]

let server
let client
if (process.env.WILDCALL_BASE_URL && process.env.WILDCALL_MODEL) {
  client = createClient({ baseURL: process.env.WILDCALL_BASE_URL, model: process.env.WILDCALL_MODEL, apiKey: process.env.WILDCALL_API_KEY })
} else {
  server = await startScriptedServer({ script })
  client = createClient({ baseURL: server.url, model: 'scripted-demo', retry: { limit: 1, baseDelayMs: 10, jitter: false } })
  console.log(`Endpoint: ${server.url} — a SCRIPTED local server (NOT a model)`)
}

// Content (messages, tool arguments and results) is recorded only with captureContent: true.
const stop = instrument(client, { tracerProvider, meterProvider })
try {
  const messages = [{ role: 'user', content: 'Which kettles do you have?' }]
  for (let step = 1; step <= 2; step++) {
    const result = await client.invoke(messages, { AgentOutput }, { toolChoiceName: 'AgentOutput' })
    console.log(`step ${step}: ${result.toolResult.action.name} → ${JSON.stringify(result.toolResult.output)} (attempts ${result.attempts}, fixes ${result.fixes.join(', ') || 'none'})`)
    messages.push(...result.messages)
    if (result.toolResult.action.name === 'done') break
  }
} finally {
  stop()
  await tracerProvider.shutdown()
  await meterProvider.shutdown()
  await server?.close()
}
