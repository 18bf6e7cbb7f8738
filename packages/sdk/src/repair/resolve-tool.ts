/**
 * The resolve stage: which tool an opened candidate calls. A name written in the call, or before its
 * JSON, is matched against the tools, the names they are sent under and the macro actions (an action
 * called as a tool is lifted into its macro tool's shell); JSON that names no tool is given to one
 * from its keys, a discriminator, or the fallback tool (the named `tool_choice`, or the only tool).
 */
import type { Tool } from '../tool/types'
import { isPlainObject, pushFix } from './coerce'
import type { DecodedCall } from './decode-call'
import { availableList, previewValue } from './describe-issue'
import { discriminatedCall, fallbackTool, fieldsOf, findTool, Rank, toolKeyOf, type Context, type Failure } from './repair-context'
import { fieldNames, safeJsonSchema } from './safe-json-schema'
import { ACTION_KEY, movedActionKey } from './shape-macro-input'
import { flatInput, type RawCall } from './unwrap'

/** A candidate with the tool it calls. */
export interface ResolvedCall extends DecodedCall {
  toolName: string
  tool: Tool
}

export function resolveTool(call: DecodedCall, raw: RawCall, context: Context): ResolvedCall | Failure {
  const { fixes } = call
  let { name, args } = call
  // `web_search{…}`, `web_search({…})`, `web_search\n{…}`: the name written before JSON that names none is
  // its name, known or not; such JSON is never moved onto another tool because its keys fit.
  if (name === undefined && raw.calledName !== undefined) {
    name = raw.calledName
    pushFix(fixes, 'name-before-json')
  }

  let toolName: string
  let tool: Tool
  if (name !== undefined) {
    const found = findTool(name, context)
    if (!found) {
      return { rank: Rank.UnknownTool, message: `The model called an unknown tool "${previewValue(name, 80).replace(/^"|"$/g, '')}". ${availableList(undefined, context.tools)}${context.macros.length > 0 ? ` ${availableList(context.macros[0]![1], context.tools)}` : ''}` }
    }
    toolName = found.toolName
    tool = found.tool
    if (found.known !== name) pushFix(fixes, 'normalized-tool-name')
    if (found.action) {
      pushFix(fixes, 'action-as-tool')
      args = liftIntoShell(found.action, args, tool, fixes)
    }
  } else {
    const inferred = inferTool(args, context, fixes)
    if (!inferred) return { rank: Rank.NoTool, message: isNoInput(args) ? '' : `JSON that names no tool and fits none: ${previewValue(args)}.` }
    toolName = inferred.toolName
    tool = inferred.tool
    args = inferred.args
  }
  // Filled in, not copied: a spread that overrides keys leaves V8's fast path for cloning objects.
  return Object.assign(call, { name, args, toolName, tool })
}

/** The tool that JSON without a name belongs to, read from its keys. */
function inferTool(args: unknown, context: Context, fixes: string[]): { toolName: string; tool: Tool; args: unknown } | undefined {
  if (isPlainObject(args)) {
    const keys = Object.keys(args)
    const key = toolKeyOf(args, context)
    if (key !== undefined) {
      const named = findTool(key, context)!
      pushFix(fixes, 'tool-name-as-key')
      if (named.known !== key) pushFix(fixes, 'normalized-tool-name')
      return { ...named, args: args[key] }
    }
    for (const [toolName, tool] of context.macros) {
      const macro = tool.macro!
      const belongs = keys.some((key) => ACTION_KEY.test(key) || macro.reflectionKeys.includes(key) || findTool(key, context)?.action) || movedActionKey(args, macro)
      if (belongs) return { toolName, tool, args }
    }
  }
  if (Array.isArray(args) && context.macros.length > 0 && args.some((item) => isPlainObject(item) && Object.keys(item).some((key) => key === 'action' || findTool(key, context)))) {
    const [toolName, tool] = context.macros[0]!
    return { toolName, tool, args }
  }
  // `{"type": "input_text", "index": 3, "text": "hi"}`: a known name under a discriminator, its arguments beside it.
  const flat = isPlainObject(args) ? discriminatedCall(args, context) : undefined
  if (flat) {
    const found = findTool(flat.name, context)!
    const { [flat.key]: _name, ...rest } = args as Record<string, unknown>
    pushFix(fixes, 'flattened-action')
    if (found.known !== flat.name) pushFix(fixes, 'normalized-tool-name')
    return { toolName: found.toolName, tool: found.tool, args: found.action ? liftIntoShell(found.action, rest, found.tool, fixes) : flatInput(rest, fieldsOf(flat.name, context), fixes) }
  }
  const fallback = fallbackTool(context)
  // A macro tool only takes JSON that looks like its input (above): never guess an action from stray
  // JSON. JSON in the reasoning that names no tool is data the model read or wrote, not a call.
  if (fallback && !context.reasoning && !fallback.tool.macro && fitsTool(args, fallback.tool)) return { ...fallback, args }
  return undefined
}

/**
 * Whether JSON that names no tool is this tool's input: an object with at least one of its fields
 * (or an empty object for a tool without fields), or a list holding such an object. A sole tool
 * whose fields are all optional is not called with whatever JSON the model wrote.
 */
function fitsTool(args: unknown, tool: Tool): boolean {
  const fields = fieldNames(safeJsonSchema(tool))
  const fits = (value: unknown) => isPlainObject(value) && (fields.size === 0 ? Object.keys(value).length === 0 : Object.keys(value).some((key) => fields.has(key)))
  return fits(args) || (Array.isArray(args) && args.some(fits))
}

/** JSON that cannot be a call's input at all: a scalar, or a list without an object (`[1]`, a citation). */
const isNoInput = (args: unknown) => !isPlainObject(args) && !(Array.isArray(args) && args.some((item) => isPlainObject(item) || Array.isArray(item)))

/** `click_element_by_index({"index": 3})` called as a tool → `{ action: { click_element_by_index: { index: 3 } } }`. */
function liftIntoShell(action: string, args: unknown, tool: Tool, fixes: string[]): Record<string, unknown> {
  const macro = tool.macro!
  const shell: Record<string, unknown> = {}
  if (!isPlainObject(args)) return { action: { [action]: args } }
  const fields = fieldNames(safeJsonSchema(macro.actions[action]!))
  const input: Record<string, unknown> = {}
  for (const key of Object.keys(args)) {
    // Reflection written beside the action's fields belongs in the shell, unless the action has such a field.
    if (macro.reflectionKeys.includes(key) && !fields.has(key)) shell[key] = args[key]
    else input[key] = args[key]
  }
  shell.action = { [action]: flatInput(input, fields, fixes) }
  return shell
}
