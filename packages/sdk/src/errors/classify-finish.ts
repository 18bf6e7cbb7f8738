/**
 * What a finish reason means for the step.
 *
 * @example
 * ```ts
 * // An adapter hook; `undefined` defers to the next adapter and then to the default classification.
 * classifyFinish(reason): FinishClass | undefined {
 *   return reason === 'eot_id' ? 'ok' : undefined
 * },
 * ```
 */
export type FinishClass =
  /** The model finished normally (a call may or may not be present). */
  | 'ok'
  /** Output hit the token limit: `output_truncated`, never repaired or executed. */
  | 'truncated'
  /** A safety filter stopped the output: `content_filter`. */
  | 'filtered'
  /** The provider says the call itself was malformed (Gemini): retryable `invalid_schema`. */
  | 'malformed'
  /** The provider failed while generating (`error`, `insufficient_system_resource`): retryable `server_error`. */
  | 'server_error'
  /** A reason nobody knows: `invalid_schema`. */
  | 'unknown'

// Keys are compared without case, spaces, `_` or `-`, so `tool_calls`, `TOOL_CALLS`, `toolCalls` and
// `tool-calls` are one reason. Families are recognised by the words in them, so a spelling nobody
// listed (`tool_call`, `end_of_turn`, `max_new_tokens`, `moderation`) still lands in the right class.
// A null written out as text by a Python or JavaScript server ("None", "null") says no reason too.
// The reasons that begin with stop, end, eos or eot (`stop`, `end_turn`, `stop_sequence`, `eos_token`)
// are ENDED's, below.
const OK = new Set(['toolcalls', 'toolcall', 'functioncall', 'functioncalls', 'tooluse', 'finished', 'finish', 'complete', 'completed', 'done', 'requiresaction', 'null', 'none', 'nil', 'undefined', ''])
const TRUNCATED = /length|maxtokens|maxoutput|maxnewtokens|tokenlimit|outputlimit|contextwindow|^max$/
const FILTERED = /filter|safety|sensitive|prohibit|recitation|refus|block|spii|moderat|harm|violation|language|policy|guardrail|toxic/
const MALFORMED = /malformed|unexpectedtoolcall|invalidtoolcall|invalidfunctioncall/
// Generation that the server cut short or that failed (`network_error`, `aborted`, `timeout`): the
// call may be incomplete, so it is never executed, but another try can succeed.
const FAILED = /error|fail|abort|cancel|interrupt|timeout|timedout/
// `stop`, `stopped`, `end_turn`, `eot`, and any other spelling (`stop_word`, `end_of_text`, `eos_reached`):
// a normal end.
const ENDED = /^(?:stop|end|eos|eot)/
/**
 * The default meaning of a `finish_reason`. Adapters' `classifyFinish` run first.
 *
 * @example
 * ```ts
 * classifyFinish('MAX_TOKENS') // 'truncated'
 * classifyFinish('end_of_turn') // 'ok'
 * ```
 */
export function classifyFinish(reason: string | null | undefined): FinishClass {
  if (reason === null || reason === undefined) return 'ok'
  if (typeof reason !== 'string') return 'unknown'
  // The two reasons of nearly every answer, without the normalising below.
  if (reason === 'tool_calls' || reason === 'stop') return 'ok'
  const key = reason.toLowerCase().replace(/[\s_-]+/g, '')
  if (OK.has(key)) return 'ok'
  // DeepSeek's `insufficient_system_resource` (`error`, `server_error` and the like are FAILED's, below).
  if (key === 'insufficientsystemresource') return 'server_error'
  if (MALFORMED.test(key)) return 'malformed'
  if (FILTERED.test(key)) return 'filtered'
  if (TRUNCATED.test(key)) return 'truncated'
  if (FAILED.test(key)) return 'server_error'
  if (ENDED.test(key)) return 'ok'
  return 'unknown'
}
