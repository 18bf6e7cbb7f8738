import { context, metrics, SpanKind, SpanStatusCode, trace, type Attributes, type Span, type TracerProvider, type MeterProvider } from '@opentelemetry/api'
import type { Client, ClientEvents } from '@wildcall/sdk'
import { errorType, providerName, repairAttributes, responseAttributes, serverAttributes } from './attributes'
import { inputMessages, outputMessages, toJson } from './messages'

/**
 * Options of {@link instrument}.
 *
 * @example
 * ```ts
 * const options: InstrumentOptions = { tracerProvider: provider, captureContent: process.env.NODE_ENV !== 'production' }
 * ```
 */
export interface InstrumentOptions {
  /** Where the spans go. Default: the global tracer provider (`trace.getTracerProvider()`). */
  tracerProvider?: TracerProvider | undefined
  /** Where the duration and token metrics go. Default: the global meter provider. */
  meterProvider?: MeterProvider | undefined
  /**
   * Record message content: `gen_ai.input.messages`, `gen_ai.output.messages`, tool arguments and
   * results, error messages. Default `false`: they may hold personal data. Credentials never appear
   * (the client redacts them before any event).
   */
  captureContent?: boolean | undefined
}

interface StepSpans {
  span: Span
  provider: string
  chat?: Span
  /** What the chat span's metrics are recorded with (set when it starts). */
  metric?: Attributes
  /** Macro actions that ran, waiting for the tool span they belong under. */
  actions: Array<[ClientEvents['action'], number]>
}

const NAME = '@wildcall/otel'
const VERSION = '0.1.0'
// Buckets the conventions give for gen_ai.client.inference.duration (seconds).
const DURATION_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92]

/**
 * Emits OpenTelemetry spans and metrics for every step of `client`, named as the current GenAI
 * semantic conventions name them: a `chat {model}` CLIENT span per HTTP request to the model, under
 * a `wildcall.step` span for the whole step (retries and repairs as its events), an
 * `execute_tool {name}` span for the tool's run, and the `gen_ai.client.inference.duration` and
 * `gen_ai.client.inference.usage.*` metrics. Reads the client's events only (each carries its
 * step's `callId`, so concurrent calls stay apart). Returns a function that stops it.
 *
 * @example
 * ```ts
 * import { instrument } from '@wildcall/otel'
 * const stop = instrument(client, { tracerProvider, meterProvider })
 * await client.invoke(messages, { AgentOutput })   // spans: wildcall.step › chat qwen3-max, execute_tool AgentOutput
 * stop()
 * ```
 */
