import type { Reader } from '../repair/reader'
import type { PromptForm } from '../client/prompt-mode'
import type { InvokeError, InvokeErrorType } from '../errors/invoke-error'
import type { ChatRequest, ChatResponse, ChatStreamChunk } from '../types'
import type { FinishClass } from '../errors/classify-finish'
import type { ToolSet } from '../tool/types'

/**
 * What an adapter's `match` sees: the client's model and base URL.
 *
 * @example
 * ```ts
 * // createClient({ baseURL: 'https://openrouter.ai/api/v1', model: 'Qwen/Qwen3-Max' }) is matched with
 * // { model: 'Qwen/Qwen3-Max', modelId: 'qwen3-max', baseURL: 'https://openrouter.ai/api/v1', host: 'openrouter.ai' }
 * match: (context: MatchContext) => context.modelId.startsWith('qwen3') && context.host === 'openrouter.ai',
 * ```
 */
export interface MatchContext {
  /** The model name as the user typed it, e.g. `Qwen/Qwen3-Max`. */
  model: string
  /** {@link normalizeModelName} of `model`, e.g. `qwen3-max`. */
  modelId: string
  baseURL: string
  /** Lower-case host of `baseURL`, e.g. `openrouter.ai`. */
  host: string
}

/**
 * What an adapter's hooks see on each step.
 *
 * @example
 * ```ts
 * patchRequest(body, context: AdapterContext) {
 *   if (context.temperature === undefined) body.temperature = 0.6 // the family's default, only when the user set none
 *   if (context.stream) delete body.stream_options
 * },
 * ```
 */
export interface AdapterContext extends MatchContext {
  /** Names of every adapter that matched this client, in patch order. */
  adapters: readonly string[]
  /** The temperature the user configured, if any (adapters must not override a user's choice). */
  temperature?: number
  /** The tool the request names in `tool_choice`, if any. */
  toolChoiceName?: string
  /** The tools of this step. */
  tools: ToolSet
  /** True for `client.stream()`. */
  stream: boolean
}

/**
 * What an adapter's `classifyError` sees besides the classified error.
 *
 * @example
 * ```ts
 * classifyError(error, context: ErrorContext) {
 *   if (context.status === 400 && /maximum context/i.test(context.bodyText)) return context.reclassify('context_length', 'Shorten the history.')
 * },
 * ```
 */
export interface ErrorContext extends AdapterContext {
  status: number
  /** The parsed error body (or `undefined` when it was not JSON). */
  body: unknown
  bodyText: string
  /**
   * Builds the replacement error for `classifyError`: the new type, this adapter's explanation
   * (prefixed `[adapter-name]`), and the original classification kept in the message and as `cause`
   * (status, raw response and `retryAfterMs` carried over unless overridden).
   *
   * @example
   * ```ts
   * classifyError(error, context) {
   *   if (/insufficient balance/i.test(context.bodyText)) return context.reclassify('quota_exceeded', 'Top up your account.')
   * }
   * ```
   */
  reclassify(type: InvokeErrorType, explanation: string, options?: { retryAfterMs?: number }): InvokeError
}

/**
 * The `match` of an {@link Adapter}: pattern lists or a predicate.
 *
 * @example
 * ```ts
 * const byModel: AdapterMatch = { models: ['acme-', /^acme\d/] } // against the normalised model name
 * const byHost: AdapterMatch = { hosts: ['api.acme.test'] } // that host and its subdomains, any port
 * const custom: AdapterMatch = (context) => context.modelId.startsWith('acme') && context.host !== 'localhost'
 * ```
 */
export type AdapterMatch =
  | { models?: ReadonlyArray<string | RegExp>; hosts?: ReadonlyArray<string | RegExp> }
  | ((context: MatchContext) => boolean)

