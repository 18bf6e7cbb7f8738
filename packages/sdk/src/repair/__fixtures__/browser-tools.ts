import { z } from 'zod'
import { defineTool } from '../../tool/define-tool'

const index = () => z.number().int().min(0).describe('Element index from the page state')

/**
 * The 8-action browser set the corpus, the property test and the benchmarks use: required fields,
 * defaults, ranges, optional fields and one parameterless-by-default action (`wait`).
 */
export function createBrowserTools() {
  return {
    done: defineTool({
      description: 'Finish the task and report the result to the user',
      inputSchema: z.object({ text: z.string().describe('Final answer for the user'), success: z.boolean().default(true) }),
      execute: async (input) => ({ done: input.text }),
    }),
    wait: defineTool({
      description: 'Wait for the page to settle before the next action',
      inputSchema: z.object({ seconds: z.number().int().min(0).max(60).default(3) }),
      execute: async ({ seconds }) => `waited ${seconds}`,
    }),
    ask_user: defineTool({
      description: 'Ask the user a question when the task is ambiguous',
      inputSchema: z.object({ question: z.string() }),
      execute: async ({ question }) => `asked ${question}`,
    }),
    click_element_by_index: defineTool({
      description: 'Click the element with this index',
      inputSchema: z.object({ index: index(), while_holding_ctrl: z.boolean().default(false) }),
      execute: async ({ index }) => `clicked ${index}`,
    }),
    input_text: defineTool({
      description: 'Type text into the input element with this index',
      inputSchema: z.object({ index: index(), text: z.string(), clear: z.boolean().default(true) }),
      execute: async ({ index, text }) => `typed ${text} into ${index}`,
    }),
    select_dropdown_option: defineTool({
      description: 'Select the option with this text in the dropdown with this index',
      inputSchema: z.object({ index: index(), text: z.string() }),
      execute: async ({ index, text }) => `selected ${text} in ${index}`,
    }),
    scroll: defineTool({
      description: 'Scroll the page, or the element with this index, vertically',
      inputSchema: z.object({ down: z.boolean().default(true), num_pages: z.number().min(0.1).max(10).default(1), index: z.number().int().min(0).optional() }),
      execute: async ({ down, num_pages }) => `scrolled ${down ? 'down' : 'up'} ${num_pages}`,
    }),
    scroll_horizontally: defineTool({
      description: 'Scroll the page, or the element with this index, horizontally',
      inputSchema: z.object({ right: z.boolean().default(true), pixels: z.number().int().min(1).max(5000).default(300), index: z.number().int().min(0).optional() }),
      execute: async ({ right, pixels }) => `scrolled ${right ? 'right' : 'left'} ${pixels}`,
    }),
  }
}
