import { InvokeError } from '../errors/invoke-error'
import { formatIssuePath, validateSchema } from '../tool/schema'
import type { ChatResponseMessage, Tool, ToolCall, ToolSet } from '../types'

export interface RepairOptions {
  /** The tool the request named in `tool_choice`, if any. */
  toolChoiceName?: string
}

export interface RepairResult {
  /** The validated call: `args` is the schema's output. */
  toolCall: ToolCall
  tool: Tool
  /** Repair codes applied, in order. Empty for a clean response. */
  fixes: string[]
}

const hasOwn = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key)

/**
 * Turns an assistant message into exactly one validated tool call, or throws an {@link InvokeError}.
 */
export function repairToolCall(message: ChatResponseMessage, tools: ToolSet, options: RepairOptions = {}): RepairResult {
  void options
  const call = message.tool_calls?.[0]
  if (!call) throw new InvokeError('no_tool_call', 'The model answered without a tool call.')
  const name = call.function?.name
  if (typeof name !== 'string' || !hasOwn(tools, name)) {
    throw new InvokeError('invalid_tool_args', `The model called an unknown tool "${String(name)}". Available tools: ${Object.keys(tools).join(', ')}.`)
  }
  const tool = tools[name]!
  let args: unknown = call.function.arguments
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args)
    } catch (cause) {
      throw new InvokeError('invalid_tool_args', `The arguments of "${name}" are not valid JSON.`, { cause })
    }
  }
  const result = validateSchema(tool.inputSchema, args)
  if (!result.success) {
    const issue = result.issues[0]!
    throw new InvokeError('invalid_tool_args', `The arguments of "${name}" do not match its schema: ${formatIssuePath(issue) || '(root)'}: ${issue.message}`)
  }
  return { toolCall: { ...(call.id ? { id: call.id } : {}), name, args: result.data }, tool, fixes: [] }
}
