import type { ChatMessage } from '../types'

const isAssistant = (message: ChatMessage): boolean => typeof message === 'object' && message !== null && message.role === 'assistant'
const callsTools = (message: ChatMessage): boolean => Array.isArray(message.tool_calls) && message.tool_calls.length > 0

/**
 * Makes the assistant turns of a history valid for a family that reads `reasoning_content` back
 * (DeepSeek, Kimi): with thinking on, every tool-calling turn carries it — `''` where the turn was
 * written while thinking was off, since these servers refuse a tool-calling turn without it; with
 * thinking off it is dropped, as such a model never reads it and it only costs prompt tokens.
 * Returns `messages` itself when nothing changes; changed turns are copies (the caller's history is
 * never modified).
 *
 * @example
 * ```ts
 * patchRequest(body) {
 *   body.messages = patchHistoryReasoning(body.messages, thinkingOn)
 * },
 * ```
 */
export function patchHistoryReasoning(messages: ChatMessage[], thinking: boolean): ChatMessage[] {
  if (!Array.isArray(messages)) return messages
  const needsChange = (message: ChatMessage) =>
    isAssistant(message) && (thinking ? callsTools(message) && typeof message.reasoning_content !== 'string' : 'reasoning_content' in message)
  if (!messages.some(needsChange)) return messages
  return messages.map((message) => {
    if (!needsChange(message)) return message
    if (thinking) return { ...message, reasoning_content: '' }
    const { reasoning_content: _dropped, ...rest } = message
    return rest as ChatMessage
  })
}
