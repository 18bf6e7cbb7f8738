// Imports in the order that bundles smallest: module order moves the gzip size (node scripts/check-size.mjs).
import { collectEchoFields } from './collect-echo-fields'
import { defaultRegistry, matchedAdapterNames, resolveAdapters } from '../adapters/registry'
import { normalizeModelName } from '../adapters/normalize-model-name'
import { builtInReaders, jsonReaders } from '../repair/extract-calls'
import { collectSecrets } from './redact'
import { composeReaders, type Reader } from '../repair/reader'
import { runAttempt } from './invoke'
import { prepareStep } from './prepare-step'
import { responseOrder } from './send-request'
import { loadProfile, readProfile } from './profile'
import { debugEvents, emitDone, emitRetry } from './step-events'
import { readWholeBody } from './read-body'
import { streaming } from './streaming'
import { withoutStreaming } from './without-streaming'
import mitt, { type Emitter } from 'mitt'
import { resolveRetryOptions, withRetry } from '../retry/with-retry'
import { validateConfig, type ClientConfig } from './config'
import { resolveEndpoint } from './resolve-endpoint'
import type { ChatMessage } from '../types'
import type { ClientEvents } from './client-events'
import type { InvokeResultOf, ToolName, ToolSet, ToolSetInput, ToolSetOutput } from '../tool/types'
import type { ClientState, InvokeOptions, StepState, StreamingSupport } from './client-state'
import type { EndpointProfile } from './endpoint-profile'
import type { StreamRun } from './stream-run'

/**
 * A configured connection to one model.
 *
 * @example
 * ```ts
 * const client: Client = createClient({ baseURL, model: 'qwen3-max', apiKey })
 * client.events.on('retry', ({ attempt, delayMs }) => console.warn(`attempt ${attempt} failed, retrying in ${delayMs} ms`))
 * const { toolCall } = await client.invoke(messages, { AgentOutput }, { toolChoiceName: 'AgentOutput' })
 * ```
 */
export interface Client {
  /**
   * Sends one step and resolves with exactly one validated, executed tool call. The result is typed
   * by the tools: `toolCall` is a union discriminated by `name`, and `toolChoiceName` takes only
   * their names.
   */
  invoke<Tools extends ToolSet>(messages: ChatMessage[], tools: Tools, options?: InvokeOptions<NoInfer<ToolName<Tools>>>): Promise<InvokeResultOf<Tools>>
  /**
   * Sends one step as a stream: iterate the run for reasoning, text and argument deltas and `partial`
   * previews of the arguments; `run.result` resolves with exactly what `invoke` would. A
   * `@wildcall/sdk/core` client needs `streaming` (from `@wildcall/sdk/streaming`) in its config.
   */
  stream<Tools extends ToolSet>(messages: ChatMessage[], tools: Tools, options?: InvokeOptions<NoInfer<ToolName<Tools>>>): ClientStreamRun<Tools>
  /** Typed events: `request`, `response`, `retry`, `fix`, `tool`, `error`, `action`, `learned`, `done`; each carries the step's `callId`. */
  readonly events: Emitter<ClientEvents>
  /** Names of the adapters that matched this client, in patch order; the default `openai` adapter only for GPT models. */
  readonly adapters: readonly string[]
  /** The model name as configured. */
  readonly model: string
  /** What this client learnt about its endpoint so far (a fresh plain object on each read): save it and pass it back as `createClient({ profile })`. */
  readonly profile: EndpointProfile
}

/** What `client.stream()` returns for these tools: events with `partial` args typed, the result as `invoke`'s. */
type ClientStreamRun<Tools extends ToolSet> = StreamRun<ToolSetInput<Tools>, ToolSetOutput<Tools>, ToolName<Tools>, InvokeResultOf<Tools>>

const warnedTemperature = new WeakSet<object>()

/**
 * Creates a client for one OpenAI-compatible endpoint and model. Throws `InvokeError('config_error')`
 * naming the field to fix.
 *
 * @example
 * ```ts
 * const client = createClient({ baseURL: 'https://api.openai.com/v1', model: 'gpt-4.1-mini', apiKey })
 * const { toolCall, toolResult } = await client.invoke(messages, { AgentOutput }, { toolChoiceName: 'AgentOutput' })
 * ```
 */
export function createClient(config: ClientConfig): Client {
  return createClientWith(config, builtInReaders, streaming as StreamingSupport)
}

