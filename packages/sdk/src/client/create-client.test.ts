import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createClient, defineTool, isInvokeError } from '../index'
import { startScriptedServer, toolCallResponse, type ScriptedServer } from '../testing'

const tools = {
  click: defineTool({ description: 'Click', inputSchema: z.object({ index: z.number().int() }), execute: async ({ index }) => `clicked ${index}` }),
  done: defineTool({ description: 'Finish', inputSchema: z.object({ text: z.string() }) }),
}
const messages = [{ role: 'user', content: 'go' }]

describe('createClient', () => {
  let server: ScriptedServer
  beforeAll(async () => {
    server = await startScriptedServer({ script: [{ body: toolCallResponse('click', { index: 3 }) }] })
  })
  afterAll(() => server.close())

  it('should invoke a tool end to end over real HTTP', async () => {
    const client = createClient({ baseURL: server.url, model: 'gpt-4.1-mini', apiKey: 'sk-secret' })
    const result = await client.invoke(messages, tools, { toolChoiceName: 'click' })
    expect(result.toolCall).toMatchObject({ name: 'click', args: { index: 3 } })
    expect(result.toolResult).toBe('clicked 3')
    expect(result.attempts).toBe(1)
    const sent = server.requests.at(-1)!
    expect(sent.headers.authorization).toBe('Bearer sk-secret')
    expect(sent.body.tool_choice).toEqual({ type: 'function', function: { name: 'click' } })
    expect(sent.body.parallel_tool_calls).toBe(false)
    expect(sent.body).not.toHaveProperty('temperature')
  })

  it('should throw config_error naming the field', () => {
    try {
      createClient({ baseURL: '', model: 'x' })
      expect.unreachable()
    } catch (error) {
      expect(isInvokeError(error) && error.type).toBe('config_error')
      expect(String(error)).toContain('baseURL')
    }
  })
})
