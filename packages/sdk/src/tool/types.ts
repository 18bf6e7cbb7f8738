// The types of tools: a `Tool` with its execute context and a macro tool's info, a `ToolSet`, and
// what a set types (its names, inputs, outputs, calls and results).

import type { ClientEvents } from '../client/client-events'
import type { InvokeResult } from '../client/invoke-result'
import type { ToolCall } from '../types'
import type { StandardSchemaLike } from './schema'

/**
 * Context passed to every tool's `execute`.
 *
 * @example
 * ```ts
 * const fetchPage = defineTool({
 *   inputSchema: z.object({ url: z.string().url() }),
 *   execute: async ({ url }, { signal }: ToolExecuteContext) => (await fetch(url, { signal })).text(),
 * })
 * ```
 */
export interface ToolExecuteContext {
  /** The invoke's signal: a long tool should stop when it aborts. */
  signal?: AbortSignal
  /** The id of the tool call being executed (the model's, or a generated one). */
  toolCallId?: string
  /** The step's id (what its client events carry) and attempt. */
  callId?: string
  attempt?: number
  /** Emits a client event (used by the macro tool for `action` events). */
  emit: <K extends keyof ClientEvents>(type: K, event: ClientEvents[K]) => void
}

/**
 * A tool the model may call: a description, an input schema (zod 3.25+ or 4, a Standard JSON Schema
 * such as ArkType or valibot's `toStandardJsonSchema`, or `jsonSchema()`) and an optional `execute`.
 *
 * @example
 * ```ts
 * // defineTool builds the same object and infers Input from the schema.
 * const done: Tool<{ text: string }, string> = {
 *   description: 'Finish the task with a summary',
 *   inputSchema: z.object({ text: z.string() }),
 *   execute: ({ text }) => text,
 * }
 * ```
 */
export interface Tool<Input = any, Output = any> {
  description?: string
  inputSchema: StandardSchemaLike<Input>
  execute?: (input: Input, context: ToolExecuteContext) => Output | Promise<Output>
  /**
   * The tool has no side effects, so when its `execute` throws the whole step (model request
   * included) may be tried again: `tool_execution_error` is then retryable. Default `false`: a tool
   * runs at most once per `invoke` / `stream`, and its error ends the step.
   */
  retryOnError?: boolean
  /**
   * Turns what `execute` returned into the `content` of the `role: 'tool'` message in
   * `result.messages`. Default: a string as it is, anything else as JSON.
   */
  toModelOutput?(output: Output): string
  /** Set by `createMacroTool`; lets the repair layer know reflection keys and action names. */
  readonly macro?: MacroToolInfo
}

/**
 * What the repair layer needs to know about a macro tool.
 *
 * @example
 * ```ts
 * AgentOutput.macro.reflectionKeys // ['evaluation_previous_goal', 'memory', 'next_goal']
 * Object.keys(AgentOutput.macro.actions) // ['click', 'wait', 'done']
 * ```
 */
export interface MacroToolInfo {
  /** The reflection field names (may be empty). */
  reflectionKeys: readonly string[]
  /** The packed tools, by action name. */
  actions: Readonly<Record<string, Tool>>
  /** The action used when a response carries reflection but no action, if configured. */
  fallbackAction?: { name: string; input: unknown }
}

/**
 * A map of tool name → tool.
 *
 * @example
 * ```ts
 * const tools: ToolSet = { click, input_text, done }
 * const { toolCall } = await client.invoke(messages, tools) // toolCall.name is one of the keys
 * ```
 */
export type ToolSet = Record<string, Tool>

/**
 * The validated input of any tool of a set (a union over its tools): what `result.toolCall.args` holds.
 *
 * @example
 * ```ts
 * type Args = ToolSetInput<{ AgentOutput: typeof AgentOutput }> // { memory?: string; …; action: … }
 * ```
 */
export type ToolSetInput<Tools extends ToolSet> = { [Name in keyof Tools]: Tools[Name] extends Tool<infer Input, any> ? Input : unknown }[keyof Tools]

/**
 * What the `execute` of any tool of a set resolves to (a union over its tools): what `result.toolResult` holds.
 *
 * @example
 * ```ts
 * type Output = ToolSetOutput<{ AgentOutput: typeof AgentOutput }> // { input, output }
 * ```
 */
export type ToolSetOutput<Tools extends ToolSet> = { [Name in keyof Tools]: Tools[Name] extends Tool<any, infer Output> ? Output : unknown }[keyof Tools]

/**
 * The names of the tools of a set: what `result.toolCall.name` can be.
 *
 * @example
 * ```ts
 * type Names = ToolName<{ click: typeof click; done: typeof done }> // 'click' | 'done'
 * ```
 */
export type ToolName<Tools extends ToolSet> = Extract<keyof Tools, string>

// The input and the output of one tool (`unknown` for what is not a Tool).
type InputOf<T> = T extends Tool<infer Input, any> ? Input : unknown
type OutputOf<T> = T extends Tool<any, infer Output> ? Output : unknown

/**
 * The tool call of a step with these tools: a union discriminated by `name`, so checking the name
 * types `args` as that tool's input.
 *
 * @example
 * ```ts
 * const call: ToolCallOf<{ click: typeof click; done: typeof done }> = result.toolCall
 * if (call.name === 'click') highlight(call.args.index) // args: { index: number }
 * ```
 */
export type ToolCallOf<Tools extends ToolSet> = { [Name in ToolName<Tools>]: ToolCall<InputOf<Tools[Name]>, Name> }[ToolName<Tools>]

/**
 * What `invoke` (and a stream's `result`) resolves to with these tools: one {@link InvokeResult} per
 * tool, its call typed by that tool's input and `toolResult` by what its `execute` returns.
 *
 * @example
 * ```ts
 * const result: InvokeResultOf<{ click: typeof click; done: typeof done }> = await client.invoke(messages, { click, done })
 * if (result.toolCall.name === 'done') report(result.toolCall.args.text)
 * ```
 */
export type InvokeResultOf<Tools extends ToolSet> = { [Name in ToolName<Tools>]: InvokeResult<InputOf<Tools[Name]>, OutputOf<Tools[Name]>, Name> }[ToolName<Tools>]
