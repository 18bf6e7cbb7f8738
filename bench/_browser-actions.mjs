// The 8-action browser tool set the benchmarks share (defaults and ranges included on purpose).
import { z } from 'zod'

export function browserActions(defineTool) {
  const ok = async (input) => input
  return {
    done: defineTool({
      description: 'Complete the task and report the result to the user',
      inputSchema: z.object({ text: z.string().describe('Summary for the user'), success: z.boolean().default(true) }),
      execute: ok,
    }),
    wait: defineTool({
      description: 'Wait for the page to settle',
      inputSchema: z.object({ seconds: z.number().min(0).max(10).default(1) }),
      execute: ok,
    }),
    ask_user: defineTool({
      description: 'Ask the user a question and wait for the answer',
      inputSchema: z.object({ question: z.string() }),
      execute: ok,
    }),
    click_element_by_index: defineTool({
      description: 'Click the interactive element with this index',
      inputSchema: z.object({ index: z.number().int().min(0) }),
      execute: ok,
    }),
    input_text: defineTool({
      description: 'Type text into the input element with this index',
      inputSchema: z.object({ index: z.number().int().min(0), text: z.string(), clear: z.boolean().default(true) }),
      execute: ok,
    }),
    select_dropdown_option: defineTool({
      description: 'Select an option of the dropdown with this index by its visible text',
      inputSchema: z.object({ index: z.number().int().min(0), text: z.string() }),
      execute: ok,
    }),
    scroll: defineTool({
      description: 'Scroll the page or an element vertically',
      inputSchema: z.object({
        down: z.boolean().default(true),
        num_pages: z.number().min(0.1).max(10).default(1),
        index: z.number().int().min(0).optional().describe('Element to scroll; the page when absent'),
      }),
      execute: ok,
    }),
    scroll_horizontally: defineTool({
      description: 'Scroll the page or an element horizontally',
      inputSchema: z.object({ right: z.boolean().default(true), pixels: z.number().int().min(0).max(5000).default(300) }),
      execute: ok,
    }),
  }
}

export const messages = [
  { role: 'system', content: 'You are a browser agent. Act with exactly one tool call per step.' },
  { role: 'user', content: 'Find the price of the blue kettle on the shop page and report it.' },
  { role: 'assistant', content: null, tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'AgentOutput', arguments: '{"action":{"input_text":{"index":2,"text":"blue kettle"}}}' } }] },
  { role: 'tool', tool_call_id: 'call_0', content: 'Typed "blue kettle" into element 2.' },
  { role: 'user', content: '[0]<a>Home</a> [1]<a>Shop</a> [2]<input value="blue kettle"> [3]<button>Search</button> [4]<div>Blue kettle — 39.90 EUR</div>' },
]
