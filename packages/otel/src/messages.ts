// Chat-completions messages in the conventions' JSON schema for gen_ai.input.messages and
// gen_ai.output.messages: `{ role, parts: [{ type: 'text' | 'reasoning' | 'tool_call' | 'tool_call_response', … }] }`.
// Only built when the app opted in to content capture.

type Part = Record<string, unknown>

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {}
}

/** JSON text of a value (span attributes hold no structures); a value JSON cannot hold becomes its string. */
export function toJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null'
  } catch {
    return String(value)
  }
}

function contentParts(content: unknown): Part[] {
  if (typeof content === 'string') return content ? [{ type: 'text', content }] : []
  // Images, audio and files keep their type, not their (often huge) payload.
  return Array.isArray(content) ? content.map((part) => (record(part).type === 'text' ? { type: 'text', content: record(part).text } : { type: String(record(part).type) })) : []
}

function parseArguments(text: unknown): unknown {
  if (typeof text !== 'string') return text
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

function messageParts(message: Record<string, unknown>): Part[] {
  if (message.role === 'tool') return [{ type: 'tool_call_response', id: message.tool_call_id, response: message.content }]
  const parts: Part[] = []
  const reasoning = message.reasoning_content ?? message.reasoning
  if (typeof reasoning === 'string' && reasoning) parts.push({ type: 'reasoning', content: reasoning })
  parts.push(...contentParts(message.content))
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : []
  for (const call of calls) {
    const fn = record(record(call).function)
    parts.push({ type: 'tool_call', id: record(call).id, name: fn.name, arguments: parseArguments(fn.arguments) })
  }
  return parts
}

/** The request's messages as `gen_ai.input.messages` parts. */
export function inputMessages(messages: unknown): unknown[] {
  return Array.isArray(messages) ? messages.map((message) => ({ role: record(message).role, parts: messageParts(record(message)) })) : []
}

/** The response's choices as `gen_ai.output.messages` (JSON text), or undefined without choices. */
export function outputMessages(choices: unknown): string | undefined {
  if (!Array.isArray(choices)) return undefined
  return toJson(choices.map((choice) => ({ role: 'assistant', parts: messageParts(record(record(choice).message)) })))
}
