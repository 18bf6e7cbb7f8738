import { describe, expect, it } from 'vitest'
import { createMacroTool } from '../macro/create-macro-tool'
import { toolDefinition } from '../client/build-request'
import { toResponseFormat } from '../client/prompt-mode'
import type { ChatToolDefinition } from '../types'
import { schemasByKind, toolsOf, type Kind } from './__fixtures__/library-tools'
import { grammarOf } from './__fixtures__/xgrammar-judge'
import { toStrictSchema } from './strict-schema'

const KINDS = Object.keys(schemasByKind) as Kind[]
const call = (name: string, args: unknown) => JSON.stringify({ name, arguments: args })
const definitionsOf = (kind: Kind, strict?: boolean): ChatToolDefinition[] => Object.entries(toolsOf(kind)).map(([name, tool]) => toolDefinition(name, tool, strict))
const schemaOf = (format: Record<string, unknown>) => (format.json_schema as { schema: unknown }).schema

/** `value` with its keys in the order `schema` lists them: a grammar fixes the order (ArkType sorts the keys). */
function ordered(value: unknown, schema: unknown): unknown {
  const node = (schema ?? {}) as { properties?: Record<string, unknown>; anyOf?: unknown[]; type?: unknown }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value
  const branch = node.anyOf?.find((item) => (item as { properties?: object }).properties) ?? node
  const properties = (branch as typeof node).properties ?? {}
  const record = value as Record<string, unknown>
  const keys = [...Object.keys(properties).filter((key) => key in record), ...Object.keys(record).filter((key) => !(key in properties))]
  return Object.fromEntries(keys.map((key) => [key, ordered(record[key], properties[key])]))
}

/** Every object of `schema` closed, listing all its properties in `required`, and no keyword a grammar cannot enforce. */
function expectStrictRules(schema: unknown): void {
  if (Array.isArray(schema)) return schema.forEach(expectStrictRules)
  if (typeof schema !== 'object' || schema === null) return
  const node = schema as Record<string, unknown>
  expect(node).not.toHaveProperty('minProperties')
  expect(node).not.toHaveProperty('maxProperties')
  expect(node).not.toHaveProperty('default')
  if (node.properties) {
    expect(node.additionalProperties).toBe(false)
    expect([...(node.required as string[])].sort()).toEqual(Object.keys(node.properties).sort())
  }
  for (const value of Object.values(node)) expectStrictRules(value)
}

// [what a model writes, admitted?], for the five tools of `./__fixtures__/library-tools`.
const PROMPT_CALLS: Array<[string, string, boolean]> = [
  ['a valid call', call('click_element', { index: 3 }), true],
  ['a valid call with optional fields left out', call('input_text', { index: 3, text: 'hi' }), true],
  ['a valid call with nested values', call('search', { query: 'q', filters: { max_results: 5 }, tags: ['a'], note: null }), true],
  ['a wrong type', call('click_element', { index: '3' }), false],
  ['an out-of-range value', call('scroll', { direction: 'down', amount: 11 }), false],
  ['a value outside the enum', call('scroll', { direction: 'left' }), false],
  ['an unknown tool', call('hover', { index: 3 }), false],
  ['a missing required field', call('input_text', { index: 3 }), false],
  ["another tool's arguments", call('done', { index: 3 }), false],
  ['an unknown field', call('click_element', { index: 3, double: true }), false],
  ['no envelope', JSON.stringify({ index: 3 }), false],
]

// [what a model writes as the macro tool's action, admitted?]
const ACTIONS: Array<[string, unknown, boolean]> = [
  ['one action', { click_element: { index: 3 } }, true],
  ['two actions', { click_element: { index: 3 }, done: { text: 'x' } }, false],
  ['an unknown action', { hover: { index: 3 } }, false],
  ['no action', {}, false],
  ['a wrong type in the action', { click_element: { index: 'three' } }, false],
  ['an out-of-range value in the action', { click_element: { index: -1 } }, false],
]

describe('toStrictSchema', () => {
  it('should make every field required, optional ones nullable, every object closed (OpenAI strict rules)', () => {
    const schema = { type: 'object', properties: { index: { type: 'integer' }, note: { type: 'string', default: 'x' }, mode: { enum: ['a', 'b'] }, nested: { type: 'object', properties: { deep: { type: ['string', 'null'] } } } }, required: ['index'] }
    expect(toStrictSchema(schema, true)).toEqual({
      type: 'object',
      properties: {
        index: { type: 'integer' },
        note: { type: ['string', 'null'] },
        mode: { anyOf: [{ enum: ['a', 'b'] }, { type: 'null' }] },
        nested: { type: ['object', 'null'], properties: { deep: { type: ['string', 'null'] } }, required: ['deep'], additionalProperties: false },
      },
      required: ['index', 'note', 'mode', 'nested'],
      additionalProperties: false,
    })
    // The tool's own schema is not touched.
    expect(schema.required).toEqual(['index'])
  })

  it.each([
    ['a free-form record', { type: 'object', properties: { tags: { type: 'object', additionalProperties: { type: 'string' } } } }],
    ['an object of anything', { type: 'object', properties: { data: { type: 'object' } } }],
    ['propertyNames', { type: 'object', propertyNames: { pattern: '^a' }, properties: {} }],
    ['patternProperties', { type: 'object', properties: {}, patternProperties: { '^x-': { type: 'string' } } }],
    ['allOf', { type: 'object', properties: { a: { allOf: [{ type: 'string' }, { minLength: 1 }] } } }],
    ['not', { type: 'object', properties: { a: { not: { type: 'null' } } } }],
    ['a root that is not an object', {}],
  ])('should give up on %s (the tool goes without strict)', (_name, schema) => {
    expect(toStrictSchema(schema, true)).toBeUndefined()
  })

  it('should keep a record for a grammar (response_format), where strict mode cannot', () => {
    const record = { type: 'object', additionalProperties: { type: 'string' } }
    expect(toStrictSchema({ type: 'object', properties: { tags: record } }, false)).toEqual({ type: 'object', properties: { tags: record }, additionalProperties: false })
  })
})

