import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import * as zm from 'zod/mini'
import { toJSONSchema } from 'zod/v4/core'
import { createMacroTool, defineTool } from '../core'
import { isInvokeError } from '../errors/invoke-error'
import { compactJsonSchema, toToolJsonSchema, validateSchema } from './schema'

// The SDK imports no zod: a zod 4 schema is recognised by its shape (`_zod`) and describes itself
// through its Standard JSON Schema (`~standard.jsonSchema`, zod 4.2+).
describe('toToolJsonSchema (zod read by shape)', () => {
  it.each([
    ['defaults, bounds, enums and optionals', z.object({ index: z.number().int().min(0), mode: z.enum(['a', 'b']).default('a'), note: z.string().optional() })],
    ['a type with no JSON Schema (a date) as {}', z.object({ when: z.date(), tags: z.array(z.string()) })],
    ['a transform: its input side', z.object({ count: z.string().transform((text) => Number(text)) })],
    ['nested objects and unions', z.object({ target: z.union([z.object({ id: z.number() }), z.object({ name: z.string() })]), value: z.string().nullable() })],
  ])('should send a zod 4 schema with %s exactly as zod converts it', (_name, schema) => {
    const expected = compactJsonSchema(toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }))
    expect(toToolJsonSchema(schema)).toEqual(expected)
  })

  it('should ask the schema itself for its input side, zod types with no JSON Schema as {}', () => {
    const schema = z.object({ index: z.number() })
    const input = vi.spyOn(schema['~standard'].jsonSchema, 'input')
    toToolJsonSchema(schema)
    expect(input).toHaveBeenCalledWith({ target: 'draft-2020-12', libraryOptions: { unrepresentable: 'any' } })
  })

  it('should refuse a zod 4 schema that cannot describe itself (zod/mini) with a config_error that says what to use', () => {
    const schema = zm.object({ index: zm.number() })
    expect(Object.keys(schema['~standard'])).not.toContain('jsonSchema')
    let caught: unknown
    try {
      defineTool({ inputSchema: schema })
    } catch (error) {
      caught = error
    }
    expect(isInvokeError(caught) && caught.type).toBe('config_error')
    expect((caught as Error).message).toContain('from zod 4.2 on, imported from "zod" (not "zod/mini"): upgrade zod.')
  })
})

describe('createMacroTool default reflection (plain JSON Schema)', () => {
  const AgentOutput = createMacroTool({ done: defineTool({ inputSchema: z.object({ text: z.string() }) }) })

  it('should send the three optional string fields it always did', () => {
    const json = toToolJsonSchema(AgentOutput.inputSchema) as { properties: Record<string, unknown>; required: string[] }
    expect(json.properties.evaluation_previous_goal).toEqual({ type: 'string' })
    expect(json.properties.memory).toEqual({ type: 'string' })
    expect(json.properties.next_goal).toEqual({ type: 'string' })
    expect(json.required).toEqual(['action'])
  })

  it('should keep the string fields given and refuse any other type at its path', () => {
    expect(validateSchema(AgentOutput.inputSchema, { memory: 'm', next_goal: undefined, action: { done: { text: 'x' } } })).toEqual({
      success: true,
      data: { memory: 'm', action: { done: { text: 'x' } } },
    })
    const result = validateSchema(AgentOutput.inputSchema, { memory: 3, next_goal: null, action: { done: { text: 'x' } } })
    expect(result.success).toBe(false)
    if (result.success) return
    expect(result.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [['memory'], 'Invalid input: expected string, received number'],
      [['next_goal'], 'Invalid input: expected string, received null'],
    ])
  })
})
