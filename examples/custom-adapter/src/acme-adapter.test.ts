import { createClient, defineTool, isInvokeError, registerAdapter } from '@wildcall/sdk'
import { contentResponse, startScriptedServer, toolCallResponse, type ScriptedServer } from '@wildcall/sdk/testing'
import { testAdapter } from '@wildcall/sdk/testing/vitest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { acmeAdapter } from './acme-adapter'

const markup = (name: string, args: unknown, before = '') => contentResponse(`${before}<<call:${name}>>${JSON.stringify(args)}<</call>>`, { finishReason: 'call' })

// The conformance kit: the generic checks plus Acme's own cases.
testAdapter(acmeAdapter(), {
  matches: ['acme-2', 'Acme/Acme-2-Flash', { model: 'house-model', baseURL: 'https://api.acme.test/v1' }],
  rejects: ['acmeish-1', { model: 'house-model', baseURL: 'https://api.notacme.test/v1' }],
  requests: [
    {
      name: "on Acme's API: drops parallel_tool_calls, turns a named tool_choice into required, turns reasoning off",
      model: 'acme-2-flash',
      baseURL: 'https://api.acme.test/v1',
      toolChoiceName: 'done',
      after: { tool_choice: 'required', reasoning: 'off' },
      absent: ['parallel_tool_calls'],
    },
    {
      name: 'elsewhere (OpenRouter): only the model quirk, reasoning off',
      model: 'acme/acme-2-flash',
      baseURL: 'https://openrouter.ai/api/v1',
      toolChoiceName: 'done',
      after: { tool_choice: { type: 'function', function: { name: 'done' } }, parallel_tool_calls: false, reasoning: 'off' },
    },
    { name: 'keeps a reasoning setting another adapter made', model: 'acme-2', before: { reasoning: 'on' }, after: { reasoning: 'on' } },
    { name: 'leaves other families alone', model: 'gpt-4.1', after: { parallel_tool_calls: false }, absent: ['reasoning'] },
  ],
  responses: [
    { name: 'repairs its call markup', model: 'acme-2', response: markup('scroll', { down: true, num_pages: 2 }), expected: { name: 'scroll', args: { down: true, num_pages: 2 } } },
    { name: 'keeps a standard tool call', model: 'acme-2', response: toolCallResponse('done', { text: 'ok' }), expected: { name: 'done', args: { text: 'ok' } } },
    { name: 'finish "budget" is output_truncated', model: 'acme-2', response: contentResponse('<<call:done>>{"text":"cu', { finishReason: 'budget' }), expected: { error: 'output_truncated' } },
    { name: 'finish "guarded" is content_filter', model: 'acme-2', response: contentResponse('', { finishReason: 'guarded' }), expected: { error: 'content_filter' } },
    { name: 'a 400 about credit is quota_exceeded', model: 'acme-2', status: 400, response: { error: { message: 'Credit balance too low.' } }, expected: { error: 'quota_exceeded' } },
    { name: 'another 400 stays bad_request', model: 'acme-2', status: 400, response: { error: { message: 'messages: must not be empty' } }, expected: { error: 'bad_request' } },
  ],
  finishes: [
    { reason: 'call', expected: 'ok' },
    { reason: 'BUDGET', expected: 'truncated' },
    { reason: 'guarded', expected: 'filtered' },
    { reason: 'stop', expected: undefined },
  ],
})

testAdapter(acmeAdapter({ reasoning: true }), {
  requests: [{ name: 'the reasoning option turns it on', model: 'acme-2', after: { reasoning: 'on' } }],
})

describe('acmeAdapter registered at run time', () => {
  const executed: unknown[] = []
  const tools = {
    input_text: defineTool({
      description: 'Type text into the element with this index',
      inputSchema: z.object({ index: z.number().int(), text: z.string() }),
      execute: async (input) => {
        executed.push(input)
        return `typed into ${input.index}`
      },
    }),
    done: defineTool({ description: 'Finish', inputSchema: z.object({ text: z.string() }) }),
  }
  const messages = [{ role: 'user', content: 'Search for "acme anvils".' }]
  let server: ScriptedServer
  beforeAll(async () => {
    server = await startScriptedServer({ script: [{ body: markup('input_text', { index: 3, text: 'acme anvils' }, 'I will type the query. ') }] })
  })
  afterAll(() => server.close())

  it('should patch the request and repair the markup over real HTTP, and stop once unregistered', async () => {
    const unregister = registerAdapter(acmeAdapter())
    try {
      const client = createClient({ baseURL: server.url, model: 'acme/Acme-2-Flash' })
      expect(client.adapters).toEqual(['acme'])
      const result = await client.invoke(messages, tools, { toolChoiceName: 'input_text' })
      expect(result.toolCall).toMatchObject({ name: 'input_text', args: { index: 3, text: 'acme anvils' } })
      expect(result.toolResult).toBe('typed into 3')
      expect(executed).toEqual([{ index: 3, text: 'acme anvils' }])
      const sent = server.requests[0]!.body
      // A local server is not Acme's API: the model quirk applies, the provider's patches do not.
      expect(sent).toMatchObject({ model: 'acme/Acme-2-Flash', tool_choice: { type: 'function', function: { name: 'input_text' } }, parallel_tool_calls: false, reasoning: 'off' })
    } finally {
      unregister()
    }
    expect(createClient({ baseURL: server.url, model: 'acme/Acme-2-Flash' }).adapters).toEqual([])
  })

  it('should turn a "budget" finish into a non-retryable output_truncated', async () => {
    server.setScript([{ body: contentResponse('<<call:done>>{"text":"cut', { finishReason: 'budget' }) }])
    const client = createClient({ baseURL: server.url, model: 'acme-2', adapters: [acmeAdapter()], maxRetries: 2 })
    const error = await client.invoke(messages, tools).then(() => undefined, (caught: unknown) => caught)
    expect(isInvokeError(error) && error.type).toBe('output_truncated')
    expect(server.requests).toHaveLength(1)
  })
})
