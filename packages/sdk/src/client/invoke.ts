import type { Emitter } from 'mitt'
import type { Adapter, AdapterContext, ErrorContext, MatchContext } from '../adapters/types'
import { classifyFinish } from '../errors/classify-finish'
import { classifyHttpError, refusesTools } from '../errors/classify-http'
import { errorMessage, InvokeError, isAbortError, isInvokeError } from '../errors/invoke-error'
import { runHook } from '../adapters/run-hook'
import { isPlainObject } from '../repair/coerce'
import { isRecord } from '../util/is-record'
import type { Reader } from '../repair/reader'
import { repairWithReaders } from '../repair/repair-tool-call'
import { abortReason, type ResolvedRetryOptions } from '../retry/with-retry'
import type { AttemptDetail, InvokeResult } from './invoke-result'
import type { ChatMessage, ChatRequest, ChatResponse, ChatResponseMessage, ToolCall, Usage } from '../types'
import type { ClientEvents } from './client-events'
import type { FinishClass } from '../errors/classify-finish'
import type { Tool, ToolExecuteContext, ToolSet } from '../tool/types'
import { applyFieldChange, changedFields, describeFieldChange, findFieldChanges, instructToCall, snapshotFields, type FieldChange } from './adapt-to-rejected-field'
import { learnMessageFields, sendMessageFields } from './adapt-to-message-field'
import type { MessageFieldRule } from './endpoint-profile'
import { noteLearned } from './profile'
import { assertInvokeInput, buildRequest } from './build-request'
import { buildAssistantTurn, buildToolMessage, generateCallId, toolOutputContent, type ResolvedEchoFields } from './build-history'
import { isReaskable, reaskMessages } from './reask'
import { deadlineError, DEFAULT_DEADLINE_MS } from './deadline'
import { linkRequest, type RequestLink } from './link-request'
import { checkCallOptions, type ClientConfig, type Streaming, type ToolMode } from './config'
import { hermesPrompt, toPromptBody } from './prompt-mode'
import { redact } from './redact'
import type { StreamRun } from './stream-run'
import { emitResponse, listens, newCallId } from './step-events'

/**
 * Options of one `invoke` / `stream` call.
 *
 * @example
 * ```ts
 * const controller = new AbortController() // controller.abort() cancels the request, a backoff and the tool
 * const options: InvokeOptions = { toolChoiceName: 'done', signal: controller.signal, maxTokens: 1024 }
 * const result = await client.invoke(messages, { click, done }, options)
 * ```
 */
export interface InvokeOptions<Name extends string = string> {
  /** Name the tool in `tool_choice` (unless the client disables named choices): one of the tools passed in. */
  toolChoiceName?: Name
  /** Aborts the step: the request, a backoff sleep, and the tool's execution. */
  signal?: AbortSignal
  /** `max_tokens` for this step (overrides the client's). */
  maxTokens?: number
  /**
   * After `invalid_tool_args` or `no_tool_call`, the retry shows the model its failed answer and
   * what was wrong (overrides the client's `reask`; default `true`). With `false` a retry resends the
   * same bytes.
   */
  reask?: boolean
  /** The whole-call deadline for this step (overrides the client's `deadlineMs`; `Infinity` for none). */
  deadlineMs?: number
  /** How tools reach the model in this step (overrides the client's `toolMode`). */
  toolMode?: ToolMode
}

/** What a client holds for every step (built once in `createClient`). */
export interface ClientState {
  config: ClientConfig
  fetch: typeof fetch
  url: string
  headers: Record<string, string>
  retry: ResolvedRetryOptions
  match: MatchContext
  /** Patch order: model adapters, provider adapters, default adapter. */
  chain: Adapter[]
  /** The names of `chain`, in order. */
  adapterNames: readonly string[]
  /** `chain` in response order: providers, then models, then the default. */
  responseChain: Adapter[]
  events: Emitter<ClientEvents>
  /** Every credential the client sends (API key, credential headers and query parameters): redacted from what it reports. */
  secrets: readonly string[]
  /** Changes servers asked for on earlier steps (a field dropped, renamed, or tool_choice 'required'): applied to every later request. */
  fieldChanges: FieldChange[]
  /** The provider fields the adapters need echoed in history. */
  echo: ResolvedEchoFields
  /** Fields of history turns the endpoint asked for (`echo`) or refused (`strip`) on earlier steps. */
  messageFields: Record<string, MessageFieldRule>
  /** The readers of text formats, in the order they run: the config's, the adapters', the default set. */
  readers: readonly Reader[]
  /** `client.stream()` and the reading of stream events a server sends to a plain request (in a core client not given `streaming`, refusals that say to pass it). */
  streaming: StreamingSupport
  /** The endpoint refused tools on an earlier step (`toolMode: 'auto'`): every later step is sent in prompt mode. */
  promptMode: boolean
}

