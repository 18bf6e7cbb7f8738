// `@wildcall/sdk`: everything, zero configuration — the core client with every built-in reader
// as the default set (the autoFixer), streaming, and bare zod 3 schemas read as they are (core asks
// for `zod3Schema()` from `@wildcall/sdk/zod3`, so that only zod 3 users pay for the converter).
// Imports in the order that bundles smallest: module order moves the gzip size (node scripts/check-size.mjs).
import { zod3ToJsonSchema } from './tool/zod3-to-json-schema'
import { createClient as createClientWithEverything } from './client/create-client'
import { createMacroTool as createMacroToolOfCore } from './macro/create-macro-tool'
import { repairToolCall as repairWithEveryReader } from './repair/repair-tool-call'
import { defineTool as defineToolOfCore } from './tool/define-tool'
import { useZod3Converter } from './tool/schema'

export * from './core'
export * from './readers'

// Every function of this entry that can meet a schema installs the zod 3 converter first; the named
// exports below take precedence over the same names re-exported from core.
function withZod3<Run extends (...args: never[]) => unknown>(run: Run): Run {
  // `apply(this, arguments)`, not rest and spread: no array per call on the hot path of a step.
  return function (this: unknown) {
    useZod3Converter(zod3ToJsonSchema)
    return run.apply(this, arguments as unknown as Parameters<Run>)
  } as Run
}

/**
 * Creates a client for one model behind an OpenAI-compatible endpoint, reading every built-in
 * format, streaming, and tools of any schema library (zod 3 and 4, Standard JSON Schema,
 * `jsonSchema()`).
 *
 * @example
 * ```ts
 * const client = createClient({ baseURL: 'https://api.openai.com/v1', model: 'gpt-4.1-mini', apiKey })
 * const { toolCall } = await client.invoke(messages, { click })
 * ```
 */
export const createClient: typeof createClientWithEverything = withZod3(createClientWithEverything)

/**
 * Declares a tool: a description, an input schema (zod 3 or 4, a Standard JSON Schema such as
 * ArkType, or `jsonSchema()`) and an optional `execute`. Returns the same object, typed, after
 * checking its shape; an input schema that is not an object at the top level is a `config_error`.
 *
 * @example
 * ```ts
 * const click = defineTool({
 *   description: 'Click the element with this index',
 *   inputSchema: z.object({ index: z.number().int() }),
 *   execute: async ({ index }) => `clicked ${index}`,
 * })
 * ```
 */
export const defineTool: typeof defineToolOfCore = withZod3(defineToolOfCore)

/**
 * Turns several tools (the actions) into one tool whose input carries the model's reflection and
 * exactly one action: one valid action per step, from any model. Action and reflection schemas may
 * be of any library this entry reads, zod 3 included.
 *
 * @example
 * ```ts
 * const AgentOutput = createMacroTool({ click, type_text, done })
 * const { toolResult } = await client.invoke(messages, { AgentOutput }, { toolChoiceName: 'AgentOutput' })
 * ```
 */
export const createMacroTool: typeof createMacroToolOfCore = withZod3(createMacroToolOfCore)

/**
 * Repairs one assistant message into exactly one valid call of `tools`, reading every built-in
 * format; throws a typed `InvokeError` when no valid call can be recovered.
 *
 * @example
 * ```ts
 * const { toolCall, fixes } = repairToolCall(response.choices[0].message, { click })
 * ```
 */
export const repairToolCall: typeof repairWithEveryReader = withZod3(repairWithEveryReader)
export { probeEndpoint } from './client/probe-endpoint'
export type { ProbeReport, ProbeRequest, ProbeStep } from './client/probe-endpoint'
