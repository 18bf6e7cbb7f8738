import { contentResponse, toolCallResponse } from '@wildcall/sdk/testing'

// What the scripted server answers, in order. It is NOT a model: replies written by hand in the
// shapes real models send, each one a call of the macro tool whose actions are the MCP server's tools.
export const scriptedReplies = [
  {
    note: 'a clean native call: add_note',
    reply: {
      body: toolCallResponse('AgentOutput', {
        memory: 'The user wants the meeting notes kept and findable.',
        next_goal: 'Save the meeting note.',
        action: { add_note: { title: 'Planning meeting', body: 'Ship the MCP bridge on Friday.', tags: ['work', 'mcp'] } },
      }),
    },
  },
  {
    note: 'Hermes markup in content, a number written as text: search_notes',
    reply: {
      body: contentResponse(
        `<tool_call>\n${JSON.stringify({ name: 'AgentOutput', arguments: { memory: 'Note saved.', next_goal: 'Check it can be found.', action: { search_notes: { query: 'mcp', limit: '3' } } } })}\n</tool_call>`,
      ),
    },
  },
  {
    note: 'an action called as a tool of its own (no macro shell): delete_note of a note that does not exist',
    reply: { body: toolCallResponse('delete_note', { id: 42 }) },
  },
  {
    note: 'the action flattened beside its name: done',
    reply: { body: toolCallResponse('AgentOutput', { memory: 'Found it.', action: 'done', text: 'Saved "Planning meeting" and found it by its tag.' }) },
  },
]

export const script = scriptedReplies.map((entry) => entry.reply)