/** What `streaming` (of `@wildcall/sdk/streaming`) carries: the streamed step, and the reader of a body of events. */
export interface StreamingSupport extends Streaming {
  stream(client: ClientState, messages: ChatMessage[], tools: ToolSet, options?: InvokeOptions): StreamRun
  /** A whole body written as stream events (SSE, or JSON lines of chunks) as one response; undefined for any other body. */
  readEvents(step: StepState, response: Response, text: string): ChatResponse | undefined
}

/** Everything one step needs after its request is built. */
export interface StepState {
  client: ClientState
  context: AdapterContext
  tools: ToolSet
  body: ChatRequest
  /** The serialised body (what is sent). */
  payload: string
  /** The body as reported back to the caller: the API key, if echoed anywhere, redacted. */
  rawRequest: ChatRequest
  fixes: string[]
  /** Codes of the request changes a rejection forced (`dropped-parameter:x`): reported on every attempt. */
  requestFixes: string[]
  /** Fields the caller's `transformRequestBody` set: never dropped, whatever the server says. */
  kept: ReadonlySet<string>
  /** How many refusals this step has adapted to (changes learnt on earlier steps do not count). */
  adapted: number
  signal?: AbortSignal
  /** The caller's messages (never modified) and options: a reask rebuilds the body from them. */
  messages: ChatMessage[]
  /** The messages the body was last built from (the caller's, or with a reask's turns). */
  source: ChatMessage[]
  options: InvokeOptions
  /** Every HTTP request of the step so far. */
  details: AttemptDetail[]
  /** The assistant message of the last response completed (what a reask shows the model). */
  answer?: ChatResponseMessage
  /** When the whole call must end (`Date.now()` time, retries included), and the `deadlineMs` it came from. */
  deadlineAt?: number
  deadlineMs?: number
  /** The step's `toolMode`, and whether it is sent in prompt mode. */
  toolMode: ToolMode
  prompt: boolean
  /** The id every event of the step carries, and the attempt under way. */
  callId: string
  attempt: number
}

/** Builds and patches the request of one step; throws `config_error` for bad input or a failing hook. */
export function prepareStep(client: ClientState, messages: ChatMessage[], tools: ToolSet, given: InvokeOptions | undefined, stream: boolean): StepState {
  const options = checkCallOptions(given, stream ? 'client.stream' : 'client.invoke') as InvokeOptions
  assertInvokeInput(messages, tools, options.toolChoiceName)
  const fixes: string[] = []
  // Plain assignments, not conditional spreads: this runs on every step and spreads are slow in V8.
  const { model, modelId, baseURL, host } = client.match
  const context: AdapterContext = { model, modelId, baseURL, host, adapters: client.adapterNames, tools, stream }
  if (client.config.temperature !== undefined) context.temperature = client.config.temperature
  if (options.toolChoiceName !== undefined) context.toolChoiceName = options.toolChoiceName
  const step = { client, context, tools, fixes, adapted: 0, messages, options, details: [] as AttemptDetail[], callId: newCallId(), attempt: 1 } as StepState
  if (options.signal) step.signal = options.signal
  const toolMode = (step.toolMode = options.toolMode ?? client.config.toolMode ?? 'auto')
  step.prompt = toolMode === 'prompt' || (toolMode === 'auto' && client.promptMode)
  const deadlineMs = options.deadlineMs ?? client.config.deadlineMs ?? DEFAULT_DEADLINE_MS
  if (Number.isFinite(deadlineMs)) {
    step.deadlineMs = deadlineMs
    step.deadlineAt = Date.now() + deadlineMs
  }
  patchBody(step, messages)
  return step
}

