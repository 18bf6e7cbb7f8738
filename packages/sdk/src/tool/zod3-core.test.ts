import { describe, expect, it, vi } from 'vitest'
import { z as zodV3 } from 'zod/v3'
import { z as z3 } from 'zod3'
import { createClient, createMacroTool, defineTool, isInvokeError } from '../core'
import { streaming } from '../streaming'
import { toolCallResponse } from '../testing'
import type { Tool } from './types'
import { zod3Schema } from '../zod3'
import { configError } from './__fixtures__/config-error'

// Issue 14: in @wildcall/sdk/core the zod 3 converter is an opt-in import. This file imports nothing
// from the root entry, which would install the converter for the whole module graph.

/** What a user must read to fix a bare zod 3 schema: what it is, the import, the alternative. */
function expectZod3Advice(message: string): void {
  expect(message).toContain('is a zod 3 schema')
  expect(message).toContain('zod3Schema(z.object({ … }))')
  expect(message).toContain('import { zod3Schema } from "@wildcall/sdk/zod3"')
  expect(message).toContain('upgrade to zod 4')
}

const Click = z3.object({ index: z3.number().int().min(0).describe('Element index'), clear: z3.boolean().default(true) })

describe('a bare zod 3 schema in @wildcall/sdk/core (without zod3Schema)', () => {
  it.each([
    ['zod3', Click],
    ['zod/v3', zodV3.object({ index: zodV3.number() })],
  ])('should be a config error in defineTool that shows the fix (%s)', (_label, schema) => {
    expectZod3Advice(configError(() => defineTool({ inputSchema: schema as never })))
  })

  it('should be a config error as a macro action and as the reflection schema', () => {
    const bare = { inputSchema: Click } as unknown as Tool
    expectZod3Advice(configError(() => createMacroTool({ click: bare })))
    const click = defineTool({ inputSchema: zod3Schema(Click) })
    expectZod3Advice(configError(() => createMacroTool({ click }, { reflection: z3.object({ memory: z3.string() }) as never })))
  })

  it('should fail invoke and stream before any request is sent', async () => {
    const customFetch = vi.fn(async () => new Response(JSON.stringify(toolCallResponse('click', { index: 1 }))))
    const client = createClient({ baseURL: 'http://127.0.0.1:9/v1', model: 'gpt-4.1-mini', customFetch, retry: 0, streaming })
    const tools = { click: { inputSchema: Click } as unknown as Tool }
    const invoked = await client.invoke([{ role: 'user', content: 'click' }], tools).catch((error: unknown) => error)
    expect(isInvokeError(invoked) && invoked.type).toBe('config_error')
    expectZod3Advice((invoked as Error).message)
    const streamed = await (async () => client.stream([{ role: 'user', content: 'click' }], tools).result)().catch((error: unknown) => error)
    expect(isInvokeError(streamed) && streamed.type).toBe('config_error')
    expectZod3Advice((streamed as Error).message)
    expect(customFetch).not.toHaveBeenCalled()
  })
})

describe('zod3Schema in @wildcall/sdk/core', () => {
  it('should make a zod 3 tool work in invoke', async () => {
    const click = defineTool({ inputSchema: zod3Schema(Click), execute: async ({ index }) => index })
    const customFetch = vi.fn(async () => new Response(JSON.stringify(toolCallResponse('click', { index: '4' }))))
    const client = createClient({ baseURL: 'http://127.0.0.1:9/v1', model: 'gpt-4.1-mini', customFetch, retry: 0 })
    const result = await client.invoke([{ role: 'user', content: 'click' }], { click })
    expect(result.toolCall.args).toEqual({ index: 4, clear: true })
    expect(result.toolResult).toBe(4)
  })
})
