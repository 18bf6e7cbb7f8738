import type { ChatResponse } from '../types'
import type { ScriptedReply } from './scripted-server'
import { sseChunks } from './scripted-server'

/**
 * The same answer as a whole response, streamed the way OpenAI-compatible servers stream it: the
 * message's text fields and provider fields in a first delta, each tool call's id, name and provider
 * fields in a delta of its own with the arguments in two pieces, then the finish reason and the usage.
 * Lets one scripted answer serve both `invoke()` and `stream()`.
 *
 * @example
 * ```ts
 * const answer = toolCallResponse('done', { text: 'ok' })
 * const server = await startScriptedServer({ script: (request) => (request.body.stream ? streamedReply(answer) : { body: answer }) })
 * ```
 */
export function streamedReply(response: ChatResponse): ScriptedReply {
  const choice = response.choices[0]
  const { tool_calls: calls, ...message } = choice?.message ?? {}
  const base = { id: response.id ?? 'chatcmpl-stream', object: 'chat.completion.chunk', created: response.created ?? 1_700_000_000, model: response.model ?? 'scripted' }
  const events: unknown[] = [{ ...base, choices: [{ index: 0, delta: message, finish_reason: null }] }]
  for (const [index, call] of (calls ?? []).entries()) {
    const { function: fn, ...rest } = call
    const text = typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? {})
    const half = Math.ceil(text.length / 2)
    events.push({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ ...rest, index, function: { name: fn.name, arguments: text.slice(0, half) } }] }, finish_reason: null }] })
    events.push({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: text.slice(half) } }] }, finish_reason: null }] })
  }
  events.push({ ...base, choices: [{ index: 0, delta: {}, finish_reason: choice?.finish_reason ?? 'stop' }] })
  if (response.usage) events.push({ ...base, choices: [], usage: response.usage })
  return { chunks: sseChunks(events) }
}
