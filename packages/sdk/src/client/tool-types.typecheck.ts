// Type-level tests (issue 23): the types of a step follow the tools passed in, whatever schema
// library wrote them. Checked by `tsc --noEmit -p packages/sdk`, part of `npm test`: a wrong type
// or an unused `@ts-expect-error` fails it. Nothing here runs.
import { toStandardJsonSchema } from '@valibot/to-json-schema'
import { type } from 'arktype'
import * as v from 'valibot'
import { expectTypeOf } from 'vitest'
import { z } from 'zod'
import { z as z3 } from 'zod3'
import { createClient, createMacroTool, defineTool, InvokeError, isInvokeError } from '../index'
import { createClient as createCoreClient } from '../core'
import { jsonSchema } from '../json-schema'
import type { ChatMessage, DeepPartial, ToolCall } from '../types'
import type { InvokeResult } from './invoke-result'
import type { InvokeResultOf, Tool, ToolCallOf } from '../tool/types'
import type { InvokeOptions } from './client-state'
import type { StreamRun } from './stream-run'

type Click = { index: number }
type Done = { text: string }
type Reported = { reported: string }
/** What every library's tools must come out as: the rest of this file only uses this type. */
type Tools = { click: Tool<Click, string>; done: Tool<Done, Reported> }

const execute = {
  click: async ({ index }: Click) => `clicked ${index}`,
  done: async ({ text }: Done): Promise<Reported> => ({ reported: text }),
}

// The same two tools from each library. Each set must be exactly `Tools`: then every check below
// holds for it too.
const zod4 = {
  click: defineTool({ inputSchema: z.object({ index: z.number() }), execute: execute.click }),
  done: defineTool({ inputSchema: z.object({ text: z.string() }), execute: execute.done }),
}
const zod3 = {
  click: defineTool({ inputSchema: z3.object({ index: z3.number() }), execute: execute.click }),
  done: defineTool({ inputSchema: z3.object({ text: z3.string() }), execute: execute.done }),
}
const valibot = {
  click: defineTool({ inputSchema: toStandardJsonSchema(v.object({ index: v.number() })), execute: execute.click }),
  done: defineTool({ inputSchema: toStandardJsonSchema(v.object({ text: v.string() })), execute: execute.done }),
}
const arkType = {
  click: defineTool({ inputSchema: type({ index: 'number' }), execute: execute.click }),
  done: defineTool({ inputSchema: type({ text: 'string' }), execute: execute.done }),
}
const typedJsonSchema = {
  click: defineTool({ inputSchema: jsonSchema<Click>({ type: 'object', properties: { index: { type: 'number' } }, required: ['index'] }), execute: execute.click }),
  done: defineTool({ inputSchema: jsonSchema<Done>({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }), execute: execute.done }),
}
const inferredJsonSchema = {
  click: defineTool({ inputSchema: jsonSchema({ type: 'object', properties: { index: { type: 'number' } }, required: ['index'] }), execute: execute.click }),
  done: defineTool({ inputSchema: jsonSchema({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }), execute: execute.done }),
}
expectTypeOf(zod4).toEqualTypeOf<Tools>()
expectTypeOf(zod3).toEqualTypeOf<Tools>()
expectTypeOf(valibot).toEqualTypeOf<Tools>()
expectTypeOf(arkType).toEqualTypeOf<Tools>()
expectTypeOf(typedJsonSchema).toEqualTypeOf<Tools>()
expectTypeOf(inferredJsonSchema).toEqualTypeOf<Tools>()

const client = createClient({ baseURL: 'http://127.0.0.1:1/v1', model: 'm' })
const messages: ChatMessage[] = []

export async function toolCallIsDiscriminatedByName(tools: Tools) {
  const result = await client.invoke(messages, tools)
  expectTypeOf(result.toolCall).toEqualTypeOf<ToolCall<Click, 'click'> | ToolCall<Done, 'done'>>()
  expectTypeOf(result.toolCall).toEqualTypeOf<ToolCallOf<Tools>>()
  expectTypeOf(result).toEqualTypeOf<InvokeResult<Click, string, 'click'> | InvokeResult<Done, Reported, 'done'>>()
  if (result.toolCall.name === 'click') {
    expectTypeOf(result.toolCall.args).toEqualTypeOf<Click>()
    // @ts-expect-error a click has no text
    void result.toolCall.args.text
  } else {
    expectTypeOf(result.toolCall.args).toEqualTypeOf<Done>()
  }
  // Each result carries its own tool's output: a user's guard on the call narrows the whole result.
  const isClick = (step: InvokeResultOf<Tools>): step is Extract<InvokeResultOf<Tools>, { toolCall: { name: 'click' } }> => step.toolCall.name === 'click'
  if (isClick(result)) expectTypeOf(result.toolResult).toEqualTypeOf<string>()
  else expectTypeOf(result.toolResult).toEqualTypeOf<Reported>()
  // Still an InvokeResult, as code written before these types declared it.
  const plain: InvokeResult = result
  return plain
}

