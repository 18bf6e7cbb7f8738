// The replies of the scripted server the browser example talks to. It is NOT a model: replies are
// written by hand in the shapes real models send, including two the repair layer has to fix. A
// request with `stream: true` gets the same reply as server-sent events, in small delayed chunks.
import { contentResponse, sseChunks, toolCallResponse } from '@wildcall/sdk/testing'

const step1 = {
  evaluation_previous_goal: 'Nothing done yet: first step.',
  memory: 'Task: find trail shoes and report the first result.',
  next_goal: 'Type "trail shoes" into the search box [1].',
  action: { input_text: { index: 1, text: 'trail shoes' } },
}
const step2 = {
  evaluation_previous_goal: 'Success: the query is typed.',
  memory: 'Query typed; the search has not run yet.',
  next_goal: 'Click the Search button [2].',
  action: { click_element_by_index: { index: 2 } },
}
const step3 = {
  evaluation_previous_goal: 'Success: the results are listed.',
  memory: 'First result: Trail Runner 2, $89.',
  next_goal: 'Report the first result.',
  action: { done: { text: 'The first result is Trail Runner 2 at $89.', success: true } },
}

/** The three replies, in order, with what each one shows. */
export const shopReplies = [
  { note: 'Hermes markup in content', body: contentResponse(`<tool_call>${JSON.stringify({ name: 'AgentOutput', arguments: step1 })}</tool_call>`) },
  { note: 'double-encoded arguments', body: toolCallResponse('AgentOutput', JSON.stringify(JSON.stringify(step2))) },
  { note: 'a clean call', body: toolCallResponse('AgentOutput', step3) },
]

function pieces(text, count) {
  const size = Math.max(1, Math.ceil(text.length / count))
  const out = []
  for (let start = 0; start < text.length; start += size) out.push(text.slice(start, start + size))
  return out
}

/** The same response as chat-completions stream chunks (content, tool-call arguments, finish, usage). */
export function toStreamChunks(response, delayMs = 15) {
  const choice = response.choices[0]
  const { message } = choice
  const base = { id: response.id, object: 'chat.completion.chunk', created: response.created, model: response.model }
  const events = [{ ...base, choices: [{ index: 0, delta: { role: 'assistant' }, finish_reason: null }] }]
  if (typeof message.content === 'string') {
    for (const piece of pieces(message.content, 8)) events.push({ ...base, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })
  }
  for (const [index, call] of (message.tool_calls ?? []).entries()) {
    events.push({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }, finish_reason: null }] })
    for (const piece of pieces(call.function.arguments, 8)) {
      events.push({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: piece } }] }, finish_reason: null }] })
    }
  }
  events.push({ ...base, choices: [{ index: 0, delta: {}, finish_reason: choice.finish_reason }] })
  events.push({ ...base, choices: [], usage: response.usage })
  return sseChunks(events).map((text) => ({ text, delayMs }))
}

/**
 * The scripted server's script: the page says "Step N" in its prompt and gets the N-th reply (so a
 * second run of the page starts over), streamed when the request asks for a stream.
 */
export function shopScript(request, index) {
  const messages = Array.isArray(request.body?.messages) ? request.body.messages : []
  const prompt = messages.map((message) => (typeof message.content === 'string' ? message.content : '')).join('\n')
  const step = /\bStep (\d+)\b/.exec(prompt)
  const position = step ? Number(step[1]) - 1 : index
  const reply = shopReplies[Math.min(position, shopReplies.length - 1)]
  return request.body && request.body.stream ? { chunks: toStreamChunks(reply.body) } : { body: reply.body }
}
