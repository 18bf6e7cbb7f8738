import { toStandardJsonSchema } from '@valibot/to-json-schema'
import { type } from 'arktype'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { z as z3 } from 'zod3'
import { createClient, createMacroTool, defineTool, isInvokeError, repairToolCall } from '../index'
import { arkTypeTools, jsonSchemaTools, schemasByKind, toolsOf, valibotTools, zod3Tools, zod4Tools, type Kind } from './__fixtures__/library-tools'
import { jsonSchema } from '../json-schema'
import { contentResponse, startScriptedServer, toolCallResponse, type ScriptedServer } from '../testing'
import type { ChatResponseMessage } from '../types'
import type { ToolSet } from './types'
import { toToolJsonSchema, type StandardSchemaLike } from './schema'

const native = (name: string, args: unknown): ChatResponseMessage => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id: 'call_1', type: 'function', function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) } }],
})
const text = (content: string): ChatResponseMessage => ({ role: 'assistant', content })

type Outcome = { args: unknown; fixes: string[] } | { error: string }

function outcome(message: ChatResponseMessage, tools: ToolSet): Outcome {
  try {
    const { toolCall, fixes } = repairToolCall(message, tools)
    return { args: { [toolCall.name]: toolCall.args }, fixes }
  } catch (error) {
    if (!isInvokeError(error)) throw error
    return { error: `${error.type}: ${error.message.replace('[wildcall] ', '')}` }
  }
}

const AVAILABLE = 'Available tools: click_element, input_text, scroll, search, done.'
const ACTIONS = 'Available actions: click_element, input_text, scroll, search, done.'

// [what the model wrote, what every kind of schema must make of it]
const table: Array<[string, ChatResponseMessage, Outcome]> = [
  ['a clean call', native('click_element', { index: 3 }), { args: { click_element: { index: 3 } }, fixes: [] }],
  ['a number as text', native('click_element', { index: '3' }), { args: { click_element: { index: 3 } }, fixes: ['coerced:integer'] }],
  [
    'markup with a default left out',
    text('<tool_call>{"name": "input_text", "arguments": {"index": "2", "text": 5}}</tool_call>'),
    { args: { input_text: { index: 2, text: '5', clear: false } }, fixes: ['tool-markup:hermes', 'reader:hermes', 'unwrapped-envelope', 'coerced:integer', 'coerced:string'] },
  ],
  ['a boolean as a word', native('input_text', { index: 1, text: 'hi', clear: 'yes' }), { args: { input_text: { index: 1, text: 'hi', clear: true } }, fixes: ['coerced:boolean'] }],
  ['an enum in the wrong case', native('scroll', { direction: 'UP', amount: '2.5' }), { args: { scroll: { direction: 'up', amount: 2.5 } }, fixes: ['coerced:enum', 'coerced:number'] }],
  [
    'a nested object as JSON text, through a $ref',
    native('search', { query: 'cats', filters: '{"max_results": "5"}', tags: 'pets' }),
    { args: { search: { query: 'cats', filters: { max_results: 5 }, tags: ['pets'] } }, fixes: ['double-encoded-arguments', 'coerced:integer', 'coerced:array'] },
  ],
  ['null for a nullable field', native('search', { query: 'cats', note: null }), { args: { search: { query: 'cats', note: null } }, fixes: [] }],
  ['null for an optional field', native('scroll', { direction: 'down', amount: null }), { args: { scroll: { direction: 'down' } }, fixes: ['dropped-null'] }],
  ['an empty value for an optional number', native('scroll', { direction: 'down', amount: '' }), { args: { scroll: { direction: 'down' } }, fixes: ['dropped-empty'] }],
  [
    'None for an optional nested number, beside an empty optional string it keeps',
    native('search', { query: 'cats', filters: { site: '', max_results: 'None' } }),
    { args: { search: { query: 'cats', filters: { site: '' } } }, fixes: ['dropped-empty'] },
  ],
  ['an empty value for a required enum', native('scroll', { direction: '' }), { error: `invalid_tool_args: scroll.direction: expected one of "down", "up", got "". ${AVAILABLE}` }],
  ['name/value pairs', native('search', [{ name: 'query', value: 'dogs' }]), { args: { search: { query: 'dogs' } }, fixes: ['argument-pairs'] }],
  ['a pythonic call', text('done(text="all set")'), { args: { done: { text: 'all set' } }, fixes: ['tool-markup:pythonic', 'reader:pythonic'] }],
  ['below a minimum', native('click_element', { index: -1 }), { error: `invalid_tool_args: click_element.index: expected integer ≥ 0, got -1. ${AVAILABLE}` }],
  ['a missing field', native('input_text', { index: 1 }), { error: `invalid_tool_args: input_text.text: required string, got nothing. ${AVAILABLE}` }],
  ['not in the enum', native('scroll', { direction: 'sideways' }), { error: `invalid_tool_args: scroll.direction: expected one of "down", "up", got "sideways". ${AVAILABLE}` }],
  [
    'over a maximum, nested behind a $ref',
    native('search', { query: 'q', filters: { max_results: 99 } }),
    { error: `invalid_tool_args: search.filters.max_results: expected integer ≥ 1 and ≤ 50, got 99. ${AVAILABLE}` },
  ],
  ['a wrong item type', native('search', { query: 'q', tags: ['a', { b: 1 }] }), { error: `invalid_tool_args: search.tags[1]: expected string, got {"b":1}. ${AVAILABLE}` }],
]