export async function streamedResultIsDiscriminatedByName(tools: Tools) {
  const run = client.stream(messages, tools)
  const { toolCall } = await run.result
  if (toolCall.name === 'done') expectTypeOf(toolCall.args).toEqualTypeOf<Done>()
  else expectTypeOf(toolCall.args).toEqualTypeOf<Click>()
  expectTypeOf(await run.result).toEqualTypeOf<InvokeResultOf<Tools>>()
  // The core client types its steps the same way.
  const core = createCoreClient({ baseURL: 'http://127.0.0.1:1/v1', model: 'm' })
  expectTypeOf(await core.invoke(messages, tools)).toEqualTypeOf<InvokeResultOf<Tools>>()
  expectTypeOf(await core.stream(messages, tools).result).toEqualTypeOf<InvokeResultOf<Tools>>()
  // Still a StreamRun, as code written before these types declared it.
  const plain: StreamRun = run
  return plain
}

export async function macroActionIsDiscriminatedByName(tools: Tools) {
  const AgentOutput = createMacroTool(tools)
  const result = await client.invoke(messages, { AgentOutput }, { toolChoiceName: 'AgentOutput' })
  expectTypeOf(result.toolCall.name).toEqualTypeOf<'AgentOutput'>()
  expectTypeOf(result.toolCall.args.memory).toEqualTypeOf<string | undefined>()
  expectTypeOf(result.toolCall.args.action).toEqualTypeOf<{ click: Click } | { done: Done }>()
  const { action } = result.toolResult
  if (action.name === 'click') {
    expectTypeOf(action.input).toEqualTypeOf<Click>()
    expectTypeOf(action.output).toEqualTypeOf<string>()
  } else {
    expectTypeOf(action.input).toEqualTypeOf<Done>()
    expectTypeOf(action.output).toEqualTypeOf<Reported>()
  }
  expectTypeOf(result.toolResult.output).toEqualTypeOf<string | Reported>()
  // With a reflection of its own, from any library.
  const Thinking = createMacroTool(tools, { reflection: type({ 'thought?': 'string' }) })
  const thinking = await client.invoke(messages, { Thinking })
  expectTypeOf(thinking.toolCall.args.thought).toEqualTypeOf<string | undefined>()
}

export function toolChoiceNameIsOneOfTheTools(tools: Tools) {
  const AgentOutput = createMacroTool(tools)
  void client.invoke(messages, tools, { toolChoiceName: 'click' })
  void client.invoke(messages, { AgentOutput }, { toolChoiceName: 'AgentOutput' })
  void client.stream(messages, { AgentOutput }, { toolChoiceName: 'AgentOutput' })
  // @ts-expect-error a misspelt tool name
  void client.invoke(messages, { AgentOutput }, { toolChoiceName: 'AgentOutptu' })
  // @ts-expect-error not one of the tools passed in (an action of the macro tool is not a tool of the step)
  void client.stream(messages, { AgentOutput }, { toolChoiceName: 'click' })
  // @ts-expect-error options typed for other tools
  void client.invoke(messages, tools, {} as InvokeOptions<'elsewhere'>)
  // A tool set typed only as a record takes any name.
  const anyTools: Record<string, Tool> = tools
  void client.invoke(messages, anyTools, { toolChoiceName: 'whatever' })
}

export async function partialEventsAreDeepPartialArgs(tools: Tools) {
  const AgentOutput = createMacroTool(tools)
  for await (const event of client.stream(messages, { AgentOutput })) {
    if (event.type !== 'partial') continue
    expectTypeOf(event.args.memory).toEqualTypeOf<string | undefined>()
    expectTypeOf(event.args).toEqualTypeOf<DeepPartial<{ evaluation_previous_goal?: string; memory?: string; next_goal?: string; action: { click: Click } | { done: Done } }>>()
    const action = event.args.action
    if (action && 'click' in action) expectTypeOf(action.click).toEqualTypeOf<{ index?: number } | undefined>()
  }
  for await (const event of client.stream(messages, tools)) {
    if (event.type === 'partial') expectTypeOf(event.args).toEqualTypeOf<{ index?: number } | { text?: string }>()
  }
  expectTypeOf<DeepPartial<{ items: { id: number }[]; tags: string[] }>>().toEqualTypeOf<{ items?: { id?: number }[]; tags?: string[] }>()
}

export async function invokeErrorNarrowsByType(tools: Tools) {
  try {
    await client.invoke(messages, tools)
  } catch (error) {
    if (isInvokeError(error)) {
      // @ts-expect-error not known before the type is checked
      void error.messages.length
      if (error.type === 'tool_execution_error') {
        expectTypeOf(error.toolCall).toEqualTypeOf<ToolCall>()
        expectTypeOf(error.messages).toEqualTypeOf<ChatMessage[]>()
        messages.push(...error.messages)
      } else {
        expectTypeOf(error.toolCall).toEqualTypeOf<ToolCall | undefined>()
        expectTypeOf(error.type).toEqualTypeOf<Exclude<InvokeError['type'], 'tool_execution_error'>>()
      }
    }
    if (error instanceof InvokeError && error.type === 'tool_execution_error') expectTypeOf(error.messages).toEqualTypeOf<ChatMessage[]>()
  }
  // Events and attempts carry the same narrowing type.
  client.events.on('error', ({ error }) => {
    if (error.type === 'tool_execution_error') expectTypeOf(error.toolCall).toEqualTypeOf<ToolCall>()
  })
  const constructed = new InvokeError('rate_limit', 'Acme is busy.', { status: 429 })
  expectTypeOf(constructed).toEqualTypeOf<InvokeError>()
  expectTypeOf(constructed.attempts).toEqualTypeOf<InvokeError[]>()
}
