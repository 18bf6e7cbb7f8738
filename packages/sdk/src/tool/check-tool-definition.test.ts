import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { z as z3 } from 'zod3'
import { createClient } from '../client/create-client'
import { isInvokeError } from '../errors/invoke-error'
import { createMacroTool } from '../macro/create-macro-tool'
import { defineTool } from './define-tool'
import { zod3Schema } from './zod3-schema'

function configError(run: () => unknown): string {
  try {
    run()
  } catch (error) {
    if (isInvokeError(error) && error.type === 'config_error') return error.message
    throw error
  }
  throw new Error('expected a config_error')
}

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

describe('tool names', () => {
  it.each([
    ['a space', 'click element', 'click_element'],
    ['a dot', 'browser.click', 'browser_click'],
    ['65 characters', 'a'.repeat(65), 'a'.repeat(64)],
    ['nothing', '', 'tool'],
  ])('should reject a tool name with %s in invoke before anything is sent, suggesting a valid one', async (_label, name, suggestion) => {
    let sent = 0
    const client = createClient({ baseURL: 'http://127.0.0.1:1/v1', model: 'm', customFetch: async () => (sent++, new Response('{}')) })
    const error = await client.invoke([{ role: 'user', content: 'go' }], { [name]: click }).catch((caught: unknown) => caught)
    expect(isInvokeError(error) && error.type).toBe('config_error')
    expect(String(error)).toContain('is refused by the OpenAI API: use 1 to 64 letters, digits, "_" or "-"')
    expect(String(error)).toContain(`e.g. "${suggestion}"`)
    expect(sent).toBe(0)
  })

  it('should reject an action name the OpenAI API refuses in createMacroTool', () => {
    expect(configError(() => createMacroTool({ 'click element': click }))).toContain('createMacroTool: action name "click element" is refused by the OpenAI API')
    expect(() => createMacroTool({ click_element: click, 'go-back': click })).not.toThrow()
  })
})
