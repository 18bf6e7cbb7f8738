/**
 * What every stage of the repair works with: the tool set as the names a model may write (tools,
 * macro actions, the names tools are sent under) and the lookups on them, the readers, and what the
 * repair has seen so far (failures, an unclosed value, whether candidates come from the reasoning).
 * Also the outcome of one candidate, {@link Success} or {@link Failure}, that the stages hand on.
 * It sits below every stage and calls none.
 */
import { wireNames } from '../tool/wire-names'
import type { Tool, ToolSet } from '../tool/types'
import type { DroppedCall, ToolCall } from '../types'
import { isPlainObject } from './coerce'
import { matchName } from './match-tool-name'
import type { Reader } from './reader'
import { fieldNames, safeJsonSchema } from './safe-json-schema'
import { discriminatorKeys, isFieldsOnly } from './unwrap'

/** How far a failed candidate got: the furthest one explains the failure best. */
export const enum Rank {
  NoTool = 0,
  UnknownTool = 1,
  MissingAction = 2,
  Invalid = 3,
}

export interface Failure {
  rank: Rank
  message: string
}

/** A candidate that resolved: the validated call, its tool, the fixes that got it there, the calls it dropped. */
export interface ValidCall {
  toolCall: Omit<ToolCall, 'id'> & { id?: string }
  tool: Tool
  fixes: string[]
  dropped: DroppedCall[]
}

export interface Success {
  result: ValidCall
}

export interface Context {
  tools: ToolSet
  toolNames: string[]
  /** Tool and action names, for `extractCalls` and for deciding whether an envelope names a call. */
  names: Set<string>
  macros: Array<[string, Tool]>
  /** Name sent → own name, when some tool is sent under another name; `ownNames` is then `names` without those sent. */
  toOwn: Map<string, string> | undefined
  ownNames: Set<string>
  toolChoiceName: string | undefined
  failures: Failure[]
  /** The answer (or a call's arguments) ends inside a value it never closed. */
  unclosed: boolean
  /** The readers of text formats, in the order they run. */
  readers: readonly Reader[]
  /** Candidates come from the reasoning: only a call that names a declared tool or action counts. */
  reasoning?: boolean
}

// Every caller has checked `tools` already: `invoke` (assertInvokeInput, and its request built with their wire names) and the public repairs (checkRepairInput).
export function createContext(tools: ToolSet, options: { toolChoiceName?: string | undefined }, readers: readonly Reader[]): Context {
  const toolNames = Object.keys(tools)
  const toOwn = wireNames(tools)
  let names = new Set(toolNames)
  const macros: Array<[string, Tool]> = []
  for (const name of toolNames) {
    const macro = tools[name]?.macro
    if (!macro) continue
    macros.push([name, tools[name]!])
    for (const action of Object.keys(macro.actions)) names.add(action)
  }
  // A model may write a tool's own name or the one it was sent under: both are known names.
  const ownNames = names
  if (toOwn) names = new Set([...names, ...toOwn.keys()])
  // The named tool's macro first: its actions win when two macro tools share an action name.
  const chosen = options.toolChoiceName
  if (chosen !== undefined) macros.sort(([a], [b]) => Number(b === chosen) - Number(a === chosen))
  return { tools, toolNames, names, ownNames, macros, toOwn, toolChoiceName: chosen !== undefined && Object.hasOwn(tools, chosen) ? chosen : undefined, failures: [], unclosed: false, readers }
}

/** A message field as text: the string, or `''` for anything else. */
export function stringField(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

/** Finds the tool (or the macro tool and action) a name means, spelled as {@link matchName} reads it. */
export function findTool(name: string, context: Context): { toolName: string; tool: Tool; action?: string; known: string } | undefined {
  // A name loosely equal to a tool's own name and to the one it is sent under means that tool.
  const known = matchName(name, context.names) ?? (context.toOwn && matchName(name, context.ownNames))
  if (known === undefined) return undefined
  const own = context.toOwn?.get(known) ?? known
  if (Object.hasOwn(context.tools, own)) return { toolName: own, tool: context.tools[own]!, known }
  for (const [toolName, tool] of context.macros) {
    if (Object.hasOwn(tool.macro!.actions, known)) return { toolName, tool, action: known, known }
  }
  return undefined
}

/** The tool (or macro action) whose input a call named `name` carries. */
export function targetOf(name: string, context: Context): Tool | undefined {
  const found = findTool(name, context)
  return found?.action ? found.tool.macro!.actions[found.action] : found?.tool
}

/** The field names of the tool or action a call named `name` goes to (none when unknown). */
export function fieldsOf(name: unknown, context: Context): Set<string> {
  const target = typeof name === 'string' ? targetOf(name, context) : undefined
  return target ? fieldNames(safeJsonSchema(target)) : new Set()
}

/** The tool that JSON naming none falls to: the named `tool_choice`, or the only tool. */
export function fallbackTool(context: Context): { toolName: string; tool: Tool } | undefined {
  const toolName = context.toolChoiceName ?? (context.toolNames.length === 1 ? context.toolNames[0] : undefined)
  return toolName === undefined ? undefined : { toolName, tool: context.tools[toolName]! }
}

/**
 * Whether every key of `args` is a field of the tool they go to (the named one, else the fallback):
 * then they are that tool's input (`{"step": {"name": …, "args": …}}` for a tool with a `step` field),
 * not a wrapper around another call.
 */
export function isOwnInput(args: unknown, name: string | undefined, context: Context): boolean {
  const target = name !== undefined ? targetOf(name, context) : fallbackTool(context)?.tool
  return isPlainObject(args) && !!target && isFieldsOnly(args, fieldNames(safeJsonSchema(target)))
}

/**
 * The tool or action a flat record names under a discriminator-shaped key (`{"type": "input_text",
 * "index": 3}`, `action_type`, `kind`, `name` …), with that key. Only a name {@link findTool} resolves
 * counts, so `"type": "function"` names nothing; nor does a key the fallback tool has as a field.
 */
export function discriminatedCall(record: Record<string, unknown>, context: Context): { key: string; name: string } | undefined {
  const fallback = fallbackTool(context)?.tool
  const fields = fallback && !fallback.macro ? fieldNames(safeJsonSchema(fallback)) : undefined
  for (const key of discriminatorKeys(record)) {
    if (fields?.has(key)) continue
    const name = (record[key] as string).trim()
    if (findTool(name, context)) return { key, name }
  }
  return undefined
}

/** The one key of `{"search": {…}}` when it names a tool (not an action) and holds its input. */
export function toolKeyOf(item: unknown, context: Context): string | undefined {
  const keys = isPlainObject(item) ? Object.keys(item) : []
  const inner = keys.length === 1 ? (item as Record<string, unknown>)[keys[0]!] : undefined
  const found = isPlainObject(inner) || typeof inner === 'string' ? findTool(keys[0]!, context) : undefined
  return found && !found.action ? keys[0] : undefined
}

