import { createMacroTool, defineTool } from '@wildcall/sdk'
import { z } from 'zod'

/**
 * The agent's actions on a page, packed into one macro tool: each step the model writes its
 * reflection and picks exactly one action; `execute` performs it on the page.
 *
 * @example
 * const AgentOutput = createPageTools(createSimulatedPage())
 * const result = await client.invoke(messages, { AgentOutput }, { toolChoiceName: 'AgentOutput' })
 */
export function createPageTools(page) {
  const actions = {
    input_text: defineTool({
      description: 'Type text into the input element with this index',
      inputSchema: z.object({ index: z.number().int(), text: z.string() }),
      execute: (input) => page.act('input_text', input),
    }),
    click_element_by_index: defineTool({
      description: 'Click the element with this index',
      inputSchema: z.object({ index: z.number().int() }),
      execute: (input) => page.act('click_element_by_index', input),
    }),
    scroll: defineTool({
      description: 'Scroll the page',
      inputSchema: z.object({ down: z.boolean() }),
      execute: (input) => page.act('scroll', input),
    }),
    done: defineTool({
      description: 'Finish the task: say what you found',
      inputSchema: z.object({ text: z.string(), success: z.boolean().optional() }),
      execute: (input) => page.act('done', input),
    }),
  }
  return createMacroTool(actions)
}
