import type { Adapter } from '../adapters/types'
import type { AdapterRegistry } from '../adapters/registry'
import type { Reader } from '../repair/reader'
import { InvokeError } from '../errors/invoke-error'
import { DEADLINE_RULE, isDeadline } from './deadline'
import type { RetryOptions } from '../retry/with-retry'
import { trimEndOf } from '../text/trim-end-of'
import { isReaderList, isRecord, READER_LIST_RULE } from '../util/is-record'
import type { ChatRequest } from '../types'

/**
 * Where the SDK reports things worth a developer's attention. Silent by default.
 *
 * @example
 * ```ts
 * const warnings: string[] = []
 * const logger: Logger = { warn: (message) => warnings.push(message), debug: (message) => console.debug(message) }
 * const client = createClient({ baseURL, model, logger }) // or logger: console
 * ```
 */
export interface Logger {
  warn(message: string): void
  /** What is useful to trace a step: the adapters that patched the request, the repairs and reader of an answer, retries. Not called when absent. */
  debug?(message: string): void
}

/**
 * Streaming for a `@wildcall/sdk/core` client: the `streaming` value of `@wildcall/sdk/streaming`,
 * passed as it is (its members are internal). `@wildcall/sdk`'s `createClient` always has it.
 *
 * @example
 * ```ts
 * import { createClient } from '@wildcall/sdk/core'
 * import { streaming } from '@wildcall/sdk/streaming'
 * const client = createClient({ baseURL, model, streaming })
 * for await (const event of client.stream(messages, { AgentOutput })) render(event)
 * ```
 */
export interface Streaming {
  readonly name: 'streaming'
}

/**
 * Options of {@link createClient}.
 *
 * @example
 * ```ts
 * // A local Ollama server: no API key, a slow first token, more retries.
 * const config: ClientConfig = { baseURL: 'http://localhost:11434/v1', model: 'qwen3:8b', timeoutMs: 60_000, retry: 4 }
 * const client = createClient(config)
 * ```
 */