/**
 * The provider fields an adapter's family needs echoed in the history (see {@link Adapter.echoFields}).
 *
 * @example
 * ```ts
 * // DeepSeek's thinking mode refuses a history whose tool-calling turns lack their reasoning.
 * const echo: EchoFields = { message: ['reasoning_content'] }
 * // Gemini 3 keeps its thought signature on the tool call entry.
 * const gemini: EchoFields = { toolCall: ['extra_content'] }
 * ```
 */
export interface EchoFields {
  /** Fields of the assistant message. */
  message?: readonly string[]
  /** Fields of the executed call's `tool_calls` entry. */
  toolCall?: readonly string[]
}

/**
 * Patches requests to one model family or provider and fixes its responses.
 * Hooks may mutate and return nothing, or return a new object. They must never mutate `body.tools`
 * entries in place (those are cached and frozen): copy what you change.
 *
 * @example
 * ```ts
 * const acme: Adapter = defineAdapter({
 *   name: 'acme',
 *   kind: 'provider',
 *   match: { hosts: ['api.acme.test'] },
 *   patchRequest(body) { delete body.stream_options }, // Acme's server rejects stream_options
 * })
 * ```
 */
export interface Adapter {
  name: string
  /** `model` adapters match the model name, `provider` adapters the base URL host. Default `model`. */
  kind?: 'model' | 'provider'
  /**
   * What the adapter handles. `models` are tested against the normalised model name
   * ({@link MatchContext.modelId}); a string is a prefix (normalised the same way, so `'gpt-5.2'` and
   * `'gpt-52'` are equal), a RegExp is tested as is. `hosts` are tested against the base URL's host:
   * a string matches that host and its subdomains on any port, a RegExp is tested against the host
   * with and without its port. Either list matching is enough. A function decides alone and counts as
   * the least specific match.
   */
  match: AdapterMatch
  /**
   * By default only the most specific, highest-precedence matching adapter of each kind is used, so
   * a registered adapter overrides another for the same model. `compose: true` applies this adapter
   * alongside that one instead (e.g. a small add-on patch on top of a family adapter).
   */
  compose?: boolean
  patchRequest?(body: ChatRequest, context: AdapterContext): ChatRequest | void
  fixResponse?(response: ChatResponse, context: AdapterContext): ChatResponse | void
  classifyFinish?(reason: string | null | undefined, context: AdapterContext): FinishClass | undefined
  /**
   * Fixes one parsed chunk of a `client.stream()` response (a family's stream quirks) before it is
   * assembled; runs in response order, like `fixResponse`. May mutate and return nothing.
   */
  fixChunk?(chunk: ChatStreamChunk, context: AdapterContext): ChatStreamChunk | void
  /**
   * Provider fields of an assistant answer that the next request must send back in the history
   * (`result.messages` keeps them; everything else the provider returned is left out): `message`
   * names fields of the assistant message (`reasoning_content`, `reasoning_details`), `toolCall`
   * fields of its tool call entry (Gemini's `extra_content` with the thought signature).
   */
  echoFields?: EchoFields
  /** Reclassify an HTTP or body error in this family's wording; return `undefined` to keep it. */
  classifyError?(error: InvokeError, context: ErrorContext): InvokeError | undefined
  /**
   * Readers of the family's own text formats, tried before the default set (e.g. the Qwen adapter's
   * Hermes and `<function=…>` readers). They let a `@wildcall/sdk/core` client read the family's
   * markup; a built-in reader listed here runs at its usual place.
   */
  readers?: readonly Reader[]
  /**
   * How the family is prompted when its endpoint refuses `tools` (prompt mode): the tools block, the
   * call text it asks for, and how tool results are written. Default: the Hermes / Qwen form
   * (`hermesPrompt`), which a family whose template is Hermes-like need not repeat. The call text
   * must be read back by the family's readers with identical values (the conformance kit checks it).
   */
  prompt?: PromptForm
  /**
   * The provider honours strict function calling (`function.strict: true`): with `strict: 'auto'`
   * (the default) its tools are sent strict, as to OpenAI and Azure OpenAI hosts.
   */
  strict?: boolean
}
