import { errorMessage, InvokeError, isAbortError, isInvokeError } from '../errors/invoke-error'
import { abortReason } from '../retry/with-retry'
import { assertTool } from '../tool/define-tool'
import { isStandardSchema, setToolJsonSchema, toToolJsonSchema, validateSchema, type InferSchemaOutput, type SchemaIssue, type StandardSchemaLike } from '../tool/schema'
import type { MacroToolInfo, Tool, ToolExecuteContext, ToolSet } from '../tool/types'
import { toolOutputContent } from '../client/build-history'
import { isRecord } from '../util/is-record'
import { buildMacroJsonSchema, DEFAULT_ACTION_DESCRIPTION } from './build-macro-json-schema'

/** The default reflection fields: what happened, what to remember, what to do next. */
export const DEFAULT_REFLECTION_KEYS = ['evaluation_previous_goal', 'memory', 'next_goal'] as const

type DefaultReflection = { evaluation_previous_goal?: string; memory?: string; next_goal?: string }

/** The input of one tool of a tool map, and what its `execute` returns. */
type ToolInput<T> = T extends Tool<infer Input> ? Input : never
type ToolOutput<T> = T extends Tool<any, infer Output> ? Output : never

/**
 * Exactly one `{ toolName: input }` of the packed tools.
 *
 * @example
 * ```ts
 * const action: MacroAction<{ click: typeof click; done: typeof done }> = { click: { index: 3 } }
 * ```
 */
export type MacroAction<Tools extends ToolSet> = {
  [Name in keyof Tools & string]: { [Key in Name]: ToolInput<Tools[Name]> }
}[keyof Tools & string]

/**
 * The validated input of a macro tool: the reflection fields plus `action`.
 *
 * @example
 * ```ts
 * const input: MacroInput<{ click: typeof click; done: typeof done }> = { memory: 'Logged in.', next_goal: 'Open settings', action: { click: { index: 3 } } }
 * ```
 */
export type MacroInput<Tools extends ToolSet, Reflection = DefaultReflection> = Reflection & { action: MacroAction<Tools> }

/**
 * What a macro tool's `execute` resolves to.
 *
 * @example
 * ```ts
 * const actions = { click, done }
 * const result = await client.invoke(messages, { AgentOutput: createMacroTool(actions) }, { toolChoiceName: 'AgentOutput' })
 * const { input, output } = result.toolResult as MacroToolResult<typeof actions>
 * console.log(Object.keys(input.action)[0], output) // the action taken and what its execute returned
 * ```
 */
export interface MacroToolResult<Tools extends ToolSet, Reflection = DefaultReflection> {
  /** The macro tool's validated input (reflection and action). */
  input: MacroInput<Tools, Reflection>
  /**
   * The action taken: its name, its validated input (no `Object.keys(input.action)` needed) and what
   * its `execute` returned (`output`, the same value as below, not enumerable). Checking
   * `action.name` types the other two.
   */
  action: MacroActionTaken<Tools>
  /** What the chosen action's `execute` returned (`undefined` when it has none); also `action.output`. */
  output: MacroActionTaken<Tools>['output']
}

/**
 * The action a macro tool ran, by name: narrowing on `name` types `input` and `output`.
 *
 * @example
 * ```ts
 * const { action } = result.toolResult
 * if (action.name === 'click') highlight(action.input.index, action.output)
 * ```
 */
export type MacroActionTaken<Tools extends ToolSet> = {
  [Name in keyof Tools & string]: { name: Name; input: ToolInput<Tools[Name]>; output: ToolOutput<Tools[Name]> }
}[keyof Tools & string]

/**
 * How the stall guard reads a waiting action.
 *
 * @example
 * ```ts
 * const waitTool: MacroWaitToolOptions = { name: 'wait', seconds: (input) => input.seconds, limitSeconds: 30 }
 * const AgentOutput = createMacroTool({ click, wait, done }, { waitTool })
 * ```
 */
export interface MacroWaitToolOptions {
  /** The action that waits, e.g. `'wait'`. */
  name: string
  /** The seconds one call of that action waits, read from its validated input. */
  seconds: (input: any) => number
  /** Past this many consecutive seconds of waiting, `observations()` says so. */
  limitSeconds: number
}

/**
 * Options of {@link createMacroTool}.
 *
 * @example
 * ```ts
 * const AgentOutput = createMacroTool({ click, done }, {
 *   reflection: z.object({ thought: z.string().optional() }), // instead of the three default fields
 *   fallbackAction: { name: 'done', input: { text: 'No action given.' } },
 * })
 * ```
 */
