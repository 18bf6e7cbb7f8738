/**
 * The validate stage: a shaped candidate checked against its tool's input schema. It becomes a
 * {@link Success} (the schema's output as `args`) or an `Invalid` failure worded from the schema.
 */
import { validateSchema } from '../tool/schema'
import { describeIssue } from './describe-issue'
import { Rank, type Context, type Failure, type Success } from './repair-context'
import type { ResolvedCall } from './resolve-tool'

export function validateCall({ id, toolName, tool, args, fixes, dropped }: ResolvedCall, context: Context): Success | Failure {
  const checked = validateSchema(tool.inputSchema, args)
  if (!checked.success) {
    return { rank: Rank.Invalid, message: describeIssue(toolName, tool, context.tools, args, checked.issues) }
  }
  return { result: { toolCall: { ...(id ? { id } : {}), name: toolName, args: checked.data }, tool, fixes, dropped } }
}
