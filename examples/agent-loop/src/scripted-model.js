import { contentResponse, toolCallResponse } from '@wildcall/sdk/testing'

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
    note: 'a clean call',
    reply: { body: toolCallResponse('AgentOutput', step3, { usage: usage(571, 88) }) },
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

/** The script to give `startScriptedServer`: the replies in order. */
export const script = scriptedReplies.map((entry) => entry.reply)