export function instrument(client: Client, options: InstrumentOptions = {}): () => void {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(NAME, VERSION)
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(NAME, VERSION)
  const content = options.captureContent === true
  const duration = meter.createHistogram('gen_ai.client.inference.duration', { unit: 's', description: 'GenAI client inference operation duration.', advice: { explicitBucketBoundaries: DURATION_BUCKETS } })
  const tokens = (kind: string) => meter.createCounter(`gen_ai.client.inference.usage.${kind}`, { unit: '{token}' })
  const [inputTokens, outputTokens, cachedTokens, reasoningTokens] = ['input_tokens', 'output_tokens', 'cache_read.input_tokens', 'reasoning.output_tokens'].map(tokens)
  const steps = new Map<string, StepSpans>()

  const fail = (span: Span, error: unknown) => {
    const type = errorType(error)
    span.setAttribute('error.type', type)
    span.setStatus({ code: SpanStatusCode.ERROR, message: content && error instanceof Error ? error.message : type })
  }

  const handlers: { [K in keyof ClientEvents]?: (event: ClientEvents[K]) => void } = {
    request({ callId, attempt, url, body }) {
      let step = steps.get(callId)
      const model = typeof body.model === 'string' ? body.model : client.model
      const provider = step?.provider ?? providerName(url, client.adapters)
      if (!step) {
        const attributes: Attributes = { 'wildcall.call.id': callId, 'gen_ai.provider.name': provider, 'gen_ai.request.model': model, 'wildcall.adapters': [...client.adapters] }
        if (body.stream === true) attributes['gen_ai.request.stream'] = true
        step = { span: tracer.startSpan('wildcall.step', { kind: SpanKind.INTERNAL, attributes }), provider, actions: [] }
        steps.set(callId, step)
      }
      const metric: Attributes = { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': provider, 'gen_ai.request.model': model, ...serverAttributes(url) }
      const attributes: Attributes = { ...metric, 'wildcall.call.id': callId, 'wildcall.attempt': attempt }
      const maxTokens = body.max_tokens ?? body.max_completion_tokens
      if (typeof maxTokens === 'number') attributes['gen_ai.request.max_tokens'] = maxTokens
      if (typeof body.temperature === 'number') attributes['gen_ai.request.temperature'] = body.temperature
      if (body.stream === true) attributes['gen_ai.request.stream'] = true
      if (content) attributes['gen_ai.input.messages'] = toJson(inputMessages(body.messages))
      step.chat?.end()
      step.metric = metric
      step.chat = tracer.startSpan(`chat ${model}`, { kind: SpanKind.CLIENT, attributes }, trace.setSpan(context.active(), step.span))
    },

    response(event) {
      const { callId, usage, rawResponse, error, durationMs, status } = event
      const step = steps.get(callId)
      const span = step?.chat
      if (!step || !span) return
      step.chat = undefined
      const attributes = responseAttributes(event)
      span.setAttributes(attributes)
      // The HTTP semantic conventions' name for it; absent when no response came.
      if (status !== undefined) span.setAttribute('http.response.status_code', status)
      if (content) {
        const output = outputMessages(isRecord(rawResponse) ? rawResponse.choices : undefined)
        if (output) span.setAttribute('gen_ai.output.messages', output)
      }
      if (error !== undefined) fail(span, error)
      span.end()
      const metric: Attributes = { ...step.metric }
      const model = attributes['gen_ai.response.model']
      if (model !== undefined) metric['gen_ai.response.model'] = model
      const tokenMetric: Attributes = { ...metric, 'gen_ai.token.modality': 'unknown' }
      if (error !== undefined) metric['error.type'] = attributes['error.type']
      duration.record(durationMs / 1000, metric)
      // Input and output are recorded for every request, failed ones too (0 when no usage came), as the conventions ask.
      inputTokens!.add(usage.promptTokens ?? 0, tokenMetric)
      outputTokens!.add(usage.completionTokens ?? 0, tokenMetric)
      if (usage.cachedTokens !== undefined) cachedTokens!.add(usage.cachedTokens, tokenMetric)
      if (usage.reasoningTokens !== undefined) reasoningTokens!.add(usage.reasoningTokens, tokenMetric)
    },

    retry({ callId, attempt, maxAttempts, error, delayMs }) {
      steps.get(callId)?.span.addEvent('wildcall.retry', { 'wildcall.attempt': attempt, 'wildcall.max_attempts': maxAttempts, 'error.type': error.type, 'wildcall.retry.delay_ms': delayMs })
    },

    fix({ callId, attempt, codes }) {
      steps.get(callId)?.span.addEvent('wildcall.repair', { 'wildcall.attempt': attempt, ...repairAttributes(codes) })
    },

    action(event) {
      if (event.callId) steps.get(event.callId)?.actions.push([event, Date.now()])
    },

    tool({ callId, name, toolCallId, input, output, error, durationMs }) {
      const step = steps.get(callId)
      if (!step) return
      const end = Date.now()
      const attributes: Attributes = { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': name, 'gen_ai.tool.call.id': toolCallId, 'gen_ai.tool.type': 'function' }
      if (content) {
        attributes['gen_ai.tool.call.arguments'] = toJson(input)
        if (error === undefined) attributes['gen_ai.tool.call.result'] = toJson(output)
      }
      const span = tracer.startSpan(`execute_tool ${name}`, { kind: SpanKind.INTERNAL, attributes, startTime: end - durationMs }, trace.setSpan(context.active(), step.span))
      const parent = trace.setSpan(context.active(), span)
      // The macro tool's chosen action, as a child of the tool's run.
      for (const [action, at] of step.actions.splice(0)) {
        const child = tracer.startSpan(`execute_tool ${action.name}`, { kind: SpanKind.INTERNAL, startTime: at - action.durationMs, attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': action.name, 'gen_ai.tool.type': 'function', ...(content ? { 'gen_ai.tool.call.arguments': toJson(action.input) } : {}) } }, parent)
        if (action.error !== undefined) fail(child, action.error)
        child.end(at)
      }
      if (error !== undefined) fail(span, error)
      span.end(end)
    },

    done({ callId, result, error }) {
      const step = steps.get(callId)
      if (!step) return
      steps.delete(callId)
      step.chat?.end()
      if (result) {
        step.span.setAttribute('wildcall.attempts', result.attempts)
        step.span.setAttribute('wildcall.fix.codes', result.fixes)
      } else fail(step.span, error)
      step.span.end()
    },
  }

  const entries = Object.entries(handlers) as Array<[keyof ClientEvents, (event: ClientEvents[keyof ClientEvents]) => void]>
  for (const [type, handler] of entries) client.events.on(type, handler)
  return () => {
    for (const [type, handler] of entries) client.events.off(type, handler)
    // Steps still running when stopped: end what was started rather than leak it.
    for (const step of steps.values()) {
      step.chat?.end()
      step.span.end()
    }
    steps.clear()
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