export interface MacroToolOptions<Reflection extends StandardSchemaLike | false | undefined = undefined> {
  /** The tool's description. Default: "Reflect on the last step, then take exactly one action." */
  description?: string | undefined
  /**
   * The reflection fields, as an object schema of any library (every field optional is best: models skip them), or
   * `false` for none. Default: optional `evaluation_previous_goal`, `memory`, `next_goal` strings.
   */
  reflection?: Reflection | undefined
  /** The description of the `action` property. Default: "Exactly one action". */
  actionDescription?: string | undefined
  /**
   * The action used when a response holds reflection but no action (reported as the fix
   * `fallback-action`). Off by default: such a response is a retryable `invalid_tool_args`.
   */
  fallbackAction?: { name: string; input: unknown } | undefined
  /** Stall guard: sums consecutive waits and reports them in {@link MacroTool.observations}. */
  waitTool?: MacroWaitToolOptions | undefined
}

type ReflectionOf<R> = R extends false ? {} : R extends StandardSchemaLike ? InferSchemaOutput<R> : DefaultReflection

/**
 * A macro tool: a {@link Tool} plus the stall guard's observations.
 *
 * @example
 * ```ts
 * const AgentOutput = createMacroTool({ click, wait, done }, { waitTool: { name: 'wait', seconds: (input) => input.seconds, limitSeconds: 30 } })
 * await client.invoke(messages, { AgentOutput }, { toolChoiceName: 'AgentOutput' })
 * const hint = AgentOutput.observations() // a nudge for the next prompt once the waits in a row pass 30 s, else ''
 * AgentOutput.resetObservations() // when a new task starts
 * ```
 */
export interface MacroTool<Tools extends ToolSet = ToolSet, Reflection = DefaultReflection>
  extends Tool<MacroInput<Tools, Reflection>, MacroToolResult<Tools, Reflection>> {
  readonly macro: MacroToolInfo
  execute: (input: MacroInput<Tools, Reflection>, context: ToolExecuteContext) => Promise<MacroToolResult<Tools, Reflection>>
  /** A sentence for the next prompt when the agent is stalling (waited past the limit); `''` otherwise. */
  observations(): string
  /** Forgets the waits counted so far (call it when a new task starts). */
  resetObservations(): void
}

/** A `config_error` of createMacroTool's arguments. */
const configError = (message: string) => new InvokeError('config_error', `createMacroTool: ${message}`)

const RESERVED = new Set(['__proto__', 'constructor', 'prototype'])

/**
 * Packs several tools into one tool whose input is optional reflection fields plus `action`:
 * exactly one `{ toolName: input }`. One call per step then carries the model's reasoning and its
 * action, and the repair layer knows the action names (from `tool.macro`) to fix what models send.
 *
 * @example
 * ```ts
 * const AgentOutput = createMacroTool(
 *   { click_element_by_index, input_text, wait, done },
 *   { waitTool: { name: 'wait', seconds: (input) => input.seconds, limitSeconds: 30 } },
 * )
 * const result = await client.invoke(messages, { AgentOutput }, { toolChoiceName: 'AgentOutput' })
 * result.toolCall.args.action // { click_element_by_index: { index: 3 } }
 * result.toolResult.output    // what click_element_by_index returned
 * const hint = AgentOutput.observations() // "You have waited 40 s in a row …" or ''
 * ```
 */