// The same tools as the actions of one macro tool.
const macroTable: Array<[string, ChatResponseMessage, Outcome]> = [
  ['a bare value for a one-field action', native('AgentOutput', { memory: 'm', action: { click_element: '4' } }), { args: { AgentOutput: { memory: 'm', action: { click_element: { index: 4 } } } }, fixes: ['bare-value', 'coerced:integer'] }],
  [
    'an action flattened beside its name',
    native('AgentOutput', { action: 'scroll', direction: 'Down' }),
    { args: { AgentOutput: { action: { scroll: { direction: 'down' } } } }, fixes: ['flattened-action', 'coerced:enum'] },
  ],
  ['an action called as a tool', native('input_text', { index: '7', text: 'x' }), { args: { AgentOutput: { action: { input_text: { index: 7, text: 'x', clear: false } } } }, fixes: ['action-as-tool', 'coerced:integer'] }],
  ['an invalid action input', native('AgentOutput', { action: { scroll: { direction: 'left' } } }), { error: `invalid_tool_args: AgentOutput.action.scroll.direction: expected one of "down", "up", got "left". ${ACTIONS}` }],
]

const kinds = Object.keys(schemasByKind) as Kind[]

describe('tool input schemas from every library', () => {
  describe.each(kinds)('%s', (kind) => {
    const tools = toolsOf(kind)
    const macro = { AgentOutput: createMacroTool(toolsOf(kind)) }

    it.each(table)('should repair %s as every other library does', (_name, message, expected) => {
      expect(outcome(message, tools)).toEqual(expected)
    })

    it.each(macroTable)('should shape a macro tool answer with %s as every other library does', (_name, message, expected) => {
      expect(outcome(message, macro)).toEqual(expected)
    })

    it('should send the model a JSON Schema with the fields and the required ones, $refs inlined', () => {
      const search = toToolJsonSchema(tools.search!.inputSchema)
      expect(search.type).toBe('object')
      expect(Object.keys(search.properties as object).sort()).toEqual(['filters', 'note', 'query', 'tags'])
      expect(search.required).toEqual(['query'])
      expect(JSON.stringify(search)).not.toContain('$ref')
      expect(search).not.toHaveProperty('$schema')
      expect((search.properties as Record<string, { properties?: object }>).filters!.properties).toHaveProperty('max_results')
    })
  })

  it('should have run the same table for five kinds of schema', () => {
    expect(kinds).toEqual(['zod 4', 'zod 3', 'valibot', 'ArkType', 'JSON Schema'])
  })

  it('should say how to fix a Standard Schema that cannot describe itself as JSON Schema (valibot without toStandardJsonSchema)', () => {
    let caught: unknown
    try {
      defineTool({ inputSchema: v.object({ index: v.number() }), execute: ({ index }) => index })
    } catch (error) {
      caught = error
    }
    expect(isInvokeError(caught) && caught.type).toBe('config_error')
    expect((caught as Error).message).toContain('A tool input schema from "valibot" has no JSON Schema to send to the model')
    expect((caught as Error).message).toContain('valibot through toStandardJsonSchema')
  })

  it("should type execute's input as each library's output type (defaults applied)", () => {
    type InputText = { index: number; text: string; clear: boolean }
    defineTool({ inputSchema: zod4Tools().input_text, execute: (input) => expectTypeOf(input).toEqualTypeOf<InputText>() })
    defineTool({ inputSchema: zod3Tools().input_text, execute: (input) => expectTypeOf(input).toEqualTypeOf<InputText>() })
    defineTool({ inputSchema: valibotTools().input_text, execute: (input) => expectTypeOf(input).toEqualTypeOf<InputText>() })
    defineTool({ inputSchema: arkTypeTools().input_text, execute: (input) => expectTypeOf(input).toEqualTypeOf<InputText>() })
    defineTool({ inputSchema: jsonSchemaTools().input_text, execute: (input) => expectTypeOf(input).toEqualTypeOf<InputText>() })
  })
})

describe('invoke with tools from every library', () => {
  let server: ScriptedServer
  beforeAll(async () => {
    server = await startScriptedServer({ script: [] })
  })
  afterAll(() => server.close())

  it.each(kinds)('should send, repair, validate and execute a %s tool over HTTP', async (kind) => {
    server.setScript([{ body: contentResponse('<tool_call>{"name": "input_text", "arguments": {"index": "2", "text": "hello"}}</tool_call>') }])
    const client = createClient({ baseURL: server.url, model: 'qwen3-8b', retry: 0 })
    const result = await client.invoke([{ role: 'user', content: 'type hello' }], toolsOf(kind))
    expect(result.toolCall).toEqual({ id: expect.any(String), name: 'input_text', args: { index: 2, text: 'hello', clear: false } })
    expect(result.toolResult).toEqual({ index: 2, text: 'hello', clear: false })
    const sent = server.requests[0]!.body.tools!.find((tool) => tool.function.name === 'input_text')!
    expect(sent.function.parameters).toMatchObject({ type: 'object', required: ['index', 'text'] })
  })

  it('should retry a JSON Schema tool call that fails validation, saying which field, and take the corrected call', async () => {
    server.setScript([{ body: toolCallResponse('click_element', { index: -5 }) }, { body: toolCallResponse('click_element', { index: 5 }) }])
    const client = createClient({ baseURL: server.url, model: 'gpt-4.1-mini', retry: { limit: 1, baseDelayMs: 1, maxDelayMs: 2, jitter: false } })
    const retried: string[] = []
    client.events.on('retry', ({ error }) => retried.push(`${error.type}: ${error.message}`))
    const result = await client.invoke([{ role: 'user', content: 'click' }], toolsOf('JSON Schema'))
    expect(result.toolCall.args).toEqual({ index: 5 })
    expect(result.toolResult).toEqual({ index: 5 })
    expect(retried).toEqual([expect.stringContaining('invalid_tool_args: [wildcall] click_element.index: expected integer ≥ 0, got -5.')])
  })
})