describe.each(KINDS)('the schemas constrained decoding sends (%s tools), judged by xgrammar', (kind) => {
  it('should admit in response_format exactly one valid call of the plain tools', async () => {
    const definitions = definitionsOf(kind)
    const format = toResponseFormat(definitions)
    expect(format).toMatchObject({ type: 'json_schema', json_schema: { name: 'tool_call', strict: true } })
    const accepts = await grammarOf(schemaOf(format))
    const parameters = (name: string) => definitions.find((definition) => definition.function.name === name)?.function.parameters
    for (const [what, text, admitted] of PROMPT_CALLS) {
      const written = JSON.parse(text) as { name?: string; arguments?: unknown }
      const inOrder = written.name ? call(written.name, ordered(written.arguments, parameters(written.name))) : text
      expect([what, await accepts(inOrder)]).toEqual([what, admitted])
    }
  })

  it('should admit in response_format only the tool toolChoiceName names', async () => {
    const accepts = await grammarOf(schemaOf(toResponseFormat(definitionsOf(kind), 'done')))
    expect(await accepts(call('done', { text: 'ok' }))).toBe(true)
    expect(await accepts(call('click_element', { index: 3 }))).toBe(false)
  })

  it('should send strict tools that meet the strict rules, admit the valid arguments and refuse the invalid', async () => {
    const strict = definitionsOf(kind, true)
    for (const definition of strict) {
      expect(definition.function.strict).toBe(true)
      expectStrictRules(definition.function.parameters)
    }
    const judges = Object.fromEntries(await Promise.all(strict.map(async (definition) => [definition.function.name, await grammarOf(definition.function.parameters)] as const)))
    const schemas = Object.fromEntries(strict.map((definition) => [definition.function.name, definition.function.parameters]))
    const judge = (name: string) => (text: string) => judges[name]!(JSON.stringify(ordered(JSON.parse(text), schemas[name])))
    expect(await judge('click_element')(JSON.stringify({ index: 3 }))).toBe(true)
    expect(await judge('input_text')(JSON.stringify({ index: 3, text: 'hi', clear: null }))).toBe(true)
    expect(await judge('search')(JSON.stringify({ query: 'q', filters: { site: null, max_results: 5 }, tags: null, note: 'n' }))).toBe(true)
    expect(await judge('click_element')(JSON.stringify({ index: '3' }))).toBe(false)
    expect(await judge('click_element')(JSON.stringify({ index: -1 }))).toBe(false)
    expect(await judge('scroll')(JSON.stringify({ direction: 'down', amount: 11 }))).toBe(false)
    // Strict: every field is written, an optional one as null at least.
    expect(await judge('input_text')(JSON.stringify({ index: 3, text: 'hi' }))).toBe(false)
    expect(await judge('input_text')(JSON.stringify({ index: 3, clear: null }))).toBe(false)
    expect(await judge('done')(JSON.stringify({ index: 3 }))).toBe(false)
  })

  it('should admit exactly one action of the reference macro tool, in response_format and as a strict tool', async () => {
    const AgentOutput = createMacroTool(toolsOf(kind))
    const definition = toolDefinition('AgentOutput', AgentOutput)
    const reflection = Object.keys(definition.function.parameters.properties as object).filter((key) => key !== 'action')
    const viaFormat = await grammarOf(schemaOf(toResponseFormat([definition])))
    const strict = toolDefinition('AgentOutput', AgentOutput, true)
    expect(strict.function.strict).toBe(true)
    expectStrictRules(strict.function.parameters)
    const viaStrict = await grammarOf(strict.function.parameters)
    for (const [what, action, admitted] of ACTIONS) {
      expect([what, await viaFormat(call('AgentOutput', { next_goal: 'go', action }))]).toEqual([what, admitted])
      const args = { ...Object.fromEntries(reflection.map((key) => [key, null])), next_goal: 'go', action }
      expect([what, await viaStrict(JSON.stringify(args))]).toEqual([what, admitted])
    }
    expect(await viaFormat(call('AgentOutput', { next_goal: 'go' }))).toBe(false)
    expect(await viaFormat(call('click_element', { index: 3 }))).toBe(false)
  })
})