/** Builds the body of `messages`, lets the adapters, learnt field changes and the caller's transform patch it, and sets it on the step. */
function patchBody(step: StepState, messages: ChatMessage[]): void {
  const { client, context, tools, options } = step
  const { config } = client
  let body = buildRequest({
    model: config.model,
    messages,
    tools,
    toolChoiceName: options.toolChoiceName,
    disableNamedToolChoice: config.disableNamedToolChoice,
    temperature: config.temperature,
    maxTokens: options.maxTokens ?? config.maxTokens,
    stream: context.stream,
  })
  for (const adapter of client.chain) {
    const patch = adapter.patchRequest
    if (patch) body = runHook(adapter, 'patchRequest', () => patch.call(adapter, body, context)) ?? body
  }
  const requestFixes: string[] = step.prompt ? ['prompt-tools'] : []
  body.messages = sendMessageFields(body.messages, client.echo, client.messageFields, requestFixes)
  if (step.prompt) body = toPromptBody(body, client.chain.find((adapter) => adapter.prompt)?.prompt ?? hermesPrompt, options.toolChoiceName)
  const choice = body.tool_choice
  for (const change of client.fieldChanges) {
    const changed = applyFieldChange(body, change)
    if (changed !== body) requestFixes.push(describeFieldChange(change))
    body = changed
  }
  if (choice !== undefined && body.tool_choice === undefined) body = instructToCall(body, context.toolChoiceName)
  const transform = config.transformRequestBody
  let kept: ReadonlySet<string> = NONE
  if (transform) {
    const before = snapshotFields(body)
    try {
      body = transform(body) ?? body
      kept = changedFields(before, body)
    } catch (cause) {
      if (isInvokeError(cause)) throw cause
      throw new InvokeError('config_error', `transformRequestBody threw: ${errorMessage(cause)}`, { cause })
    }
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new InvokeError('config_error', `transformRequestBody (or an adapter's patchRequest) returned ${Array.isArray(body) ? 'an array' : typeof body} instead of the request body object. Mutate the body and return nothing, or return a new body object.`)
  }
  step.requestFixes = requestFixes
  step.kept = kept
  step.source = messages
  setBody(step, body)
}

const NONE: ReadonlySet<string> = new Set()

/** Sets the body a step sends, with its serialised payload and the redacted copy reported back. */
function setBody(step: StepState, body: ChatRequest): void {
  let payload: string
  try {
    payload = JSON.stringify(body)
  } catch (cause) {
    throw new InvokeError('config_error', 'The request body cannot be serialised to JSON (a circular structure or a BigInt in messages or a hook\'s output).', { cause })
  }
  const redacted = redact(payload, step.client.secrets)
  step.body = body
  step.payload = payload
  step.rawRequest = redacted === payload ? body : (JSON.parse(redacted) as ChatRequest)
}

// A server may reject one field after another (`parallel_tool_calls`, then `reasoning_effort`):
// a step adapts at most this many times before the error stands.
const MAX_ADAPTATIONS = 4

/**
 * Adapts the step to a 400/422 that names fields the server does not take or wants: a field of the
 * history turns echoed or stripped, or top-level fields dropped (or renamed, or a named tool_choice
 * made 'required', then none), for this request and every later one of the client. Returns whether
 * the request should be sent again.
 */
function adaptToRejection(step: StepState, error: unknown): boolean {
  if (!isInvokeError(error) || step.adapted >= MAX_ADAPTATIONS) return false
  const { client } = step
  let learned = learnMessageFields(error, step.body.messages, step.source, step.body, client.messageFields)
  for (const change of learned ? [] : findFieldChanges(step.body, error, step.kept)) {
    if (client.fieldChanges.some((known) => known.field === change.field && known.required === change.required)) continue
    client.fieldChanges.push(change)
    learned = true
  }
  if (!learned) return false
  step.adapted++
  patchBody(step, step.source)
  noteLearned(client, step.callId)
  return true
}

const noop = () => {}

/** An ok response whose body is still to be read. */
export interface SentRequest {
  response: Response
  /** The request's own signal and timer: `release` it when done with the body. */
  link: RequestLink
  /** Clears the attempt's timer and abort listener: call it when done with the body. */
  release: () => void
  startedAt: number
}

