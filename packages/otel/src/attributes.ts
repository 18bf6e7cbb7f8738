import type { ClientEvents } from '@wildcall/sdk'

export { providerName } from './provider-name'

/**
 * An attribute map: the GenAI semantic-convention names (`gen_ai.*`, `server.*`, `error.type`) and
 * wildcall's own (`wildcall.*`), with values OpenTelemetry accepts.
 *
 * @example
 * ```ts
 * const attributes: GenAiAttributes = { 'gen_ai.usage.input_tokens': 40, 'gen_ai.response.finish_reasons': ['tool_calls'] }
 * ```
 */
export type GenAiAttributes = Record<string, string | number | boolean | string[]>

/**
 * `server.address` and `server.port` of a request URL (the port the scheme implies when none is
 * written; an IPv6 address without its brackets).
 *
 * @example
 * ```ts
 * serverAttributes('https://api.openai.com/v1/chat/completions') // { 'server.address': 'api.openai.com', 'server.port': 443 }
 * ```
 */
export function serverAttributes(url: string): GenAiAttributes {
  const { hostname, port, protocol } = new URL(url)
  return { 'server.address': hostname.startsWith('[') ? hostname.slice(1, -1) : hostname, 'server.port': Number(port) || (protocol === 'http:' ? 80 : 443) }
}

/**
 * `error.type` of an error: wildcall's error type (`rate_limit`, `tool_execution_error` …), else
 * the error's name (`AbortError`, `RangeError`), else `_OTHER`.
 *
 * @example
 * ```ts
 * errorType(new InvokeError('rate_limit', 'slow down')) // 'rate_limit'
 * ```
 */
export function errorType(error: unknown): string {
  const { type, name } = (typeof error === 'object' && error !== null ? error : {}) as { type?: unknown; name?: unknown }
  return typeof type === 'string' ? type : typeof name === 'string' && name ? name : '_OTHER'
}

/**
 * The attributes of one answered (or failed) model request, from the client's `response` event:
 * `gen_ai.response.id` / `model` / `finish_reasons` (`error` when a failure left none),
 * `gen_ai.usage.input_tokens` / `output_tokens` / `cache_read.input_tokens` /
 * `reasoning.output_tokens`, and `error.type`. The same names in spans and in the CLI's reports.
 *
 * @example
 * ```ts
 * client.events.on('response', (event) => console.log(responseAttributes(event)))
 * // { 'gen_ai.response.id': 'chatcmpl-1', 'gen_ai.response.finish_reasons': ['tool_calls'], 'gen_ai.usage.input_tokens': 40, … }
 * ```
 */
export function responseAttributes({ usage, finishReason, rawResponse, error }: Pick<ClientEvents['response'], 'usage' | 'finishReason' | 'rawResponse' | 'error'>): GenAiAttributes {
  const attributes: GenAiAttributes = {}
  const { id, model } = (typeof rawResponse === 'object' && rawResponse !== null ? rawResponse : {}) as { id?: unknown; model?: unknown }
  if (typeof id === 'string') attributes['gen_ai.response.id'] = id
  if (typeof model === 'string') attributes['gen_ai.response.model'] = model
  // A finish reason expected but not received (a failure, a stream cut short) is reported as `error`.
  if (finishReason !== undefined || error !== undefined) attributes['gen_ai.response.finish_reasons'] = [finishReason ?? 'error']
  const counts = [usage.promptTokens, usage.completionTokens, usage.cachedTokens, usage.reasoningTokens]
  ;['input_tokens', 'output_tokens', 'cache_read.input_tokens', 'reasoning.output_tokens'].forEach((key, index) => {
    if (counts[index] !== undefined) attributes[`gen_ai.usage.${key}`] = counts[index]!
  })
  if (error !== undefined) attributes['error.type'] = errorType(error)
  return attributes
}

/**
 * The attributes of a repair: its codes (`wildcall.fix.codes`) and the reader that read the call
 * from the model's text, if one did (`wildcall.reader`).
 *
 * @example
 * ```ts
 * repairAttributes(['content-json', 'reader:json']) // { 'wildcall.fix.codes': ['content-json', 'reader:json'], 'wildcall.reader': 'json' }
 * ```
 */
export function repairAttributes(codes: readonly string[]): GenAiAttributes {
  const attributes: GenAiAttributes = { 'wildcall.fix.codes': [...codes] }
  const reader = codes.find((code) => code.startsWith('reader:'))
  if (reader) attributes['wildcall.reader'] = reader.slice(7)
  return attributes
}
