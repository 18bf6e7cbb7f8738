// What a client holds for all its steps (`ClientState`), what one step holds (`StepState`), the
// options of a step (`InvokeOptions`), and what streaming support brings (`StreamingSupport`).

import type { Emitter } from 'mitt'
import type { Adapter, AdapterContext, MatchContext } from '../adapters/types'
import type { Reader, ReaderPreview } from '../repair/reader'
import type { ResolvedRetryOptions } from '../retry/with-retry'
import type { ToolSet } from '../tool/types'
import type { ChatMessage, ChatRequest, ChatResponse, ChatResponseMessage } from '../types'
import type { FieldChange } from './adapt-to-rejected-field'
import type { ClientEvents } from './client-events'
import type { ResolvedEchoFields } from './collect-echo-fields'
import type { ClientConfig, Streaming, Strict, ToolMode } from './config'
import type { MessageFieldRule } from './endpoint-profile'
import type { AttemptDetail } from './invoke-result'
import type { StreamRun } from './stream-run'

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
  /** Constrained decoding for this step (overrides the client's `strict`). */
  strict?: Strict
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
  /** Their incremental previews (`previewsOf`), found by the first streamed step. */
  previews?: Array<(from: number) => ReaderPreview>
  /** `client.stream()` and the reading of stream events a server sends to a plain request (in a core client not given `streaming`, refusals that say to pass it). */
  streaming: StreamingSupport
  /** The endpoint refused tools on an earlier step (`toolMode: 'auto'`): every later step is sent in prompt mode. */
  promptMode: boolean
  /** The endpoint is known to honour strict tools (an OpenAI or Azure OpenAI host, or an adapter's `strict`). */
  strictTools: boolean
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
  /** The body as reported back to the caller, credentials redacted: made when first asked for (`reportedRequest`). */
  rawRequest: ChatRequest | undefined
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
