import { defineAdapter } from '@wildcall/sdk'
import { checkHistory, contentResponse, toolCallResponse } from '@wildcall/sdk/testing'

// What the scripted server answers, in order. It is NOT a model: these are replies written by hand
// in the shapes real models send, including two common misbehaviours the repair layer fixes and one
// transient server failure the retry loop absorbs.

const usage = (prompt, completion) => ({ prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion })

const step1 = {
  evaluation_previous_goal: 'Nothing done yet: this is the first step.',
  memory: 'Task: find trail shoes and report the first result with its price.',
  next_goal: 'Type "trail shoes" into the search box [1].',
  action: { input_text: { index: 1, text: 'trail shoes' } },
}
const step2 = {
  evaluation_previous_goal: 'Success: the query is in the search box.',
  memory: 'Query typed. Next: run the search.',
  next_goal: 'Click the Search button [2].',
  action: { click_element_by_index: { index: 2 } },
}
const step3 = {
  evaluation_previous_goal: 'Success: 2 results are listed.',
  memory: 'Results: Trail Runner 2 ($89) first, Summit Hiker GTX ($149).',
  next_goal: 'Open the first result [3] to confirm it is in stock.',
  action: { click_element_by_index: { index: 3 } },
}
const step4 = {
  evaluation_previous_goal: 'Success: the product page of Trail Runner 2 is open and it is in stock.',
  memory: 'First result: Trail Runner 2, $89, in stock.',
  next_goal: 'Report the answer.',
  action: { done: { text: 'The first result for "trail shoes" is Trail Runner 2 at $89, in stock.', success: true } },
}

/** The replies, one per HTTP request (retries included), with a note of what each one shows. */
export const scriptedReplies = [
  {
    note: 'Hermes markup: the call is written into content inside <tool_call> tags, no tool_calls',
    reply: {
      body: contentResponse(`<tool_call>\n${JSON.stringify({ name: 'AgentOutput', arguments: step1 })}\n</tool_call>`, { usage: usage(412, 96) }),
    },
  },
  {
    note: 'double-encoded arguments: a JSON string inside the JSON string',
    reply: { body: toolCallResponse('AgentOutput', JSON.stringify(JSON.stringify(step2)), { usage: usage(498, 71) }) },
  },
  {
    note: 'a transient 503 (the model is overloaded): the SDK retries it',
    reply: { status: 503, headers: { 'retry-after-ms': '150' }, body: { error: { message: 'The model is overloaded. Please try again.', type: 'server_error' } } },
  },
  {
    note: 'a clean call with its reasoning in reasoning_content, which the next request must echo',
    reply: {
      body: toolCallResponse('AgentOutput', step3, {
        usage: usage(571, 88),
        message: { reasoning_content: 'Two results; the first is the cheaper one, open it to check stock.' },
      }),
    },
  },
  {
    note: 'a clean call with the reasoning in reasoning_content',
    reply: {
      body: toolCallResponse('AgentOutput', step4, {
        usage: usage(640, 102),
        message: { reasoning_content: 'The product page confirms the price and stock, so I can answer.' },
      }),
    },
  },
]

/**
 * The scripted "family": like DeepSeek's or Kimi's thinking mode, it needs the `reasoning_content`
 * of its tool-calling answers sent back in the history. Declaring it is all an adapter does for that:
 * `result.messages` then carries it.
 */
export const scriptedFamilyAdapter = defineAdapter({
  name: 'scripted-thinking',
  match: { models: ['scripted-demo'] },
  echoFields: { message: ['reasoning_content'] },
})

/**
 * The script to give `startScriptedServer`: the replies in order, but first the history each request
 * carries is checked as a strict server checks it — every tool message answers a call of the
 * assistant turn before it, every call is answered, and every answer that carried reasoning has it
 * echoed. A bad history gets the 400 a real API would send.
 */
export function createScript() {
  // What each reply's tool call carried as reasoning, by call id.
  const reasoningByCall = new Map()
  return (request, index) => {
    const history = request.body.messages
    const problems = checkHistory(history)
    for (const message of history) {
      const id = message.role === 'assistant' ? message.tool_calls?.[0]?.id : undefined
      if (reasoningByCall.has(id) && message.reasoning_content !== reasoningByCall.get(id)) problems.push(`the assistant turn of call ${id} does not echo its reasoning_content`)
    }
    if (problems.length > 0) return { status: 400, body: { error: { message: `Invalid history: ${problems.join('; ')}`, type: 'invalid_request_error' } } }
    const { reply } = scriptedReplies[Math.min(index, scriptedReplies.length - 1)]
    const message = reply.body?.choices?.[0]?.message
    if (message?.reasoning_content && message.tool_calls) reasoningByCall.set(message.tool_calls[0].id, message.reasoning_content)
    return reply
  }
}
