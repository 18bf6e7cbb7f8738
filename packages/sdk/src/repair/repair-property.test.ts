import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createMacroTool, isInvokeError, repairToolCall } from '../index'
import { validateSchema } from '../tool/schema'
import type { ChatResponseMessage } from '../types'
import type { ToolSet } from '../tool/types'
import { createBrowserTools } from './__fixtures__/browser-tools'

const tools = createBrowserTools()
const AgentOutput = createMacroTool(tools)
const macro = { AgentOutput }

// Text a model would write in a field: printable, with quotes, apostrophes, braces and newlines.
const text = fc.string({ unit: fc.constantFrom(...'abcxyz ABC 019\'"{}[],:.\\/-_\n\tüé€'.split('')), maxLength: 24 })
const index = fc.nat({ max: 500 })
const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined })
const compact = (record: Record<string, unknown>) => Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined))

/** A valid input for each browser action (the model's intent). */
const action: fc.Arbitrary<{ name: string; input: Record<string, unknown> }> = fc.oneof(
  fc.record({ text, success: optional(fc.boolean()) }).map((input) => ({ name: 'done', input: compact(input) })),
  fc.record({ seconds: optional(fc.integer({ min: 0, max: 60 })) }).map((input) => ({ name: 'wait', input: compact(input) })),
  fc.record({ question: text }).map((input) => ({ name: 'ask_user', input })),
  fc.record({ index, while_holding_ctrl: optional(fc.boolean()) }).map((input) => ({ name: 'click_element_by_index', input: compact(input) })),
  fc.record({ index, text, clear: optional(fc.boolean()) }).map((input) => ({ name: 'input_text', input: compact(input) })),
  fc.record({ index, text }).map((input) => ({ name: 'select_dropdown_option', input })),
  fc
    .record({ down: optional(fc.boolean()), num_pages: optional(fc.double({ min: 0.1, max: 10, noNaN: true })), index: optional(index) })
    .map((input) => ({ name: 'scroll', input: compact(input) })),
  fc
    .record({ right: optional(fc.boolean()), pixels: optional(fc.integer({ min: 1, max: 5000 })), index: optional(index) })
    .map((input) => ({ name: 'scroll_horizontally', input: compact(input) })),
)
const reflection = fc.record({ evaluation_previous_goal: optional(text), memory: optional(text), next_goal: optional(text) }).map(compact)

/** The one required field of an action whose input holds only that field (a bare value is possible). */
const bareField = (name: string, input: Record<string, unknown>) => {
  const single: Record<string, string> = { ask_user: 'question', click_element_by_index: 'index' }
  const field = single[name]
  return field && Object.keys(input).length === 1 && field in input ? field : undefined
}