/**
 * `createClient` of `@wildcall/sdk/core`: the same client, whose default readers read JSON only.
 * Markup readers come from `config.readers` and the matched adapters' `readers`; `stream()` (and
 * reading a streamed body in `invoke`) from `config.streaming`.
 *
 * @example
 * ```ts
 * import { createClient } from '@wildcall/sdk/core'
 * import { hermesReader } from '@wildcall/sdk/readers'
 * import { streaming } from '@wildcall/sdk/streaming'
 * const client = createClient({ baseURL, model: 'my-hermes-model', readers: [hermesReader], streaming })
 * ```
 */
export function createCoreClient(config: ClientConfig): Client {
  return createClientWith(config, jsonReaders, withoutStreaming)
}

// OpenAI and Azure OpenAI honour strict function calling (Structured Outputs); an adapter may say its provider does.
const STRICT_HOSTS = /(?:^|\.)(?:api\.openai|openai\.azure|cognitiveservices\.azure)\.com$/

function createClientWith(config: ClientConfig, defaultReaders: readonly Reader[], defaultStreaming: StreamingSupport): Client {
  validateConfig(config)
  const { url, baseURL, host, query } = resolveEndpoint(config.baseURL, config.query)
  const match = { model: config.model, modelId: normalizeModelName(config.model), baseURL, host }
  const chain = resolveAdapters(config.registry ?? defaultRegistry, config.adapters ?? [], match)
  const events = mitt<ClientEvents>()
  if (config.temperature !== undefined && config.logger && !warnedTemperature.has(config.logger)) {
    warnedTemperature.add(config.logger)
    config.logger.warn('[wildcall] "temperature" is deprecated: adapters tune each model family. It is still sent as configured.')
  }
  const headers = mergeHeaders({ 'content-type': 'application/json', accept: 'application/json' }, config.headers)
  // Spelled as by convention, so a customFetch reading `init.headers.Authorization` finds it.
  if (config.apiKey) withoutHeader(headers, 'authorization').Authorization = `Bearer ${config.apiKey}`
  const customFetch = config.customFetch ?? globalThis.fetch.bind(globalThis)
  const state: ClientState = {
    config,
    fetch: customFetch,
    url,
    headers,
    secrets: collectSecrets(config.apiKey, config.headers, query),
    retry: resolveRetryOptions(config.retry, config.maxRetries),
    match,
    chain,
    adapterNames: Object.freeze(matchedAdapterNames(chain, match)),
    responseChain: responseOrder(chain),
    events,
    fieldChanges: [],
    messageFields: {},
    promptMode: false,
    strictTools: STRICT_HOSTS.test(host) || chain.some((adapter) => adapter.strict),
    echo: collectEchoFields(chain),
    readers: composeReaders([...(config.readers ?? []), ...chain.flatMap((adapter) => adapter.readers ?? [])], defaultReaders),
    // Validated above: only the value of `@wildcall/sdk/streaming` passes.
    streaming: (config.streaming as StreamingSupport | undefined) ?? defaultStreaming,
  }
  loadProfile(state, config.profile)
  debugEvents(state)
  return {
    events,
    adapters: state.adapterNames,
    model: config.model,
    get profile() {
      return readProfile(state)
    },
    // The pipeline validates `args` with the tool's own schema and returns what its execute returned,
    // so the typed view of the result is sound; the casts only carry it through the untyped core.
    stream<Tools extends ToolSet>(messages: ChatMessage[], tools: Tools, options?: InvokeOptions) {
      return state.streaming.stream(state, messages, tools, options) as ClientStreamRun<Tools>
    },
    async invoke<Tools extends ToolSet>(messages: ChatMessage[], tools: Tools, options?: InvokeOptions) {
      let step: StepState | undefined
      let result
      try {
        const current = (step = prepareStep(state, messages, tools, options, false))
        const attempt = (number: number) => runAttempt(current, number, (sent) => readWholeBody(current, sent))
        // Attempt 1 awaited here, the retry loop entered only once it failed: a clean step has one async level less.
        try {
          result = await attempt(1)
        } catch (error) {
          result = await withRetry(attempt, state.retry, { signal: current.options.signal, onRetry: (info) => emitRetry(current, info), deadlineAt: current.deadlineAt }, { error })
        }
      } catch (error) {
        emitDone(state, step, undefined, error)
        throw error
      }
      emitDone(state, step, result)
      return result as InvokeResultOf<Tools>
    },
  }
}

/** `base` with `extra` over it, a name given in another case replacing the default rather than doubling it. */
function mergeHeaders(base: Record<string, string>, extra: Record<string, string> | undefined): Record<string, string> {
  const merged = { ...base }
  for (const [name, value] of Object.entries(extra ?? {})) withoutHeader(merged, name)[name] = value
  return merged
}

function withoutHeader(headers: Record<string, string>, name: string): Record<string, string> {
  for (const key of Object.keys(headers)) if (key.toLowerCase() === name.toLowerCase()) delete headers[key]
  return headers
}
