import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker'
import { mcpTools } from '@wildcall/mcp'
import { createMacroTool, defineTool, isInvokeError } from '@wildcall/sdk'
import { z } from 'zod'

/** The assistant turn and the tool's answer, for the next request. */
function turn(toolCall, step, output) {
  const id = toolCall.id ?? `call_${step}`
  return [
    { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: toolCall.name, arguments: JSON.stringify(toolCall.args) } }] },
    { role: 'tool', tool_call_id: id, content: typeof output === 'string' ? output : JSON.stringify(output) },
  ]
}

const SERVER = new URL('./notes-server.js', import.meta.url).pathname

/**
 * An agent loop whose actions are the tools of an MCP server (started over stdio) plus a local
 * `done`. Each step: invoke the macro tool, run the action it chose on the server, tell the model.
 * A tool the server refuses (`isError`) is shown to the model as the tool's answer, and the loop goes on.
 */
export async function runNotesAgent({ client, task, maxSteps = 8, log = () => {} }) {
  // The eval-free validator for the client's own outputSchema checks (search_notes has one): the
  // same code then runs in a browser extension.
  const mcp = new Client({ name: 'wildcall-notes-example', version: '1.0.0' }, { capabilities: {}, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() })
  await mcp.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER], stderr: 'inherit' }))
  try {
    const tools = await mcpTools(mcp)
    let answer
    const done = defineTool({
      description: 'Finish with the answer for the user',
      inputSchema: z.object({ text: z.string() }),
      execute: ({ text }) => (answer = text),
    })
    const AgentOutput = createMacroTool({ ...tools, done })
    const messages = [{ role: 'user', content: task }]
    const steps = []
    for (let step = 1; step <= maxSteps && answer === undefined; step++) {
      try {
        const result = await client.invoke(messages, { AgentOutput }, { toolChoiceName: 'AgentOutput' })
        const [action] = Object.entries(result.toolCall.args.action)
        const output = result.toolResult.output
        steps.push({ action: action[0], input: action[1], output, fixes: result.fixes })
        log(`step ${step}: ${action[0]}(${JSON.stringify(action[1])}) → ${JSON.stringify(output)}${result.fixes.length ? `  fixes: ${result.fixes.join(', ')}` : ''}`)
        messages.push(...(result.messages ?? turn(result.toolCall, step, output)))
      } catch (error) {
        // The server refused the action (`isError`): the model is told, and chooses again.
        if (!isInvokeError(error) || error.type !== 'tool_execution_error') throw error
        steps.push({ error: error.message })
        log(`step ${step}: the tool failed: ${error.message}`)
        messages.push(...(error.messages ?? [{ role: 'user', content: `That action failed: ${error.message}` }]))
      }
    }
    return { answer, steps }
  } finally {
    await mcp.close()
  }
}