type Shape = (name: string, input: Record<string, unknown>, shell: Record<string, unknown>) => { name: string; args: unknown }
const AGENT = 'AgentOutput'
/** How the call's arguments are structured (one per case). */
const shapes: Record<string, Shape> = {
  clean: (name, input, shell) => ({ name: AGENT, args: { ...shell, action: { [name]: input } } }),
  actionAsTool: (name, input) => ({ name, args: input }),
  missingShell: (name, input, shell) => ({ name: AGENT, args: { ...shell, [name]: input } }),
  oneElementArray: (name, input, shell) => ({ name: AGENT, args: { ...shell, action: [{ [name]: input }] } }),
  encodedActionInput: (name, input, shell) => ({ name: AGENT, args: { ...shell, action: { [name]: JSON.stringify(input) } } }),
  encodedAction: (name, input, shell) => ({ name: AGENT, args: { ...shell, action: JSON.stringify({ [name]: input }) } }),
  argumentsLayer: (name, input, shell) => ({ name: AGENT, args: { arguments: { ...shell, action: { [name]: input } } } }),
  actionsList: (name, input, shell) => ({ name: AGENT, args: { ...shell, actions: [{ [name]: input }] } }),
  nameEnvelope: (name, input, shell) => ({ name: AGENT, args: { ...shell, action: { name, arguments: input } } }),
  bareValue: (name, input, shell) => {
    const field = bareField(name, input)
    return { name: AGENT, args: { ...shell, action: { [name]: field ? input[field] : input } } }
  },
}
/** Value-level damage the schema can undo. */
const damages: Record<string, (input: Record<string, unknown>) => Record<string, unknown>> = {
  none: (input) => input,
  numbersAsStrings: (input) => Object.fromEntries(Object.entries(input).map(([key, value]) => [key, typeof value === 'number' || typeof value === 'boolean' ? String(value) : value])),
  nullOptional: (input) => ({ ...input, index: input.index ?? null }),
}
const special = ['<|call|>', '<|endoftext|>', '<|im_end|>']
/** Where and how the call travels. */
const carriers: Record<string, (call: { name: string; args: unknown }, token: string) => ChatResponseMessage> = {
  native: (call) => ({ role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } }] }),
  nativeDoubleEncoded: (call) => ({ role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: call.name, arguments: JSON.stringify(JSON.stringify(call.args)) } }] }),
  nativeObject: (call) => ({ role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: call.name, arguments: call.args as Record<string, unknown> } }] }),
  nativeTokenAppended: (call, token) => ({ role: 'assistant', tool_calls: [{ type: 'function', function: { name: call.name, arguments: `${JSON.stringify(call.args)}${token}` } }] }),
  legacyFunctionCall: (call) => ({ role: 'assistant', content: null, function_call: { name: call.name, arguments: JSON.stringify(call.args) } }),
  contentJson: (call) => ({ role: 'assistant', content: JSON.stringify({ name: call.name, arguments: call.args }) }),
  contentFenced: (call) => ({ role: 'assistant', content: `Next step:\n\`\`\`json\n${JSON.stringify({ name: call.name, arguments: call.args }, null, 2)}\n\`\`\`` }),
  contentHermes: (call) => ({ role: 'assistant', content: `<tool_call>\n${JSON.stringify({ name: call.name, arguments: call.args })}\n</tool_call>` }),
  contentAfterThink: (call) => ({ role: 'assistant', content: `<think>\nDecide the next step.\n</think>\n\n${JSON.stringify({ name: call.name, arguments: call.args })}` }),
  contentFunctionEnvelope: (call) => ({ role: 'assistant', content: JSON.stringify({ type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } }) }),
  contentToolCalls: (call) => ({ role: 'assistant', content: JSON.stringify({ tool_calls: [{ name: call.name, arguments: call.args }] }) }),
  reasoningOnly: (call) => ({ role: 'assistant', content: null, reasoning_content: `I will act now. ${JSON.stringify({ name: call.name, arguments: call.args })}` }),
}

describe('repairToolCall (property)', () => {
  it('should return the original action for random valid actions under random malformations', () => {
    fc.assert(
      fc.property(
        action,
        reflection,
        fc.constantFrom(...Object.keys(shapes)),
        fc.constantFrom(...Object.keys(damages)),
        fc.constantFrom(...Object.keys(carriers)),
        fc.constantFrom(...special),
        ({ name, input }, shell, shape, damage, carrier, token) => {
          const damaged = name === 'scroll' || name === 'scroll_horizontally' || damage !== 'nullOptional' ? damages[damage]!(input) : input
          const call = shapes[shape]!(name, damaged, shape === 'actionAsTool' ? {} : shell)
          const message = carriers[carrier]!(call, token)
          const result = repairToolCall(message, macro, { toolChoiceName: AGENT })
          const expected = validateSchema((tools as ToolSet)[name]!.inputSchema, input)
          expect(expected.success).toBe(true)
          expect(result.toolCall.name).toBe(AGENT)
          expect((result.toolCall.args as { action: unknown }).action).toEqual({ [name]: (expected as { data: unknown }).data })
          if (shape !== 'actionAsTool') {
            for (const [key, value] of Object.entries(shell)) expect((result.toolCall.args as Record<string, unknown>)[key]).toBe(value)
          }
        },
      ),
      { numRuns: 600 },
    )
  })

  const dangerousKey = fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'action', 'name', 'arguments', 'a')
  const garbageValue = fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.json({ maxDepth: 4 }),
    fc.anything({ maxDepth: 4, key: dangerousKey, withNullPrototype: true, withObjectString: true }),
  )
  const garbageMessage = fc.oneof(
    garbageValue.map((content) => ({ role: 'assistant', content })),
    fc.record({ name: fc.oneof(dangerousKey, fc.string(), fc.constant(undefined)), args: garbageValue }).map(({ name, args }) => ({
      role: 'assistant',
      tool_calls: [{ id: 'x', type: 'function', function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) ?? null } }],
    })),
    fc.anything({ maxDepth: 3, key: dangerousKey }),
  )

  it('should answer random garbage with an InvokeError, without touching Object.prototype', () => {
    const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort()
    fc.assert(
      fc.property(garbageMessage, (message) => {
        let thrown: unknown
        try {
          repairToolCall(message as ChatResponseMessage, macro, { toolChoiceName: AGENT })
        } catch (error) {
          thrown = error
        }
        expect(isInvokeError(thrown), String(thrown)).toBe(true)
        expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys)
        expect(({} as Record<string, unknown>).polluted).toBeUndefined()
      }),
      { numRuns: 500 },
    )
  })
})
