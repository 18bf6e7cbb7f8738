import type { FinishClass } from '../types'

// Keys are compared without case, spaces, `_` or `-`, so `tool_calls`, `TOOL_CALLS`, `toolCalls` and
// `tool-calls` are one reason. Families are recognised by the words in them, so a spelling nobody
// listed (`tool_call`, `end_of_turn`, `max_new_tokens`, `moderation`) still lands in the right class.
const OK = new Set(['toolcalls', 'toolcall', 'functioncall', 'functioncalls', 'stop', 'stopped', 'eos', 'eostoken', 'eot', 'endturn', 'endofturn', 'tooluse', 'stopsequence', 'stoptoken', 'end', 'finished', 'finish', 'complete', 'completed', 'done', ''])
const SERVER = new Set(['error', 'insufficientsystemresource', 'internalerror', 'servererror'])
const TRUNCATED = /length|maxtokens|maxoutput|maxnewtokens|tokenlimit|outputlimit|^max$/
const FILTERED = /filter|safety|sensitive|prohibit|recitation|refus|block|spii|moderat|harm|violation|language|policy/
const MALFORMED = /malformed|unexpectedtoolcall|invalidtoolcall|invalidfunctioncall/

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
  const key = reason.toLowerCase().replace(/[\s_-]+/g, '')
  if (OK.has(key)) return 'ok'
  if (SERVER.has(key)) return 'server_error'
  if (MALFORMED.test(key)) return 'malformed'
  if (FILTERED.test(key)) return 'filtered'
  if (TRUNCATED.test(key)) return 'truncated'
  return 'unknown'
}
