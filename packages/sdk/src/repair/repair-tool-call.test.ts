import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMacroTool, defineTool, repairToolCall } from '../index'
import type { ChatResponseMessage } from '../types'
import type { Tool, ToolSet } from '../tool/types'
import { assertLinear, sizesBetween } from '../testing/measure-growth'
import { deepFreeze } from '../util/deep-freeze'
import { createBrowserTools } from './__fixtures__/browser-tools'
import { failure } from './__fixtures__/failure'

const AgentOutput = createMacroTool(createBrowserTools())
const macro = { AgentOutput }
const native = (name: string, args: unknown, id = 'call_1'): ChatResponseMessage => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) } }],
})



describe('repairToolCall', () => {
  describe('clean responses', () => {
    it('should take a clean call as is, with no fixes and nothing dropped', () => {
      const result = repairToolCall(native('AgentOutput', { memory: 'm', action: { scroll: { down: false } } }, 'call_abc'), macro)
      expect(result.fixes).toEqual([])
      expect(result.dropped).toEqual([])
      expect(result.toolCall).toEqual({ id: 'call_abc', name: 'AgentOutput', args: { memory: 'm', action: { scroll: { down: false, num_pages: 1 } } } })
      expect(result.tool).toBe(AgentOutput)
    })

    it('should never mutate the response message', () => {
      const message = deepFreeze({
        role: 'assistant',
        content: '<think>x</think>{"name": "AgentOutput", "arguments": {"action": {"click_element_by_index": {"index": "3", "extra": null}}}}',
      })
      const result = repairToolCall(message, macro)
      expect(result.toolCall.args).toEqual({ action: { click_element_by_index: { index: 3, while_holding_ctrl: false } } })
      expect(result.fixes).toEqual(expect.arrayContaining(['content-json', 'unwrapped-envelope', 'coerced:integer']))
    })
  })

  describe('candidates', () => {
    it('should take the first valid tool call and report the others as dropped', () => {
      const message: ChatResponseMessage = {
        role: 'assistant',
        tool_calls: [
          { id: 'a', type: 'function', function: { name: 'AgentOutput', arguments: '{"action": {"wait": {"seconds": 99}}}' } },
          { id: 'b', type: 'function', function: { name: 'AgentOutput', arguments: '{"action": {"wait": {"seconds": 5}}}' } },
          { id: 'c', type: 'function', function: { name: 'AgentOutput', arguments: '{"action": {"done": {"text": "x"}}}' } },
        ],
      }
      const result = repairToolCall(message, macro)
      expect(result.toolCall).toMatchObject({ id: 'b', args: { action: { wait: { seconds: 5 } } } })
      expect(result.fixes).toContain('dropped-calls:2')
      expect(result.dropped).toEqual([
        { name: 'AgentOutput', args: '{"action": {"wait": {"seconds": 99}}}', reason: expect.stringContaining('AgentOutput.action.wait.seconds') },
        { name: 'AgentOutput', args: '{"action": {"done": {"text": "x"}}}', reason: 'extra' },
      ])
    })

    it('should prefer a call outside the reasoning over a draft inside it', () => {
      const message: ChatResponseMessage = {
        role: 'assistant',
        reasoning_content: '{"action": {"done": {"text": "draft"}}}',
        content: '<think>{"action": {"done": {"text": "also a draft"}}}</think>{"action": {"scroll": {"down": true}}}',
      }
      const result = repairToolCall(message, macro)
      expect(result.toolCall.args).toMatchObject({ action: { scroll: { down: true } } })
      expect(result.fixes).not.toContain('call-in-reasoning')
    })

    it('should use a call found only in the reasoning and say so', () => {
      const result = repairToolCall({ role: 'assistant', content: null, reasoning: 'Plan: {"action": {"wait": {}}}' }, macro)
      expect(result.toolCall.args).toEqual({ action: { wait: { seconds: 3 } } })
      expect(result.fixes).toContain('call-in-reasoning')
    })

    it('should give JSON without a name to the only plain tool, or the named tool_choice', () => {
      const tools: ToolSet = {
        search: defineTool({ inputSchema: z.object({ query: z.string(), limit: z.number().int().optional() }) }),
        open: defineTool({ inputSchema: z.object({ url: z.string() }) }),
      }
      const result = repairToolCall({ content: '```json\n{"query": "cats", "limit": "5"}\n```' }, tools, { toolChoiceName: 'search' })
      expect(result.toolCall).toEqual({ name: 'search', args: { query: 'cats', limit: 5 } })
      const only = repairToolCall({ content: '{"url": "https://example.com"}' }, { open: tools.open! })
      expect(only.toolCall).toEqual({ name: 'open', args: { url: 'https://example.com' } })
    })
  })

  describe('macro shapes', () => {
    it('should keep the action name when the action is called as a tool', () => {
      const result = repairToolCall(native('click_element_by_index', { index: 3 }), macro)
      expect(result.toolCall).toEqual({ id: 'call_1', name: 'AgentOutput', args: { action: { click_element_by_index: { index: 3, while_holding_ctrl: false } } } })
      expect(result.fixes).toEqual(['action-as-tool'])
    })

    it('should read prefixed and differently cased names, and report it', () => {
      const prefixed = repairToolCall(native('functions.AgentOutput:0', { action: { wait: {} } }), macro)
      expect(prefixed.toolCall.name).toBe('AgentOutput')
      expect(prefixed.fixes).toEqual(['normalized-tool-name'])
      const cased = repairToolCall(native('Click_Element_By_Index', { index: 1 }), macro)
      expect(cased.toolCall.args).toEqual({ action: { click_element_by_index: { index: 1, while_holding_ctrl: false } } })
      expect(cased.fixes).toEqual(['normalized-tool-name', 'action-as-tool'])
    })

    it('should use the fallback action only when configured, and report it', () => {
      const reflectionOnly = native('AgentOutput', { memory: 'Nothing to do', next_goal: 'Wait' })
      const error = failure(() => repairToolCall(reflectionOnly, macro))
      expect(error.type).toBe('invalid_tool_args')
      expect(error.retryable).toBe(true)
      expect(error.message).toContain('AgentOutput.action: missing')
      expect(error.message).toContain('Available actions: done, wait, ask_user, click_element_by_index')
      const withFallback = createMacroTool(createBrowserTools(), { fallbackAction: { name: 'wait', input: { seconds: 1 } } })
      const result = repairToolCall(reflectionOnly, { AgentOutput: withFallback })
      expect(result.toolCall.args).toEqual({ memory: 'Nothing to do', next_goal: 'Wait', action: { wait: { seconds: 1 } } })
      expect(result.fixes).toEqual(['fallback-action'])
    })

    it('should never turn a stray field into an action', () => {
      const error = failure(() => repairToolCall({ content: 'Clicking {"index": 3}' }, macro))
      expect(error.type).toBe('no_tool_call')
      expect(error.message).toContain('Clicking {"index": 3}')
    })
  })

  describe('errors', () => {
    it('should name the action, the field, the value and the available actions', () => {
      const error = failure(() => repairToolCall(native('AgentOutput', { action: { click_element_by_index: { index: 'abc' } } }), macro))
      expect(error.type).toBe('invalid_tool_args')
      expect(error.message).toBe(
        '[wildcall] AgentOutput.action.click_element_by_index.index: expected integer ≥ 0, got "abc". Available actions: done, wait, ask_user, click_element_by_index, input_text, select_dropdown_option, scroll, scroll_horizontally.',
      )
    })

    it('should say which required field is missing', () => {
      const error = failure(() => repairToolCall(native('AgentOutput', { action: { input_text: { index: 1 } } }), macro))
      expect(error.message).toContain('AgentOutput.action.input_text.text: required string, got nothing.')
    })

    it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('should treat the tool name %s as unknown, listing the tools', (name) => {
      const error = failure(() => repairToolCall(native(name, { index: 1 }), macro))
      expect(error.type).toBe('invalid_tool_args')
      expect(error.message).toContain(`unknown tool "${name}"`)
      expect(error.message).toContain('Available tools: AgentOutput.')
    })

    it('should call an unclosed call malformed, not cut off, and never take it', () => {
      // The repair runs only on an answer the model ended itself (a length finish stops earlier):
      // an unclosed value there is a malformed call, retryable, never output_truncated.
      const native_ = failure(() => repairToolCall(native('AgentOutput', '{"action": {"input_text": {"index": 1, "text": "hel'), macro))
      expect(native_).toMatchObject({ type: 'invalid_tool_args', retryable: true })
      expect(native_.message).toContain('"AgentOutput" end inside a value that is never closed, though the output was not cut off')
      const content = failure(() => repairToolCall({ content: '<tool_call>{"name": "AgentOutput", "arguments": {"action": {"scroll": {' }, macro))
      expect(content).toMatchObject({ type: 'no_tool_call', retryable: true })
      expect(content.message).toContain('never closed, though the output was not cut off')
    })

    it('should quote what the model said when there is no call at all', () => {
      const text = `I cannot continue. ${'x'.repeat(400)}`
      const error = failure(() => repairToolCall({ content: text }, macro))
      expect(error.type).toBe('no_tool_call')
      expect(error.retryable).toBe(true)
      expect(error.message).toContain(`"${text.slice(0, 200)}…"`)
    })

    it('should wrap an unexpected exception as an InvokeError', () => {
      const exploding: Tool = {
        inputSchema: { '~standard': { version: 1, vendor: 'zod', validate: () => { throw new TypeError('boom') } } },
      }
      const error = failure(() => repairToolCall(native('exploding', {}), { exploding }))
      expect(error.type).toBe('unknown')
      expect(error.cause).toBeInstanceOf(TypeError)
    })

    it.each([null, 'text', 42])('should reject a message that is not an object (%j)', (message) => {
      expect(failure(() => repairToolCall(message as never, macro)).type).toBe('invalid_schema')
    })
  })

  describe('security', () => {
    it('should drop prototype keys from arguments without touching Object.prototype', () => {
      const payload = '{"__proto__": {"polluted": 1}, "action": {"input_text": {"index": 1, "text": "x", "constructor": {"prototype": {"polluted": 1}}}}}'
      const result = repairToolCall(native('AgentOutput', payload), macro)
      expect(result.toolCall.args).toEqual({ action: { input_text: { index: 1, text: 'x', clear: true } } })
      expect(result.fixes).toContain('dropped-unsafe-key')
      expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    })

    it('should sanitise JSON decoded from nested strings too', () => {
      const inner = JSON.stringify({ index: 2, text: 'x', __proto__: null }).replace('"index"', '"__proto__": {"polluted": 1}, "index"')
      const result = repairToolCall(native('AgentOutput', { action: { input_text: inner } }), macro)
      expect(result.toolCall.args).toEqual({ action: { input_text: { index: 2, text: 'x', clear: true } } })
      expect(Object.getPrototypeOf((result.toolCall.args as { action: { input_text: object } }).action.input_text)).toBe(Object.prototype)
      expect(result.fixes).toEqual(expect.arrayContaining(['double-encoded-arguments', 'dropped-unsafe-key']))
    })

    it('should refuse arguments nested too deeply, in time linear in the depth', () => {
      const deep = (depth: number) => `{"action": {"done": {"text": ${'['.repeat(depth)}${']'.repeat(depth)}}}}`
      expect(failure(() => repairToolCall(native('AgentOutput', deep(5000)), macro)).type).toBe('invalid_tool_args')
      assertLinear((depth) => {
        const message = native('AgentOutput', deep(depth))
        return () => failure(() => repairToolCall(message, macro))
      }, sizesBetween(1_000, 10_000))
    })

    it('should read a call after long prose, and give up on a flood of braces, in time linear in the content', () => {
      const prose = (size: number) => `${'The page lists many products. '.repeat(size / 30)}{"action": {"scroll": {"down": true}}}`
      expect(repairToolCall({ content: prose(1_000_000) }, macro).toolCall.args).toMatchObject({ action: { scroll: { down: true } } })
      expect(['no_tool_call', 'output_truncated']).toContain(failure(() => repairToolCall({ content: '{'.repeat(200_000) }, macro)).type)
      assertLinear((size) => {
        const message = { content: prose(size) }
        return () => repairToolCall(message, macro)
      }, sizesBetween(30_000, 300_000))
      assertLinear((size) => {
        const message = { content: '{'.repeat(size) }
        return () => failure(() => repairToolCall(message, macro))
      }, sizesBetween(20_000, 200_000))
    })
  })
})

describe('repairToolCall on bad input from the caller', () => {
  const click = defineTool({ inputSchema: z.object({ index: z.number() }) })

  it('should name a tool that is not a tool, rather than fail unexpectedly', () => {
    const error = failure(() => repairToolCall({ role: 'assistant', content: '{"index": 1}' }, { click, broken: null } as unknown as ToolSet))
    expect(error.type).toBe('config_error')
    expect(error.message).toContain('Tool "broken" is not an object')
  })

  it('should name a readers option that is not a list of readers', () => {
    const error = failure(() => repairToolCall({ role: 'assistant', content: 'click(index=1)' }, { click }, { readers: 5 as never }))
    expect(error.type).toBe('config_error')
    expect(error.message).toContain('repairToolCall: "readers" must be an array of readers')
  })

  it('should take null options as none', () => {
    expect(repairToolCall(native('click', { index: 2 }), { click }, null as never).toolCall.args).toEqual({ index: 2 })
    expect(repairToolCall({ role: 'assistant', content: 'I will click. {"name": "click", "arguments": {"index": 3}}' }, { click }, null as never).toolCall.args).toEqual({ index: 3 })
  })
})
