import type { FinishClass } from '../types'

const OK = new Set(['tool_calls', 'function_call', 'stop', 'eos', 'eos_token', 'end_turn', 'tool_use', 'stop_sequence', 'end', 'finished', ''])
const TRUNCATED = new Set(['length', 'max_tokens', 'max_output_tokens', 'model_length', 'token_limit'])
const FILTERED = new Set(['content_filter', 'sensitive', 'safety', 'prohibited_content', 'recitation', 'refusal', 'blocklist', 'spii', 'image_safety', 'language'])
const MALFORMED = new Set(['malformed_function_call', 'unexpected_tool_call'])
const SERVER = new Set(['error', 'insufficient_system_resource'])

/**
 * The default meaning of a `finish_reason`, case-insensitive. Adapters' `classifyFinish` run first.
 *
 * @example
 * ```ts
 * classifyFinish('MAX_TOKENS') // 'truncated'
 * ```
 */
export function classifyFinish(reason: string | null | undefined): FinishClass {
  if (reason === null || reason === undefined) return 'ok'
  if (typeof reason !== 'string') return 'unknown'
  const key = reason.trim().toLowerCase()
  if (OK.has(key)) return 'ok'
  if (TRUNCATED.has(key)) return 'truncated'
  if (FILTERED.has(key)) return 'filtered'
  if (MALFORMED.has(key)) return 'malformed'
  if (SERVER.has(key)) return 'server_error'
  return 'unknown'
}