export function createMacroTool<Tools extends ToolSet, Reflection extends StandardSchemaLike | false | undefined = undefined>(
  tools: Tools,
  options: MacroToolOptions<Reflection> = {},
): MacroTool<Tools, ReflectionOf<Reflection>> {
  type Input = MacroInput<Tools, ReflectionOf<Reflection>>
  if (!isRecord(tools) || Object.keys(tools).length === 0) {
    throw configError('pass an object of at least one tool, e.g. createMacroTool({ click, done }).')
  }
  if (typeof options !== 'object' || options === null) {
    throw configError('options must be an object.')
  }
  const actions: Record<string, Tool> = {}
  for (const name of Object.keys(tools)) {
    if (RESERVED.has(name)) throw configError(`"${name}" cannot be an action name. Rename the tool.`)
    assertTool(tools[name], name)
    actions[name] = tools[name]!
  }
  Object.freeze(actions)
  const names = Object.keys(actions)

  const reflection = resolveReflection(options.reflection)
  const reflectionJson = reflection ? toToolJsonSchema(reflection) : undefined
  const reflectionKeys = reflectionJson && typeof reflectionJson.properties === 'object' && reflectionJson.properties !== null ? Object.keys(reflectionJson.properties) : []
  if (reflectionKeys.includes('action')) {
    throw configError('the reflection schema cannot have a field named "action". Rename it.')
  }

  const fallbackAction = options.fallbackAction
  if (fallbackAction !== undefined) {
    if (typeof fallbackAction !== 'object' || fallbackAction === null || typeof fallbackAction.name !== 'string' || !Object.hasOwn(actions, fallbackAction.name)) {
      throw configError(`fallbackAction.name must be one of the actions (${names.join(', ')}).`)
    }
    const checked = validateSchema(actions[fallbackAction.name]!.inputSchema, fallbackAction.input)
    if (!checked.success) {
      throw configError(`fallbackAction.input does not match the "${fallbackAction.name}" schema: ${checked.issues[0]!.message}`)
    }
  }

  const waitTool = options.waitTool
  if (waitTool !== undefined) {
    if (typeof waitTool !== 'object' || waitTool === null || typeof waitTool.name !== 'string' || !Object.hasOwn(actions, waitTool.name)) {
      throw configError(`waitTool.name must be one of the actions (${names.join(', ')}).`)
    }
    if (typeof waitTool.seconds !== 'function' || typeof waitTool.limitSeconds !== 'number' || !(waitTool.limitSeconds >= 0)) {
      throw configError('waitTool needs seconds: (input) => number and a non-negative limitSeconds.')
    }
  }

  const inputSchema: StandardSchemaLike<Input> = {
    '~standard': {
      version: 1,
      vendor: 'wildcall',
      validate: (value: unknown) => validateMacroInput(value, actions, reflection, reflectionKeys) as never,
    },
  }
  setToolJsonSchema(inputSchema, buildMacroJsonSchema(actions, reflectionJson, options.actionDescription ?? DEFAULT_ACTION_DESCRIPTION))

  const macro: MacroToolInfo = Object.freeze({
    reflectionKeys: Object.freeze([...reflectionKeys]),
    actions,
    ...(fallbackAction ? { fallbackAction: Object.freeze({ name: fallbackAction.name, input: fallbackAction.input }) } : {}),
  })

  let waitedSeconds = 0
  const trackWait = (name: string, input: unknown) => {
    if (!waitTool) return
    if (name !== waitTool.name) {
      waitedSeconds = 0
      return
    }
    let seconds = 0
    try {
      seconds = Number(waitTool.seconds(input))
    } catch {
      // A broken reader must not fail a step that already ran; it just does not count.
    }
    if (Number.isFinite(seconds) && seconds > 0) waitedSeconds += seconds
  }

  const execute = async (input: Input, context: ToolExecuteContext): Promise<MacroToolResult<Tools, ReflectionOf<Reflection>>> => {
    const action = (input as { action?: unknown }).action
    const name = typeof action === 'object' && action !== null ? Object.keys(action)[0] : undefined
    if (name === undefined || !Object.hasOwn(actions, name)) {
      throw new InvokeError('invalid_tool_args', `The macro tool was executed without one of its actions (${names.join(', ')}). Validate its input first.`)
    }
    const tool = actions[name]!
    const actionInput = (action as Record<string, unknown>)[name]
    const signal = context?.signal
    if (signal?.aborted) throw abortReason(signal)
    const startedAt = performance.now()
    let output: unknown
    try {
      output = tool.execute ? await raceAbort(tool.execute, actionInput, context, signal) : undefined
    } catch (cause) {
      if (signal?.aborted) throw abortReason(signal)
      context?.emit?.('action', { callId: context.callId, attempt: context.attempt, name, input: actionInput, error: cause, durationMs: Math.round(performance.now() - startedAt) })
      if (isAbortError(cause) || isInvokeError(cause)) throw cause
      const detail = errorMessage(cause)
      throw new Error(`action "${name}" threw: ${detail}`, { cause })
    }
    // A tool that ignores the signal still cannot complete an aborted step.
    if (signal?.aborted) throw abortReason(signal)
    context?.emit?.('action', { callId: context.callId, attempt: context.attempt, name, input: actionInput, output, durationMs: Math.round(performance.now() - startedAt) })
    trackWait(name, actionInput)
    // `action.output` lets a check of `action.name` type the output too; not enumerable, so the
    // result serialises and compares as `{ input, action: { name, input }, output }`, output once.
    const taken = Object.defineProperty({ name, input: actionInput }, 'output', { value: output }) as MacroActionTaken<Tools>
    return { input, action: taken, output: taken.output }
  }

  return {
    description: options.description ?? 'Reflect on the last step, then take exactly one action.',
    inputSchema,
    macro,
    execute,
    // The model is shown what the action returned, as that action's own tool would show it.
    toModelOutput: (result) => toolOutputContent(actions[result.action.name], result.output),
    observations() {
      if (!waitTool || waitedSeconds <= waitTool.limitSeconds) return ''
      return `You have waited ${formatSeconds(waitedSeconds)} s in a row (limit ${formatSeconds(waitTool.limitSeconds)} s) without anything else happening. Waiting longer will not help: take a different action.`
    },
    resetObservations() {
      waitedSeconds = 0
    },
  }
}