/**
 * Sends the request of one attempt. Resolves with an ok `Response` (body unread); throws the
 * classified `InvokeError` for a failed status, a network failure or a timeout, and the caller's
 * abort reason on abort. Fetch always gets a signal of the request's own (see {@link linkRequest}).
 */
export async function sendRequest(step: StepState, attempt: number): Promise<SentRequest> {
  const { client, signal } = step
  const link = linkRequest(signal, client.config.timeoutMs, step.deadlineAt)
  client.events.emit('request', { callId: step.callId, attempt, url: client.url, body: step.rawRequest })
  const startedAt = Date.now()
  let response: Response
  try {
    const init: RequestInit = { method: 'POST', headers: step.body.stream ? { ...client.headers, accept: 'text/event-stream' } : client.headers, body: step.payload, signal: link.signal }
    response = await client.fetch(client.url, init)
    // The headers came: the idle gap starts again for the body.
    link.touch()
  } catch (cause) {
    link.release()
    throw transportError(step, cause, link)
  }
  if (typeof response !== 'object' || response === null || typeof response.status !== 'number' || typeof response.text !== 'function') {
    link.release()
    throw new InvokeError('config_error', 'customFetch resolved with something that is not a Response. It must behave like the global fetch.')
  }
  // A fetch that ignores its signal (some custom ones) may still answer after the deadline.
  if (link.stopped()) {
    link.release()
    response.body?.cancel().catch(noop)
    throw transportError(step, undefined, link)
  }
  if (!response.ok) {
    try {
      const text = await readText(step, response, link)
      throw classifyError(step, response.status, response.headers, text, undefined, response.statusText)
    } finally {
      link.release()
    }
  }
  return { response, link, release: link.release, startedAt }
}

/**
 * The error of a request that failed or was stopped: the caller's abort, a timeout, or a network
 * failure, worded by `failed` (a stream that broke off says so).
 */
export function transportError(step: StepState, cause: unknown, link: RequestLink, failed = (detail: string) => `Could not reach ${step.client.url}: ${detail}. Check the base URL and your connection.`): unknown {
  const { signal, client } = step
  if (signal?.aborted) return abortReason(signal)
  const stop = link.stopped()
  if (stop === 'deadline') return deadlineError(step, cause)
  if (stop === 'idle') return new InvokeError('timeout', `No response within timeoutMs (${client.config.timeoutMs} ms). Raise timeoutMs or try again.`, { cause })
  if (isAbortError(cause)) return cause
  const detail = redact(cause instanceof Error ? `${cause.message}${describeCause(cause)}` : String(cause), client.secrets)
  return new InvokeError('network_error', failed(detail), { cause })
}

/** ` (ECONNREFUSED)`: the code or message of an error's cause, as fetch implementations nest it. */
export function describeCause(error: Error): string {
  const inner = (error as { cause?: { code?: unknown; message?: unknown } }).cause
  if (!inner) return ''
  const code = typeof inner.code === 'string' ? inner.code : typeof inner.message === 'string' ? inner.message : ''
  return code ? ` (${code})` : ''
}

/**
 * Reads a body as redacted text; a failure mid-body is a `network_error` (or timeout/abort). Each
 * read re-arms the idle gap, so `timeoutMs` bounds a silence, not a long body that keeps coming.
 */
export async function readText(step: StepState, response: Response, link: RequestLink): Promise<string> {
  try {
    const reader = response.body?.getReader()
    const decoder = new TextDecoder()
    // A custom fetch's response without a stream is read whole.
    let text = reader ? '' : await response.text()
    for (let read; reader && !(read = await reader.read()).done; link.touch()) text += decoder.decode(read.value, { stream: true })
    return redact(text + decoder.decode(), step.client.secrets)
  } catch (cause) {
    throw transportError(step, cause, link)
  }
}