export interface ClientConfig {
  /** The OpenAI-compatible base URL, e.g. `https://api.openai.com/v1` (`/chat/completions` is appended). */
  baseURL: string
  /** The model name as the provider spells it, e.g. `qwen3-max`. */
  model: string
  /** Sent as `Authorization: Bearer …` when set; never logged and redacted from errors. */
  apiKey?: string | undefined
  /** Retries after the first attempt. Default 2. Ignored when `retry` is a number or sets `limit`. */
  maxRetries?: number | undefined
  /** A retry count, or full backoff options. */
  retry?: number | RetryOptions | undefined
  /**
   * Abort an HTTP attempt that falls silent this long (a retryable `timeout`, retried within
   * `maxRetries`): it bounds the wait for the response headers, then each silence between two reads
   * of the body (an idle timeout), for `invoke` and `stream()` alike, so a long answer that keeps
   * coming is never cut. Default: none; `deadlineMs` still ends the call.
   */
  timeoutMs?: number | undefined
  /**
   * The whole call's deadline, retries and backoff included: `invoke` and `stream` end with a
   * `timeout` once it passes, even while a server trickles a byte now and then, and no retry starts
   * that could not begin before it. It bounds the wait for the model, not your tool's `execute`.
   * Default 600,000 (10 minutes); `Infinity` for none. A call may override it (`deadlineMs` option).
   */
  deadlineMs?: number | undefined
  /** Extra adapters for this client; they match before registered and built-in ones. */
  adapters?: Adapter[] | undefined
  /** The registry to resolve adapters from. Default: the shared default registry. */
  registry?: AdapterRegistry | undefined
  /**
   * Readers of text formats the model writes its calls in, tried before the matched adapters' own
   * readers and the default set (every built-in reader; with `@wildcall/sdk/core`, JSON only).
   */
  readers?: Reader[] | undefined
  /**
   * `client.stream()` for a `@wildcall/sdk/core` client, and the reading of a body of stream events a
   * server sends to a plain request: pass `streaming` from `@wildcall/sdk/streaming`. Without it a
   * core client's `stream()` throws a `config_error`. `@wildcall/sdk` streams without it.
   */
  streaming?: Streaming | undefined
  /** The last word on the request body: mutate it, or return a new one. A throw is a `config_error`. */
  transformRequestBody?: ((body: ChatRequest) => ChatRequest | void) | undefined
  /** Send `tool_choice: 'required'` instead of naming the tool (for servers that reject named choices). */
  disableNamedToolChoice?: boolean | undefined
  /** The fetch to use. Default: `globalThis.fetch`, bound. */
  customFetch?: typeof fetch | undefined
  /**
   * Extra HTTP headers, e.g. `{ 'api-key': key }` for Azure OpenAI. A header whose name says it
   * carries a credential (`Authorization`, `api-key`, `x-api-key`, a token, a cookie …) is redacted
   * like `apiKey` wherever a server echoes it.
   */
  headers?: Record<string, string> | undefined
  /**
   * Extra query parameters on every request, e.g. `{ 'api-version': '2024-10-21' }` for Azure OpenAI
   * (a query in `baseURL` is kept too: `/chat/completions` goes before it).
   */
  query?: Record<string, string> | undefined
  /** `max_tokens` of each request. */
  maxTokens?: number | undefined
  /**
   * @deprecated Models are tuned by their adapters; a set temperature is still sent, with a one-time warning.
   */
  temperature?: number | undefined
  /** Receives warnings (e.g. deprecations). Default: silent. */
  logger?: Logger | undefined
  /**
   * After `invalid_tool_args` or `no_tool_call`, the retry sends the model its failed answer and a
   * short message saying what was wrong (the field and the problem, or that no call was found, and
   * which tool to call). Default `true`; `false` resends the same bytes. Per call: `invoke(…, { reask })`.
   */
  reask?: boolean | undefined
  /**
   * A profile saved from `client.profile` (the object, or its JSON text; `null` for none): the client
   * starts from what an earlier one learnt about this base URL and model. A corrupt, outdated or
   * foreign profile is ignored, with a warning to `logger` (to `console.warn` without one).
   */
  profile?: import('./endpoint-profile').EndpointProfile | string | null | undefined
  /**
   * How tools reach the model. `'native'`: the request's `tools`. `'prompt'`: no `tools`; they are
   * described in the system message in the model family's own form, past calls and tool results are
   * sent as that form's text, and the answer is read from text. `'auto'` (default): native, until the
   * endpoint refuses tools; then the step is sent again in prompt mode, and so is every later step of
   * the client. Per call: `invoke(…, { toolMode })`.
   */
  toolMode?: ToolMode | undefined
  /**
   * Constrained decoding, where the endpoint can enforce a JSON Schema so that an invalid call cannot
   * be written. `'auto'` (default): strict tools (`function.strict: true`, a strict-compatible copy of
   * each schema) where the endpoint is known to honour them (OpenAI and Azure OpenAI hosts, or an
   * adapter's `strict`), and in prompt mode a `response_format` whose JSON Schema admits exactly one
   * valid call. `true`: strict tools everywhere too. `false`: neither. A refusal of either is learnt
   * (`client.profile`) and not sent again. Per call: `invoke(…, { strict })`.
   */
  strict?: Strict | undefined
}

/**
 * Constrained decoding: see {@link ClientConfig.strict}.
 *
 * @example
 * ```ts
 * const strict: Strict = true // a vLLM server that enforces strict tools
 * const client = createClient({ baseURL: 'http://localhost:8000/v1', model: 'qwen3-8b', strict })
 * ```
 */
export type Strict = 'auto' | boolean

/**
 * How tools reach the model: see {@link ClientConfig.toolMode}.
 *
 * @example
 * ```ts
 * const toolMode: ToolMode = 'prompt' // a local server started without its tool flags
 * const client = createClient({ baseURL: 'http://localhost:8080/v1', model: 'gemma-2-2b-it', toolMode })
 * ```
 */
