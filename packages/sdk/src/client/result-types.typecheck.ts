// Type-level tests of what `invoke` returns, checked by `tsc` (part of `npm test`): the result is
// typed from the tools passed in, so user code reads `args` and `toolResult` without casts.
import { z } from 'zod'
import { createClient, createMacroTool, defineTool } from '../index'

const AgentOutput = createMacroTool({
  click: defineTool({ inputSchema: z.object({ index: z.number() }), execute: async ({ index }) => `clicked ${index}` }),
  done: defineTool({ inputSchema: z.object({ text: z.string() }) }),
})
const click = defineTool({ inputSchema: z.object({ index: z.number() }), execute: async () => 5 })
const client = createClient({ baseURL: 'http://127.0.0.1:1/v1', model: 'm' })

export async function macroResultIsTyped() {
  const result = await client.invoke([], { AgentOutput }, { toolChoiceName: 'AgentOutput' })
  const memory: string | undefined = result.toolCall.args.memory
  // @ts-expect-error the action is an object of one action, not a number
  const wrong: number = result.toolCall.args.action
  return [memory, wrong, result.toolResult.output]
}

export async function plainToolResultIsTyped() {
  const result = await client.invoke([], { click })
  const index: number = result.toolCall.args.index
  const output: number = result.toolResult
  // @ts-expect-error the input has no `text`
  const text: string = result.toolCall.args.text
  return [index, output, text]
}

export async function streamResultIsTyped() {
  const { toolCall } = await client.stream([], { click }).result
  const index: number = toolCall.args.index
  return index
}

// One `if` on the top-level name narrows the call and the result together (invoke and stream alike).
const search = defineTool({ inputSchema: z.object({ query: z.string() }), execute: async () => ({ hits: 3 }) })

export async function toolNameNarrowsTheResult() {
  const result = await client.invoke([], { click, search })
  if (result.toolName === 'click') {
    const index: number = result.toolCall.args.index
    const output: number = result.toolResult
    // @ts-expect-error narrowed to click: its result has no hits
    const hits: number = result.toolResult.hits
    return [index, output, hits]
  }
  const query: string = result.toolCall.args.query
  const hits: number = result.toolResult.hits
  return [query, hits]
}

export async function toolNameNarrowsTheStreamResult() {
  const result = await client.stream([], { click, search }).result
  if (result.toolName !== 'search') return result.toolResult satisfies number
  return result.toolResult.hits satisfies number
}
