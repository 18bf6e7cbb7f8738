import type { ChatMessage } from '../types'

/** What {@link checkHistory} requires of a history besides the OpenAI pairing rules. */
export interface CheckHistoryOptions {
  /** Fields every assistant turn with tool calls must carry (e.g. `['reasoning_content']` for DeepSeek thinking). */
  messageFields?: readonly string[]
  /** Fields the first tool call of every assistant turn must carry (e.g. `['extra_content']` for Gemini 3). */
  toolCallFields?: readonly string[]
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Checks a chat history the way strict servers do, and returns what is wrong (empty when it is well
 * formed): every tool call has an id and a JSON string of arguments; every `role: 'tool'` message
 * answers a call of the assistant turn just before it; every call is answered before the next
 * non-tool message; and the provider fields a family needs echoed are there. Plain Node: use it in
 * a scripted server to refuse a bad history as the real API would.
 *
 * @example
 * ```ts
 * const server = await startScriptedServer({
 *   script: (request) => {
 *     const problems = checkHistory(request.body.messages, { messageFields: ['reasoning_content'] })
 *     return problems.length > 0 ? { status: 400, body: { error: { message: problems.join('; ') } } } : { body: nextAnswer() }
 *   },
 * })
 * ```
 */
export function checkHistory(messages: unknown, options: CheckHistoryOptions = {}): string[] {
  if (!Array.isArray(messages)) return ['messages is not an array']
  const problems: string[] = []
  let open: Set<string> | undefined
  let openAt = -1
  const closeOpen = (index: number) => {
    if (open && open.size > 0) problems.push(`messages[${openAt}]: tool call(s) ${[...open].join(', ')} have no tool message before messages[${index}]`)
    open = undefined
  }
  messages.forEach((message: unknown, index) => {
    if (!isRecord(message) || typeof message.role !== 'string') {
      problems.push(`messages[${index}]: not a message with a role`)
      return
    }
    const at = `messages[${index}]`
    if (message.role === 'tool') {
      const id = message.tool_call_id
      if (typeof id !== 'string' || id === '') problems.push(`${at}: tool message without tool_call_id`)
      else if (!open?.has(id)) problems.push(`${at}: tool message answers "${id}", which the assistant turn before it did not call`)
      else open.delete(id)
      if (typeof message.content !== 'string' && !Array.isArray(message.content)) problems.push(`${at}: tool message without content`)
      return
    }
    closeOpen(index)
    if (message.role !== 'assistant' || !Array.isArray(message.tool_calls) || message.tool_calls.length === 0) return
    open = new Set()
    openAt = index
    for (const field of options.messageFields ?? []) {
      if (message[field] === undefined || message[field] === null) problems.push(`${at}: assistant turn with tool calls lacks "${field}"`)
    }
    ;(message.tool_calls as unknown[]).forEach((call, position) => {
      const where = `${at}.tool_calls[${position}]`
      if (!isRecord(call) || !isRecord(call.function)) {
        problems.push(`${where}: not a function call`)
        return
      }
      if (typeof call.id !== 'string' || call.id === '') problems.push(`${where}: no id`)
      else open!.add(call.id)
      if (typeof call.function.name !== 'string' || call.function.name === '') problems.push(`${where}: no function name`)
      const args = call.function.arguments
      if (typeof args !== 'string' || !isJsonObjectText(args)) problems.push(`${where}: arguments are not a JSON object string`)
      if (position === 0) for (const field of options.toolCallFields ?? []) if (call[field] === undefined) problems.push(`${where}: lacks "${field}"`)
    })
  })
  closeOpen(messages.length)
  return problems
}

function isJsonObjectText(text: string): boolean {
  try {
    return isRecord(JSON.parse(text))
  } catch {
    return false
  }
}