export function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** Classifies a failed status (or a 2xx `{ error }` body), then lets adapters reword it. */
export function classifyError(step: StepState, status: number, headers: Headers, text: string, parsed: unknown = tryParseJson(text), statusText?: string): InvokeError {
  let error = classifyHttpError(status, headers, text, parsed, statusText, step.client.retry.maxRetryAfterMs)
  const base = { ...step.context, status, body: parsed, bodyText: text }
  for (const adapter of step.client.responseChain) {
    const hook = adapter.classifyError
    if (!hook) continue
    const original = error
    const context: ErrorContext = {
      ...base,
      reclassify: (type, explanation, options = {}) => {
        const retryAfterMs = options.retryAfterMs ?? original.retryAfterMs
        return new InvokeError(type, `[${adapter.name}] ${explanation} (${original.message.replace(/^\[wildcall\] /, '')})`, {
          status,
          rawResponse: original.rawResponse,
          cause: original,
          ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
        })
      },
    }
    const replaced = runHook(adapter, 'classifyError', () => hook.call(adapter, original, context))
    // Only an InvokeError may replace the classification: anything else would escape untyped.
    if (isInvokeError(replaced)) {
      error = replaced
      break
    }
  }
  return error
}

/** Adapters in response order: providers, then models, then the default. */
export function responseOrder(chain: Adapter[]): Adapter[] {
  const last = chain[chain.length - 1]
  const rest = chain.slice(0, -1)
  return [...rest.filter((a) => a.kind === 'provider'), ...rest.filter((a) => a.kind !== 'provider'), ...(last ? [last] : [])]
}

// Where providers put each count, first match wins (OpenAI, Anthropic-style, camelCase, DeepSeek's cache hits …).
// Each path split once here (`outer.inner`), not on every response.
const USAGE_PATHS = ([
  ['promptTokens', 'prompt_tokens input_tokens promptTokens'],
  ['completionTokens', 'completion_tokens output_tokens completionTokens'],
  ['totalTokens', 'total_tokens totalTokens'],
  ['cachedTokens', 'prompt_tokens_details.cached_tokens prompt_cache_hit_tokens input_tokens_details.cached_tokens cache_read_input_tokens'],
  ['reasoningTokens', 'completion_tokens_details.reasoning_tokens output_tokens_details.reasoning_tokens reasoning_tokens'],
] as const).map(([key, paths]) => [key, paths.split(' ').map((path) => path.split('.') as [string, string?])] as const)

/** Normalises the usage block of any provider; a count it does not report stays `undefined`. */
export function normalizeUsage(usage: unknown): Usage {
  const result: Usage = {}
  if (!isPlainObject(usage)) return result
  for (const [key, paths] of USAGE_PATHS) {
    for (const [head, tail] of paths) {
      const outer = usage[head]
      const value = tail === undefined ? outer : isPlainObject(outer) ? outer[tail] : undefined
      if (typeof value === 'number' && Number.isFinite(value)) {
        result[key] = value
        break
      }
    }
  }
  if (result.totalTokens === undefined && result.promptTokens !== undefined && result.completionTokens !== undefined) result.totalTokens = result.promptTokens + result.completionTokens
  return result
}

const USAGE_KEYS = USAGE_PATHS.map(([key]) => key)

/** The usage of several attempts added up; a count no attempt reported stays `undefined`. */
export function sumUsage(details: readonly AttemptDetail[]): Usage {
  const total: Usage = {}
  for (const detail of details) {
    for (const key of USAGE_KEYS) {
      const value = detail.usage[key]
      if (value !== undefined) total[key] = (total[key] ?? 0) + value
    }
  }
  return total
}

const FINISH_ERRORS: Record<Exclude<FinishClass, 'ok'>, (reason: string) => [InvokeError['type'], string]> = {
  truncated: (r) => ['output_truncated', `The model ran out of output tokens (finish_reason "${r}"); the cut call was not executed. Raise maxTokens or shorten the task.`],
  filtered: (r) => ['content_filter', `The provider's safety filter stopped the answer (finish_reason "${r}"). Rephrase the request.`],
  malformed: (r) => ['invalid_schema', `The provider reports a malformed function call (finish_reason "${r}"). Retrying usually helps.`],
  server_error: (r) => ['server_error', `The provider failed while generating (finish_reason "${r}"). Retrying usually helps.`],
  unknown: (r) => ['invalid_schema', `Unknown finish_reason "${r}": the answer cannot be trusted.`],
}