function formatSeconds(seconds: number): string {
  return Number.isInteger(seconds) ? String(seconds) : seconds.toFixed(1)
}

function resolveReflection(reflection: unknown): StandardSchemaLike | undefined {
  if (reflection === false) return undefined
  if (reflection === undefined) return defaultReflection()
  if (!isStandardSchema(reflection)) {
    throw configError('reflection must be a zod object (e.g. z.object({ thought: z.string().optional() })) or false.')
  }
  return reflection
}

let sharedReflection: StandardSchemaLike | undefined
function defaultReflection(): StandardSchemaLike {
  // One schema object for every macro tool, so its JSON Schema is built once. Plain JSON Schema
  // and a validator of its own: a schema library here would be in every app's bundle.
  if (!sharedReflection) {
    const properties: Record<string, unknown> = {}
    for (const key of DEFAULT_REFLECTION_KEYS) properties[key] = { type: 'string' }
    sharedReflection = {
      '~standard': {
        version: 1,
        vendor: 'wildcall',
        // Called with the reflection fields the input has (see validateMacroInput): each a string.
        validate: (value) => {
          const fields = value as Record<string, unknown>
          const issues: SchemaIssue[] = Object.keys(fields)
            .filter((key) => fields[key] !== undefined && typeof fields[key] !== 'string')
            .map((key) => ({ message: `Invalid input: expected string, received ${describe(fields[key])}`, path: [key] }))
          return issues.length > 0 ? { issues } : { value }
        },
      },
    }
    setToolJsonSchema(sharedReflection, { type: 'object', properties })
  }
  return sharedReflection
}

/** Runs a tool's execute, rejecting as soon as the signal aborts even if the tool ignores it. */
function raceAbort(execute: NonNullable<Tool['execute']>, input: unknown, context: ToolExecuteContext, signal: AbortSignal | undefined): unknown {
  // Without a signal the caller awaits the tool itself (a throw is a rejection of its own async function).
  if (!signal) return execute(input, context)
  const run = Promise.resolve().then(() => execute(input, context))
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal))
    signal.addEventListener('abort', onAbort, { once: true })
    // `then` handles both outcomes, so what `finally` returns never rejects.
    void run.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

type Result = { value: unknown } | { issues: SchemaIssue[] }

function prefix(issues: ReadonlyArray<SchemaIssue>, path: PropertyKey[]): SchemaIssue[] {
  return issues.map((issue) => ({ message: issue.message, path: [...path, ...(issue.path ?? [])] }))
}

/** The macro tool's validator: the reflection through its own schema, then exactly one known action. */
function validateMacroInput(value: unknown, actions: Readonly<Record<string, Tool>>, reflection: StandardSchemaLike | undefined, reflectionKeys: readonly string[]): Result {
  if (!isRecord(value)) {
    return { issues: [{ message: `expected an object with "action", got ${describe(value)}`, path: [] }] }
  }
  const record = value as Record<string, unknown>
  const issues: SchemaIssue[] = []
  const output: Record<string, unknown> = {}
  if (reflection) {
    const picked: Record<string, unknown> = {}
    for (const key of reflectionKeys) if (Object.hasOwn(record, key)) picked[key] = record[key]
    const checked = validateSchema(reflection, picked)
    if (checked.success) Object.assign(output, checked.data)
    else issues.push(...prefix(checked.issues, []))
  }
  const action = Object.hasOwn(record, 'action') ? record.action : undefined
  const names = Object.keys(actions)
  if (!isRecord(action)) {
    issues.push({ message: action === undefined ? `missing: expected exactly one of ${names.join(', ')}` : `expected an object with exactly one action, got ${describe(action)}`, path: ['action'] })
  } else {
    const keys = Object.keys(action)
    if (keys.length !== 1) {
      issues.push({ message: `expected exactly one action, got ${keys.length === 0 ? 'none' : keys.length}`, path: ['action'] })
    } else if (!Object.hasOwn(actions, keys[0]!)) {
      issues.push({ message: `unknown action "${keys[0]}"`, path: ['action'] })
    } else {
      const name = keys[0]!
      const checked = validateSchema(actions[name]!.inputSchema, (action as Record<string, unknown>)[name])
      if (checked.success) output.action = { [name]: checked.data }
      else issues.push(...prefix(checked.issues, ['action', name]))
    }
  }
  return issues.length > 0 ? { issues } : { value: output }
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'string' ? `a string` : typeof value
}
