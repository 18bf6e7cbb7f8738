import { describe, expect, expectTypeOf, it, vi } from 'vitest'
import { z } from 'zod'
import { z as zodV3 } from 'zod/v3'
import { z as z3 } from 'zod3'
import { createClient, createMacroTool, defineTool, isInvokeError } from '../index'
import { toolCallResponse } from '../testing'
import type { Tool } from './types'
import { zod3Schema } from '../zod3'
import { configError } from './__fixtures__/config-error'
import { compactJsonSchema, toToolJsonSchema, validateSchema, type StandardSchemaLike } from './schema'
import { zod3ToJsonSchema } from './zod3-to-json-schema'

const Click = z3.object({ index: z3.number().int().min(0).describe('Element index'), clear: z3.boolean().default(true) })
const Search = z3.object({
  query: z3.string().min(1).transform((text) => text.trim()),
  limit: z3.number().int().positive().max(50).default(10),
  site: z3.string().url().optional(),
  kind: z3.enum(['news', 'blog']).nullable().optional(),
})

describe('zod3Schema', () => {
  it('should send the model the JSON Schema the zod 3 converter gives, normalised as before', () => {
    for (const schema of [Click, Search]) {
      const sent = toToolJsonSchema(zod3Schema(schema))
      expect(JSON.stringify(sent)).toBe(JSON.stringify(compactJsonSchema(zod3ToJsonSchema(schema))))
    }
    expect(toToolJsonSchema(zod3Schema(Click))).toEqual({
      type: 'object',
      properties: { index: { type: 'integer', minimum: 0, description: 'Element index' }, clear: { type: 'boolean', default: true } },
      required: ['index'],
      additionalProperties: false,
    })
  })

  it.each([
    ['a valid call', Click, { index: 3 }],
    ['a wrong type', Click, { index: '3' }],
    ['a missing field', Click, {}],
    ['a value under the minimum', Click, { index: -1, clear: false }],
    ['a transform and a default', Search, { query: '  cats ' }],
    ['several issues at once', Search, { query: '', limit: 99, site: 'not a url', kind: 'video' }],
    ['not an object', Search, 'cats'],
  ])('should validate %s exactly as the zod 3 schema does', (_label, schema, value) => {
    const wrapped = zod3Schema(schema)
    expect(wrapped['~standard'].validate(value)).toEqual(schema['~standard'].validate(value))
    expect(validateSchema(wrapped, value)).toEqual(validateSchema(schema as StandardSchemaLike, value))
  })

  it('should keep an async refinement a config error, as before', () => {
    const schema = z3.object({ name: z3.string().refine(async () => true) })
    expect(configError(() => validateSchema(zod3Schema(schema), { name: 'a' }))).toContain('validated asynchronously')
  })

  it("should give the schema as it was, and type execute's input as the zod 3 output", () => {
    const wrapped = zod3Schema(Search)
    expect(wrapped.schema).toBe(Search)
    defineTool({ inputSchema: wrapped, execute: (input) => expectTypeOf(input).toEqualTypeOf<{ query: string; limit: number; site?: string | undefined; kind?: 'news' | 'blog' | null | undefined }>() })
  })

  it('should accept the zod 3 of the zod 4 package (zod/v3)', () => {
    const tool = defineTool({ inputSchema: zod3Schema(zodV3.object({ index: zodV3.number() })) })
    expect(toToolJsonSchema(tool.inputSchema)).toMatchObject({ type: 'object', required: ['index'] })
    expect(validateSchema(tool.inputSchema, { index: 1 })).toEqual({ success: true, data: { index: 1 } })
  })

  it('should refuse what is not a zod 3 schema, saying what to do', () => {
    expect(configError(() => zod3Schema(z.object({ index: z.number() }) as never))).toBe(
      '[wildcall] zod3Schema() got a zod 4 schema: pass it to defineTool as it is, without zod3Schema().',
    )
    for (const value of [undefined, null, {}, { _def: {} }, zod3Schema(Click)]) {
      expect(configError(() => zod3Schema(value as never))).toBe('[wildcall] zod3Schema() needs a zod 3.25+ schema, e.g. zod3Schema(z.object({ index: z.number() })).')
    }
  })
})

describe('a bare zod 3 schema in @wildcall/sdk (zero configuration)', () => {
  it.each([
    ['zod3', Click],
    ['zod/v3', zodV3.object({ index: zodV3.number().int().min(0).describe('Element index'), clear: zodV3.boolean().default(true) })],
  ])('should be read as it is by defineTool, with the JSON Schema zod3Schema() gives (%s)', (_label, schema) => {
    const bare = defineTool({ inputSchema: schema as never })
    expect(bare.inputSchema).toBe(schema)
    expect(toToolJsonSchema(bare.inputSchema)).toEqual(toToolJsonSchema(zod3Schema(schema as never)))
  })

  it('should work as a macro action, as the reflection schema, in invoke and in stream', async () => {
    const reflection = z3.object({ memory: z3.string() })
    const AgentOutput = createMacroTool({ click: defineTool({ inputSchema: Click, execute: async ({ index }) => index }) }, { reflection })
    const args = { memory: 'm', action: { click: { index: '2' } } }
    const customFetch = vi.fn(async () => new Response(JSON.stringify(toolCallResponse('AgentOutput', args))))
    const client = createClient({ baseURL: 'http://127.0.0.1:9/v1', model: 'gpt-4.1-mini', customFetch, retry: 0 })
    const invoked = await client.invoke([{ role: 'user', content: 'click' }], { AgentOutput })
    expect(invoked.toolResult).toMatchObject({ action: { name: 'click', input: { index: 2, clear: true } }, output: 2 })
    const streamed = await client.stream([{ role: 'user', content: 'click' }], { AgentOutput }).result
    expect(streamed.toolResult).toMatchObject({ action: { name: 'click', input: { index: 2, clear: true } }, output: 2 })
    const [, init] = customFetch.mock.calls[0] as unknown as [string, RequestInit]
    const sent = JSON.parse(String(init.body)) as { tools: Array<{ function: { parameters: unknown } }> }
    expect(JSON.stringify(sent.tools[0]!.function.parameters)).toContain('"Element index"')
  })
})