/**
 * Brings near-misses of the chat-completions shape into it (only when the shape is off, so a clean
 * response is untouched): `choices` as one object (`choices-object`), a choice carrying `delta`
 * (a stream chunk's shape) instead of `message` (`delta-as-message`), the completions API's `text`
 * (`completion-text`), a choice that is itself the message (`choice-as-message`), one `message`
 * and no `choices` (Ollama's and Cohere's own shapes: `message-as-choice`), and a message whose
 * `content` is the call's object rather than text (`object-content`).
 */
function normalizeShape(parsed: ChatResponse, fixes: string[]): ChatResponse {
  if (!isPlainObject(parsed)) return parsed
  let choices: unknown = parsed.choices
  if (choices === undefined && isPlainObject(parsed.message)) {
    const body = parsed as Record<string, unknown>
    choices = [{ index: 0, message: parsed.message, finish_reason: body.finish_reason ?? body.done_reason ?? body.stop_reason ?? null }]
    fixes.push('message-as-choice')
  } else if (isPlainObject(choices) && ('message' in choices || 'delta' in choices || 'text' in choices)) {
    choices = [choices]
    fixes.push('choices-object')
  }
  if (!Array.isArray(choices)) return parsed
  const first: unknown = choices[0]
  if (!isPlainObject(first)) return choices === parsed.choices ? parsed : { ...parsed, choices: choices as ChatResponse['choices'] }
  let message = first.message
  if (!isPlainObject(message)) {
    if (isPlainObject(first.delta)) {
      message = first.delta
      fixes.push('delta-as-message')
    } else if (typeof first.text === 'string') {
      message = { role: 'assistant', content: first.text }
      fixes.push('completion-text')
    } else if ('tool_calls' in first || 'content' in first || 'function_call' in first) {
      const { tool_calls, content, function_call } = first
      message = { role: 'assistant', content, tool_calls, function_call }
      fixes.push('choice-as-message')
    }
  }
  if (isPlainObject(message) && isPlainObject(message.content)) {
    message = { ...message, content: JSON.stringify(message.content) }
    fixes.push('object-content')
  }
  if (message !== first.message) choices = [{ ...first, message }, ...choices.slice(1)]
  return choices === parsed.choices ? parsed : { ...parsed, choices: choices as ChatResponse['choices'] }
}

/**
 * Everything after the HTTP response: shape check, finish classification, adapters' fixResponse,
 * repair, validation, execution.
 */
export async function completeStep(step: StepState, parsed: ChatResponse): Promise<InvokeResult> {
  const { client, context, fixes } = step
  let response = normalizeShape(parsed, fixes)
  if (typeof response !== 'object' || response === null || !Array.isArray(response.choices)) {
    throw new InvokeError('invalid_schema', 'The response has no "choices" array: the server does not speak the OpenAI chat-completions format.', { rawResponse: parsed })
  }
  if (response.choices.length === 0) {
    throw new InvokeError('no_tool_call', 'The response has an empty "choices" array: the model returned nothing.', { rawResponse: parsed })
  }
  if (typeof response.choices[0] !== 'object' || response.choices[0] === null) {
    throw new InvokeError('invalid_schema', 'The first entry of "choices" is not an object: the server does not speak the OpenAI chat-completions format.', { rawResponse: parsed })
  }
  const reason = response.choices[0].finish_reason
  let finish: FinishClass | undefined
  for (const adapter of client.chain) {
    const hook = adapter.classifyFinish
    if (hook) finish = runHook(adapter, 'classifyFinish', () => hook.call(adapter, reason, context))
    if (finish) break
  }
  // An adapter answering something that is not a FinishClass must not crash the lookup below.
  if (finish !== undefined && !Object.hasOwn(FINISH_ERRORS, finish) && finish !== 'ok') finish = 'unknown'
  finish ??= classifyFinish(reason)
  const limit = step.body.max_tokens ?? step.body.max_completion_tokens
  const completion = response.usage?.completion_tokens
  if (finish === 'ok' && typeof limit === 'number' && typeof completion === 'number' && completion >= limit) finish = 'truncated'
  if (finish !== 'ok') {
    const [type, message] = FINISH_ERRORS[finish](String(reason))
    throw new InvokeError(type, message, { rawResponse: parsed })
  }
  for (const adapter of client.responseChain) {
    const hook = adapter.fixResponse
    if (hook) response = runHook(adapter, 'fixResponse', () => hook.call(adapter, response, context)) ?? response
  }
  const message = response.choices?.[0]?.message
  if (typeof message !== 'object' || message === null) {
    throw new InvokeError('invalid_schema', 'The first choice has no "message" object.', { rawResponse: parsed })
  }
  step.answer = message
  const repaired = repairWithReaders(message, step.tools, step.context.toolChoiceName === undefined ? {} : { toolChoiceName: step.context.toolChoiceName }, client.readers)
  fixes.push(...repaired.fixes)
  if (fixes.length > 0) client.events.emit('fix', { callId: step.callId, attempt: step.attempt, codes: [...fixes] })
  const { tool } = repaired
  const modelId = repaired.toolCall.id
  // One id everywhere: the result, the tool's context and the history.
  const toolCall: ToolCall = { id: modelId || generateCallId(), name: repaired.toolCall.name, args: repaired.toolCall.args }
  const turn = buildAssistantTurn({ message, textBefore: repaired.textBefore, fromReasoning: repaired.fixes.includes('call-in-reasoning'), modelId }, toolCall, client.echo)
  const toolResult = tool.execute ? await executeTool(step, tool, toolCall, turn, parsed) : undefined
  return {
    toolCall,
    toolResult,
    messages: [turn, buildToolMessage(toolCall, toolOutputContent(tool, toolResult))],
    usage: sumUsage(step.details),
    fixes: [...fixes],
    dropped: repaired.dropped,
    adapters: [...context.adapters],
    rawRequest: step.rawRequest,
    rawResponse: parsed,
    attempts: step.details.length,
    attemptDetails: [...step.details],
  }
}

