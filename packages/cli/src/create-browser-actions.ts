import { createMacroTool, defineTool } from '@wildcall/sdk'
import { z } from 'zod'

/**
 * The eight browser actions the CLI uses as its default tool set: what a browser agent sends every
 * step, and the shape most tool-call bugs show up in. `execute` only describes the action: the CLI
 * never touches a page.
 */
export function createBrowserActions() {
  return {
    go_to_url: defineTool({
      description: 'Open a URL in the current tab',
      inputSchema: z.object({ url: z.string() }),
      execute: ({ url }) => `would open ${url}`,
    }),
    click_element_by_index: defineTool({
      description: 'Click the element with this index',
      inputSchema: z.object({ index: z.number().int() }),
      execute: ({ index }) => `would click element ${index}`,
    }),
    input_text: defineTool({
      description: 'Type text into the input element with this index',
      inputSchema: z.object({ index: z.number().int(), text: z.string() }),
      execute: ({ index, text }) => `would type ${JSON.stringify(text)} into element ${index}`,
    }),
    scroll: defineTool({
      description: 'Scroll the page down (or up) by a number of pages',
      inputSchema: z.object({ down: z.boolean(), num_pages: z.number().optional() }),
      execute: ({ down, num_pages }) => `would scroll ${down ? 'down' : 'up'} ${num_pages ?? 1} page(s)`,
    }),
    send_keys: defineTool({
      description: 'Send keyboard keys, e.g. "Enter" or "Control+a"',
      inputSchema: z.object({ keys: z.string() }),
      execute: ({ keys }) => `would press ${keys}`,
    }),
    go_back: defineTool({
      description: 'Go back to the previous page',
      inputSchema: z.object({}),
      execute: () => 'would go back',
    }),
    extract_content: defineTool({
      description: 'Extract information from the page for a goal',
      inputSchema: z.object({ goal: z.string() }),
      execute: ({ goal }) => `would extract: ${goal}`,
    }),
    done: defineTool({
      description: 'Finish the task and report the result',
      inputSchema: z.object({ text: z.string(), success: z.boolean().optional() }),
      execute: ({ text }) => `would finish: ${text}`,
    }),
  }
}

/** The name the CLI sends its macro tool under (and names in `tool_choice`). */
export const MACRO_TOOL_NAME = 'AgentOutput'

/** The default tool set of `doctor` and `repair`: one macro tool packing the eight browser actions. */
export function createBrowserAgentTools() {
  return { [MACRO_TOOL_NAME]: createMacroTool(createBrowserActions()) }
}

/** The conversation `doctor` sends: a tiny page and a task with one obvious next action. */
export function createDoctorMessages() {
  return [
    {
      role: 'system',
      content:
        'You are a browser agent. Every step, call the AgentOutput tool exactly once: reflect briefly (evaluation_previous_goal, memory, next_goal) and choose exactly one action.',
    },
    {
      role: 'user',
      content: [
        'Task: search the site for "wildcall".',
        'Current page: https://example.com/',
        'Interactive elements:',
        '[1]<input type="search" placeholder="Search the site">',
        '[2]<button>Search</button>',
        '[3]<a href="/about">About</a>',
        'Previous action: none (first step).',
      ].join('\n'),
    },
  ]
}
