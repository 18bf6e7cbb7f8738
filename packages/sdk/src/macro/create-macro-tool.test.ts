import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { z as z3 } from 'zod3'
import { createClient, createMacroTool, defineTool, isInvokeError } from '../index'
import { startScriptedServer, toolCallResponse, type ScriptedServer } from '../testing'
import { toToolJsonSchema, validateSchema } from '../tool/schema'
import type { ToolExecuteContext } from '../tool/types'
import { zod3Schema } from '../zod3'
import { createBrowserTools } from '../repair/__fixtures__/browser-tools'

const context = (signal?: AbortSignal): ToolExecuteContext & { events: unknown[] } => {
  const events: unknown[] = []
  return { events, emit: (type, event) => events.push({ type, ...event }), ...(signal ? { signal } : {}) }
}

describe('createMacroTool', () => {
  describe('JSON Schema', () => {
    it('should keep every action, description, range and true required-ness, compactly', () => {
      const AgentOutput = createMacroTool(createBrowserTools())
      const json = toToolJsonSchema(AgentOutput.inputSchema) as any
      expect(toToolJsonSchema(AgentOutput.inputSchema)).toBe(json)
      expect(json.required).toEqual(['action'])
      expect(Object.keys(json.properties)).toEqual(['evaluation_previous_goal', 'memory', 'next_goal', 'action'])
      const actions = json.properties.action.properties
      expect(Object.keys(actions)).toHaveLength(8)
      expect(actions.click_element_by_index.description).toBe('Click the element with this index')
      // `.default()` fields are optional for the model; only truly required ones are listed.
      expect(actions.done.required).toEqual(['text'])
      expect(actions.wait.required).toBeUndefined()
      expect(actions.wait.properties.seconds).toEqual({ default: 3, type: 'integer', minimum: 0, maximum: 60 })
      expect(actions.scroll.properties.num_pages).toMatchObject({ minimum: 0.1, maximum: 10 })
      expect(json.properties.action).toMatchObject({ minProperties: 1, maxProperties: 1, additionalProperties: false })
      expect(JSON.stringify(json)).not.toContain('9007199254740991')
    })

    it('should use a custom reflection object, or none', () => {
      const tools = createBrowserTools()
      const custom = createMacroTool(tools, { reflection: z.object({ thought: z.string() }) })
      expect(custom.macro.reflectionKeys).toEqual(['thought'])
      expect((toToolJsonSchema(custom.inputSchema) as any).required).toEqual(['thought', 'action'])
      const bare = createMacroTool(tools, { reflection: false })
      expect(bare.macro.reflectionKeys).toEqual([])
      expect(Object.keys((toToolJsonSchema(bare.inputSchema) as any).properties)).toEqual(['action'])
      expect(validateSchema(custom.inputSchema, { action: { wait: {} } }).success).toBe(false)
    })
  })

  describe('schemas of both zod majors', () => {
    it('should pack and validate a zod 3 tool beside a zod 4 one', () => {
      const AgentOutput = createMacroTool({
        legacy: defineTool({ description: 'Old tool', inputSchema: zod3Schema(z3.object({ count: z3.number().int().min(1), note: z3.string().optional() })) }),
        modern: defineTool({ inputSchema: z.object({ flag: z.boolean().default(false) }) }),
      })
      const json = toToolJsonSchema(AgentOutput.inputSchema) as any
      expect(json.properties.action.properties.legacy).toMatchObject({ description: 'Old tool', type: 'object', required: ['count'] })
      expect(validateSchema(AgentOutput.inputSchema, { action: { legacy: { count: 2 } } })).toEqual({ success: true, data: { action: { legacy: { count: 2 } } } })
      expect(validateSchema(AgentOutput.inputSchema, { action: { legacy: { count: 0 } } }).success).toBe(false)
      expect(validateSchema(AgentOutput.inputSchema, { action: { modern: {} } })).toEqual({ success: true, data: { action: { modern: { flag: false } } } })
    })
  })

  describe('validation', () => {
    const AgentOutput = createMacroTool(createBrowserTools())
    it('should accept exactly one action and apply its defaults', () => {
      const result = validateSchema(AgentOutput.inputSchema, { memory: 'm', action: { click_element_by_index: { index: 2 } }, extra: 1 })
      expect(result).toEqual({ success: true, data: { memory: 'm', action: { click_element_by_index: { index: 2, while_holding_ctrl: false } } } })
    })
    it.each([
      [{ action: { wait: {}, done: { text: 'x' } } }, 'action', 'exactly one action, got 2'],
      [{ action: { index: 3 } }, 'action', 'unknown action "index"'],
      [{ memory: 'm' }, 'action', 'missing'],
      [{ action: { input_text: { index: 'a', text: 'x' } } }, 'action.input_text.index', ''],
      [{ action: [{ wait: {} }] }, 'action', 'an array'],
      ['{"action":{}}', '', 'expected an object'],
    ])('should reject %j at %s', (value, path, message) => {
      const result = validateSchema(AgentOutput.inputSchema, value)
      expect(result.success).toBe(false)
      if (result.success) return
      const issue = result.issues[0]!
      expect((issue.path ?? []).join('.')).toBe(path)
      expect(issue.message).toContain(message)
    })
  })

  describe('execute', () => {
    it('should dispatch to the chosen action, emit an action event and return { input, action, output }', async () => {
      const AgentOutput = createMacroTool(createBrowserTools())
      const ctx = context()
      const input = { next_goal: 'n', action: { click_element_by_index: { index: 4, while_holding_ctrl: false } } } as const
      const result = await AgentOutput.execute(input, ctx)
      expect(result).toEqual({ input, action: { name: 'click_element_by_index', input: input.action.click_element_by_index }, output: 'clicked 4' })
      expect(ctx.events).toEqual([{ type: 'action', name: 'click_element_by_index', input: { index: 4, while_holding_ctrl: false }, output: 'clicked 4', durationMs: expect.any(Number) }])
    })

    it('should carry the output on the action too, for typed narrowing, without serialising it twice', async () => {
      const AgentOutput = createMacroTool(createBrowserTools())
      const result = await AgentOutput.execute({ action: { click_element_by_index: { index: 4, while_holding_ctrl: false } } }, context())
      expect(result.action.output).toBe('clicked 4')
      expect(Object.keys(result.action)).toEqual(['name', 'input'])
      expect(JSON.parse(JSON.stringify(result))).toEqual({ input: { action: { click_element_by_index: { index: 4, while_holding_ctrl: false } } }, action: { name: 'click_element_by_index', input: { index: 4, while_holding_ctrl: false } }, output: 'clicked 4' })
    })

    it('should report the action duration in whole milliseconds, as the other events do', async () => {
      const slow = defineTool({ inputSchema: z.object({}), execute: () => new Promise((resolve) => setTimeout(() => resolve('ok'), 7)) })
      const ctx = context()
      await createMacroTool({ slow }).execute({ action: { slow: {} } } as never, ctx)
      const [event] = ctx.events as Array<{ durationMs: number }>
      expect(Number.isInteger(event!.durationMs)).toBe(true)
      expect(event!.durationMs).toBeGreaterThanOrEqual(5)
    })

    it('should not run an action when the step is already aborted', async () => {
      const execute = vi.fn()
      const AgentOutput = createMacroTool({ go: defineTool({ inputSchema: z.object({}), execute }) })
      const controller = new AbortController()
      controller.abort(new Error('stop now'))
      await expect(AgentOutput.execute({ action: { go: {} } } as never, context(controller.signal))).rejects.toThrow('stop now')
      expect(execute).not.toHaveBeenCalled()
    })

    it('should reject with the abort reason even when the action ignores the signal', async () => {
      let finish!: () => void
      const AgentOutput = createMacroTool({ slow: defineTool({ inputSchema: z.object({}), execute: () => new Promise<string>((resolve) => (finish = () => resolve('late'))) }) })
      const controller = new AbortController()
      const ctx = context(controller.signal)
      const running = AgentOutput.execute({ action: { slow: {} } } as never, ctx)
      await Promise.resolve()
      const reason = new DOMException('aborted by test', 'AbortError')
      controller.abort(reason)
      await expect(running).rejects.toBe(reason)
      finish()
      expect(ctx.events).toEqual([])
    })

    it('should name the action when it throws, through the client as tool_execution_error', async () => {
      const AgentOutput = createMacroTool({
        click: defineTool({ inputSchema: z.object({ index: z.number() }), execute: () => { throw new Error('element 7 is detached') } }),
      })
      const server = await startScriptedServer({ script: [{ body: toolCallResponse('AgentOutput', { action: { click: { index: 7 } } }) }] })
      try {
        const client = createClient({ baseURL: server.url, model: 'gpt-4.1-mini', maxRetries: 0 })
        const error = await client.invoke([{ role: 'user', content: 'go' }], { AgentOutput }).catch((caught: unknown) => caught)
        expect(isInvokeError(error) && error.type).toBe('tool_execution_error')
        expect(String(error)).toContain('action "click" threw: element 7 is detached')
      } finally {
        await server.close()
      }
    })
  })

  describe('stall guard', () => {
    it('should sum consecutive waits and report them past the limit; another action resets', async () => {
      const AgentOutput = createMacroTool(createBrowserTools(), { waitTool: { name: 'wait', seconds: (input) => input.seconds, limitSeconds: 30 } })
      const ctx = context()
      await AgentOutput.execute({ action: { wait: { seconds: 20 } } }, ctx)
      expect(AgentOutput.observations()).toBe('')
      await AgentOutput.execute({ action: { wait: { seconds: 15 } } }, ctx)
      expect(AgentOutput.observations()).toMatch(/^You have waited 35 s in a row \(limit 30 s\)/)
      await AgentOutput.execute({ action: { scroll: { down: true, num_pages: 1 } } }, ctx)
      expect(AgentOutput.observations()).toBe('')
      await AgentOutput.execute({ action: { wait: { seconds: 40 } } }, ctx)
      AgentOutput.resetObservations()
      expect(AgentOutput.observations()).toBe('')
    })
  })

  describe('configuration', () => {
    const tools = createBrowserTools()
    it.each([
      ['no tools', () => createMacroTool({})],
      ['a reserved action name', () => createMacroTool(JSON.parse('{"__proto__": {}}'))],
      ['a tool without a schema', () => createMacroTool({ broken: {} as never })],
      ['an unknown fallback action', () => createMacroTool(tools, { fallbackAction: { name: 'jump', input: {} } })],
      ['a fallback input that fails its schema', () => createMacroTool(tools, { fallbackAction: { name: 'wait', input: { seconds: 600 } } })],
      ['an unknown wait tool', () => createMacroTool(tools, { waitTool: { name: 'sleep', seconds: () => 1, limitSeconds: 5 } })],
      ['a reflection field named action', () => createMacroTool(tools, { reflection: z.object({ action: z.string() }) })],
      ['a reflection that is not a schema', () => createMacroTool(tools, { reflection: { thought: 'x' } as never })],
    ])('should throw config_error for %s', (_label, create) => {
      try {
        create()
        expect.unreachable()
      } catch (error) {
        expect(isInvokeError(error) && error.type).toBe('config_error')
      }
    })
  })

  describe('through createClient', () => {
    let server: ScriptedServer
    beforeAll(async () => {
      server = await startScriptedServer({ script: [{ body: toolCallResponse('AgentOutput', { memory: 'page loaded', action: { input_text: { index: 2, text: 'hello' } } }) }] })
    })
    afterAll(() => server.close())

    it('should send the compact schema and run the chosen action', async () => {
      const AgentOutput = createMacroTool(createBrowserTools())
      const client = createClient({ baseURL: server.url, model: 'gpt-4.1-mini' })
      const actions: unknown[] = []
      client.events.on('action', (event) => actions.push(event.name))
      const result = await client.invoke([{ role: 'user', content: 'type hello' }], { AgentOutput }, { toolChoiceName: 'AgentOutput' })
      expect(result.toolCall.args).toEqual({ memory: 'page loaded', action: { input_text: { index: 2, text: 'hello', clear: true } } })
      expect(result.toolResult).toEqual({ input: result.toolCall.args, action: { name: 'input_text', input: (result.toolCall.args as { action: { input_text: unknown } }).action.input_text }, output: 'typed hello into 2' })
      expect(actions).toEqual(['input_text'])
      const sent = server.requests.at(-1)!.body.tools![0]!.function.parameters as any
      expect(Object.keys(sent.properties.action.properties)).toContain('scroll_horizontally')
    })
  })
})