/**
 * Runs the tool of a validated call, once. A throw ends the step with `tool_execution_error`,
 * retryable only when the tool (or, for a macro tool, the chosen action) opted in with
 * `retryOnError`; it carries the call and the history to show the model its error.
 */
async function executeTool(step: StepState, tool: Tool, toolCall: ToolCall, turn: ChatMessage, rawResponse: unknown): Promise<unknown> {
  const { signal, client, callId, attempt } = step
  if (signal?.aborted) throw abortReason(signal)
  const startedAt = performance.now()
  let output: unknown
  let error: unknown
  try {
    const executeContext: ToolExecuteContext = { emit: client.events.emit, toolCallId: toolCall.id, callId, attempt }
    if (signal) executeContext.signal = signal
    return (output = await tool.execute!(toolCall.args, executeContext))
  } catch (cause) {
    error = cause
    if (signal?.aborted) throw abortReason(signal)
    if (isAbortError(cause)) throw cause
    const retryable = retriesOnError(tool, toolCall.args)
    // A tool's own InvokeError keeps its type, but a tool that ran is never run again unless it opted in.
    const type = isInvokeError(cause) ? cause.type : 'tool_execution_error'
    const detail = errorMessage(cause).replace(/^\[wildcall\] /, '')
    const messages = [turn, buildToolMessage(toolCall, `Error: ${detail}`)]
    throw new InvokeError(type, `Tool "${toolCall.name}" failed: ${detail}`, {
      cause,
      retryable: retryable && (!isInvokeError(cause) || cause.retryable),
      toolCall,
      messages,
      rawResponse,
      ...(isInvokeError(cause) && cause.status !== undefined ? { status: cause.status } : {}),
    })
  } finally {
    if (listens(client.events, 'tool')) client.events.emit('tool', { callId, attempt, name: toolCall.name, toolCallId: toolCall.id, input: toolCall.args, output, error, durationMs: performance.now() - startedAt })
  }
}

/** Whether a tool (or the action a macro tool's input chose) opted in to whole-step retries. */
function retriesOnError(tool: Tool, args: unknown): boolean {
  if (tool.retryOnError === true) return true
  const action = tool.macro && isPlainObject(args) && isPlainObject(args.action) ? Object.keys(args.action)[0] : undefined
  return action !== undefined && Object.hasOwn(tool.macro!.actions, action) && tool.macro!.actions[action]!.retryOnError === true
}

/**
 * The model's raw output carried by an error (Groq's 400 `tool_use_failed` with
 * `failed_generation`), as the assistant response it should have been: the repair layer may still
 * turn it into a call.
 */
