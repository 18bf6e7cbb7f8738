import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { z as z3 } from 'zod3'
import { configError } from './__fixtures__/config-error'
import { defineTool } from './define-tool'
import { zod3Schema } from './zod3-schema'

const click = defineTool({ description: 'Click', inputSchema: z.object({ index: z.number() }) })

describe('defineTool', () => {
  it.each([
    ['a string', z.string(), '"string"'],
    ['an array', z.array(z.object({ index: z.number() })), '"array"'],
    ['a union of objects', z.union([z.object({ a: z.string() }), z.object({ b: z.number() })]), 'anyOf'],
    ['a zod 3 number', zod3Schema(z3.number()), '"number"'],
  ])('should reject %s as the top-level input schema and say how to wrap it', (_label, inputSchema, got) => {
    const message = configError(() => defineTool({ inputSchema }))
    expect(message).toContain(`the input schema must be an object at the top level (got ${got})`)
    expect(message).toContain('z.object({ value: z.string() })')
  })

  it('should accept object schemas of zod 4 and zod 3, refined ones included', () => {
    expect(() => defineTool({ inputSchema: z.object({ a: z.string() }).refine((value) => value.a !== '') })).not.toThrow()
    expect(() => defineTool({ inputSchema: zod3Schema(z3.object({ a: z3.string() })) })).not.toThrow()
  })
})