export type ToolMode = 'native' | 'prompt' | 'auto'

const HEADER_NAME = /^[!#$%&'*+\-.^\w`|~]+$/
// Printable Latin-1 with inner spaces and tabs; leading and trailing whitespace is trimmed by fetch.
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/
const trimHttpWhitespace = (value: string) => trimEndOf(value.replace(/^[\t\n\r ]+/, ''), '\t\n\r ')

function fail(field: string, message: string, where = 'createClient'): never {
  throw new InvokeError('config_error', `${where}: "${field}" ${message}`)
}

type Rule = [field: string, valid: (value: unknown) => boolean, rule: string, showValue?: true]

const wholeNumber = (min: number) => (value: unknown) => Number.isInteger(value) && (value as number) >= min
const isCount = wholeNumber(0)
const isMs = (value: unknown) => typeof value === 'number' && value >= 0 && Number.isFinite(value)
const isFunction = (value: unknown) => typeof value === 'function'
const isBoolean = (value: unknown) => typeof value === 'boolean'
const isStringMap = (value: unknown) => isRecord(value) && Object.values(value).every((item) => typeof item === 'string')
const COUNT_RULE = 'must be a whole number ≥ 0'
const MS_RULE = 'must be a number of milliseconds ≥ 0'
const FUNCTION_RULE = 'must be a function.'
const BOOLEAN_RULE = 'must be true or false.'

// Every optional field's check, in the order they are reported; `showValue` appends `(got …)`.
const RULES: readonly Rule[] = [
  ['maxRetries', isCount, COUNT_RULE, true],
  ['timeoutMs', (value) => typeof value === 'number' && value > 0 && Number.isFinite(value), 'must be a positive number of milliseconds', true],
  ['deadlineMs', isDeadline, DEADLINE_RULE, true],
  ['readers', isReaderList, READER_LIST_RULE],
  ['streaming', (value) => isRecord(value) && isFunction(value.stream) && isFunction(value.readEvents), 'must be the `streaming` export of "@wildcall/sdk/streaming".'],
  ['maxTokens', wholeNumber(1), 'must be a whole number > 0', true],
  ['temperature', (value) => typeof value === 'number' && value >= 0 && value <= 2, 'must be a number from 0 to 2', true],
  ['adapters', Array.isArray, 'must be an array of adapters, e.g. [qwenAdapter()].'],
  ['registry', (value) => isRecord(value) && isFunction(value.list), 'must be made by createAdapterRegistry().'],
  ['transformRequestBody', isFunction, FUNCTION_RULE],
  ['customFetch', isFunction, FUNCTION_RULE],
  ['headers', isStringMap, 'must be an object of string values.'],
  ['query', isStringMap, 'must be an object of string values, e.g. { "api-version": "2024-10-21" }.'],
  ['disableNamedToolChoice', isBoolean, BOOLEAN_RULE],
  ['reask', isBoolean, BOOLEAN_RULE],
  ['toolMode', (value) => ['auto', 'native', 'prompt'].includes(value as string), 'must be "auto", "native" or "prompt"', true],
  ['strict', (value) => value === 'auto' || isBoolean(value), 'must be "auto", true or false', true],
  ['logger', (value) => isRecord(value) && isFunction(value.warn) && (value.debug === undefined || isFunction(value.debug)), 'must be an object with a warn(message) method, e.g. console.'],
]

const RETRY_RULES: readonly Rule[] = [
  ['limit', isCount, COUNT_RULE, true],
  ['baseDelayMs', isMs, MS_RULE, true],
  ['maxDelayMs', isMs, MS_RULE, true],
  ['maxRetryAfterMs', isMs, MS_RULE, true],
  ['factor', (value) => typeof value === 'number' && value >= 1 && Number.isFinite(value), 'must be a number ≥ 1', true],
  ['jitter', isBoolean, BOOLEAN_RULE],
]

function check(record: Record<string, unknown>, rules: readonly Rule[], prefix = '', where?: string): void {
  for (const [field, valid, rule, showValue] of rules) {
    const value = record[field]
    if (value !== undefined && !valid(value)) fail(prefix + field, showValue ? `${rule} (got ${JSON.stringify(value)}).` : rule, where)
  }
}

const CALL_OPTIONS = new Set(['maxTokens', 'deadlineMs', 'reask', 'toolMode', 'strict'])
const isAbortSignal = (value: unknown) => isRecord(value) && typeof value.aborted === 'boolean' && isFunction(value.addEventListener) && isFunction(value.removeEventListener)
// A call's own options, worded as the client's (a plain object as `signal` would fail inside fetch).
const CALL_RULES: readonly Rule[] = [['signal', isAbortSignal, 'must be an AbortSignal, e.g. controller.signal or AbortSignal.timeout(30_000).'], ...RULES.filter(([field]) => CALL_OPTIONS.has(field))]

const CALL_FIELDS = new Set(CALL_RULES.map(([field]) => field))

/** A call's options, checked before anything is sent: `null` counts as none; a wrong one is a `config_error` naming it. */
export function checkCallOptions(options: unknown, where: string): Record<string, unknown> {
  if (options === undefined || options === null) return {}
  if (!isRecord(options)) throw new InvokeError('config_error', `${where}: the options must be an object such as { toolChoiceName: "AgentOutput" } (got ${typeof options}).`)
  // Every step checks its options: the rules run only when one of their fields is there.
  for (const key in options) {
    if (CALL_FIELDS.has(key)) {
      check(options, CALL_RULES, '', where)
      break
    }
  }
  return options
}

/** Validates a client config and throws a `config_error` that names the field and the fix. */
export function validateConfig(config: unknown): asserts config is ClientConfig {
  if (!isRecord(config)) fail('config', 'must be an object such as { baseURL, model, apiKey }.')
  const c = config
  if (typeof c.baseURL !== 'string' || c.baseURL.trim() === '') fail('baseURL', 'is required: the OpenAI-compatible endpoint, e.g. "https://api.openai.com/v1".')
  let url: URL
  try {
    url = new URL(c.baseURL)
  } catch {
    fail('baseURL', `is not a valid URL ("${c.baseURL}"). Use an absolute URL such as "https://api.openai.com/v1".`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail('baseURL', `must use http or https (got "${url.protocol}").`)
  if (typeof c.model !== 'string' || c.model.trim() === '') fail('model', 'is required: the model name as your provider spells it, e.g. "gpt-4.1-mini".')
  if (c.apiKey !== undefined && typeof c.apiKey !== 'string') fail('apiKey', 'must be a string.')
  // fetch would throw a TypeError for such a header, which would look like a network failure.
  if (typeof c.apiKey === 'string' && !HEADER_VALUE.test(trimHttpWhitespace(c.apiKey))) fail('apiKey', 'contains a line break or a character that cannot be sent in an HTTP header. Paste the key again without extra characters.')
  const { retry } = c
  if (typeof retry === 'number') check(c, [['retry', isCount, COUNT_RULE, true]])
  else if (retry !== undefined && !isRecord(retry)) fail('retry', 'must be a number or { limit, baseDelayMs, factor, maxDelayMs, jitter, maxRetryAfterMs }.')
  else if (retry) check(retry, RETRY_RULES, 'retry.')
  check(c, RULES)
  if (c.customFetch === undefined && typeof globalThis.fetch !== 'function') fail('customFetch', 'is required: this runtime has no global fetch.')
  for (const [name, value] of Object.entries(c.headers ?? {})) {
    if (!HEADER_NAME.test(name)) fail(`headers.${name}`, 'is not a valid HTTP header name (letters, digits and -_ only).')
    if (!HEADER_VALUE.test(trimHttpWhitespace(value as string))) fail(`headers.${name}`, 'contains a line break or a character that cannot be sent in an HTTP header.')
  }
}