export function failedGenerationResponse(error: unknown): ChatResponse | undefined {
  if (!isInvokeError(error)) return undefined
  const raw = error.rawResponse
  const body = Array.isArray(raw) ? raw[0] : raw
  const carried = isRecord(body) ? body.error : undefined
  const generation = isRecord(carried) ? carried.failed_generation : undefined
  if (typeof generation !== 'string' || generation.trim() === '') return undefined
  return { choices: [{ index: 0, message: { role: 'assistant', content: generation }, finish_reason: 'stop' }] }
}

/** Wraps anything that escaped classification, so callers only ever see an InvokeError or their abort. */
export function ensureInvokeError(error: unknown, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted) return abortReason(signal)
  if (isInvokeError(error) || isAbortError(error)) return error
  return new InvokeError('unknown', `Unexpected failure while handling the response: ${errorMessage(error)}`, { cause: error })
}

/**
 * One attempt of a step: send, read the body with `read` (whole, or as a stream), recover a
 * failed generation the server reported as an error, then complete. Only an `InvokeError` or the
 * caller's abort escapes.
 */
export async function runAttempt(step: StepState, attempt: number, read: (sent: SentRequest) => Promise<ChatResponse>): Promise<InvokeResult> {
  let parsed: ChatResponse
  let detail: AttemptDetail
  step.attempt = attempt
  for (;;) {
    // Aborted before sending: no request, so no response event either (`sendRequest` relies on this check).
    if (step.signal?.aborted) throw abortReason(step.signal)
    step.fixes.length = 0
    step.fixes.push(...step.requestFixes)
    const startedAt = Date.now()
    detail = { status: undefined, usage: {}, rawResponse: undefined, durationMs: 0 }
    step.details.push(detail)
    try {
      const sent = await sendRequest(step, attempt)
      detail.status = sent.response.status
      parsed = await read(sent)
      detail.durationMs = Date.now() - startedAt
      detail.rawResponse = parsed
      detail.usage = normalizeUsage(isPlainObject(parsed) ? parsed.usage : undefined)
      emitResponse(step, detail)
      break
    } catch (error) {
      detail.durationMs = Date.now() - startedAt
      const failure = ensureInvokeError(error, step.signal)
      if (isInvokeError(failure)) recordFailure(detail, failure)
      emitResponse(step, detail, failure)
      // The endpoint refuses tools: the same step again in prompt mode, and every later one (not a retry).
      if (step.toolMode === 'auto' && !step.prompt && refusesTools(error)) {
        step.prompt = step.client.promptMode = true
        noteLearned(step.client, step.callId)
        patchBody(step, step.messages)
        continue
      }
      if (adaptToRejection(step, error)) continue
      const recovered = failedGenerationResponse(error)
      if (!recovered) throw withEvidence(step, failure)
      step.fixes.push('failed-generation')
      parsed = recovered
      break
    }
  }
  try {
    return await completeStep(step, parsed)
  } catch (error) {
    const failure = ensureInvokeError(error, step.signal)
    if (!isInvokeError(failure)) throw failure
    if (failure.rawResponse === undefined) setField(failure, 'rawResponse', detail.rawResponse ?? parsed)
    detail.error = failure
    if (isReaskable(failure) && step.answer && (step.options.reask ?? step.client.config.reask ?? true)) {
      patchBody(step, [...step.messages, ...reaskMessages(failure, step.answer, step.tools, step.context.toolChoiceName, step.client.echo)])
    }
    throw withEvidence(step, failure)
  }
}

function recordFailure(detail: AttemptDetail, error: InvokeError): void {
  detail.error = error
  if (detail.status === undefined && error.status !== undefined) detail.status = error.status
  if (error.rawResponse !== undefined) detail.rawResponse = error.rawResponse
  if (error.usage !== undefined) detail.usage = error.usage
}

/** Puts what the step spent so far on an error that ends an attempt. */
function withEvidence(step: StepState, error: unknown): unknown {
  if (isInvokeError(error)) setField(error, 'usage', sumUsage(step.details))
  return error
}

// InvokeError's fields are read-only to users; the pipeline fills in what it learns later.
function setField<K extends 'usage' | 'rawResponse'>(error: InvokeError, key: K, value: InvokeError[K]): void {
  ;(error as { -readonly [P in K]: InvokeError[P] })[key] = value
}
