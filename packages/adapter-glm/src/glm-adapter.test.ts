import fc from 'fast-check'
import { createClient, defineTool, repairToolCall } from '@wildcall/sdk'
import { testAdapter } from '@wildcall/sdk/testing/vitest'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import insufficientBalance from './__fixtures__/glm-insufficient-balance.json'
import markupInContent from './__fixtures__/glm-markup-in-content.json'
import networkError from './__fixtures__/glm-network-error.json'
import promptTooLong from './__fixtures__/glm-prompt-too-long.json'
import sensitive from './__fixtures__/glm-sensitive.json'
import toolCall from './__fixtures__/glm-tool-call.json'
import unsafeContent from './__fixtures__/glm-unsafe-content.json'
import { glmAdapter } from './glm-adapter'

testAdapter(glmAdapter(), {
  matches: ['glm-4.6', 'zai-org/GLM-4.5-Air', 'glm-4.5v', { model: 'z-ai/glm-4.6', baseURL: 'https://openrouter.ai/api/v1' }],
  rejects: ['kimi-k2-instruct', 'qwen3-max', 'gemini-2.5-flash'],
  requests: [
    { name: 'glm-4.6: thinking disabled, tool_choice kept', model: 'glm-4.6', toolChoiceName: 'done', after: { thinking: { type: 'disabled' }, tool_choice: { type: 'function', function: { name: 'done' } }, parallel_tool_calls: false } },
    { name: 'zai-org/GLM-4.5-Air: thinking disabled', model: 'zai-org/GLM-4.5-Air', after: { thinking: { type: 'disabled' } } },
  ],
  responses: [
    { name: 'a parsed call', model: 'glm-4.6', response: toolCall, expected: { name: 'done', args: { text: 'The invoice is paid.' } } },
    { name: 'GLM arg_key/arg_value markup left in content', model: 'zai-org/GLM-4.5-Air', response: markupInContent, expected: { name: 'input_text', args: { index: 4, text: 'hello' } } },
    { name: 'finish_reason sensitive', model: 'glm-4.6', response: sensitive, expected: { error: 'content_filter' } },
    { name: 'finish_reason network_error is a retryable server_error', model: 'glm-4.6', response: networkError, expected: { error: 'server_error' } },
    { name: '1113 insufficient balance (HTTP 429) is quota_exceeded', model: 'glm-4.6', status: 429, response: insufficientBalance, expected: { error: 'quota_exceeded' } },
    { name: '1261 prompt exceeds max length', model: 'glm-4.6', status: 400, response: promptTooLong, expected: { error: 'context_length' } },
    { name: '1301 unsafe content', model: 'glm-4.6', status: 400, response: unsafeContent, expected: { error: 'content_filter' } },
  ],
  finishes: [
    { reason: 'sensitive', expected: 'filtered' },
    { reason: 'network_error', expected: 'server_error' },
    { reason: 'model_context_window_exceeded', expected: 'truncated' },
    { reason: 'tool_calls', expected: undefined },
  ],
})

testAdapter(glmAdapter({ thinking: true }), {
  requests: [{ name: 'thinking: true sends no thinking switch', model: 'glm-4.6', absent: ['thinking'] }],
})

describe('glmAdapter in prompt mode', () => {
  it('should ask for the JSON object under response_format', () => {
    const block = glmAdapter().prompt!.tools([{ name: 'click', parameters: { type: 'object' } }], undefined, true)
    expect(block).toContain('written as one JSON object:\n{"name": <function-name>, "arguments": <args-json-object>}')
    expect(block).not.toContain('<arg_key>')
  })

  it('should ask for GLM markup, write past calls in it and read the answer', async () => {
    const sent: Array<{ messages: Array<{ role: string; content: string }>; tools?: unknown }> = []
    const client = createClient({
      baseURL: 'http://127.0.0.1:9/v1',
      model: 'glm-4.6',
      toolMode: 'prompt',
      // Without response_format: under it, the block asks for the JSON object the grammar admits (below).
      strict: false,
      adapters: [glmAdapter()],
      customFetch: async (_url, init) => {
        sent.push(JSON.parse(String(init?.body)))
        const content = '<tool_call>input_text\n<arg_key>index</arg_key>\n<arg_value>4</arg_value>\n<arg_key>text</arg_key>\n<arg_value>a\nb<c</arg_value>\n</tool_call>'
        return new Response(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }), { status: 200 })
      },
    })
    const input_text = defineTool({ description: 'Type', inputSchema: z.object({ index: z.number().int(), text: z.string() }) })
    const history = [
      { role: 'user', content: 'type' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function' as const, function: { name: 'input_text', arguments: '{"index":1,"text":"hi"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'typed' },
    ]
    const result = await client.invoke(history, { input_text })
    expect(result.toolCall.args).toEqual({ index: 4, text: 'a\nb<c' })
    const [body] = sent
    expect(body!.tools).toBeUndefined()
    expect(body!.messages[0]!.content).toContain('<arg_key>{arg-key-1}</arg_key>')
    expect(body!.messages[2]!.content).toBe('<tool_call>input_text\n<arg_key>index</arg_key>\n<arg_value>1</arg_value>\n<arg_key>text</arg_key>\n<arg_value>hi</arg_value>\n</tool_call>')
    expect(body!.messages[3]).toEqual({ role: 'user', content: '<tool_response>\ntyped\n</tool_response>' })
  })
})

describe('glmAdapter prompt form', () => {
  it('should have every call it renders read back with identical values (any text without the format\'s own tags)', () => {
    const { prompt, readers } = glmAdapter()
    const tools = { fill: defineTool({ inputSchema: z.object({ text: z.string(), count: z.number(), flag: z.boolean(), list: z.array(z.union([z.string(), z.number()])) }) }) }
    const text = fc.string({ unit: 'grapheme' }).filter((value) => !/<\/?arg_(?:key|value)>|<\/?tool_call>/.test(value))
    fc.assert(
      fc.property(text, fc.double({ noNaN: true, noDefaultInfinity: true }).filter((value) => !Object.is(value, -0)), fc.boolean(), fc.array(fc.oneof(text, fc.integer()), { maxLength: 3 }), (value, count, flag, list) => {
        const args = { text: value, count, flag, list }
        const read = repairToolCall({ role: 'assistant', content: prompt!.call('fill', args) }, tools, { readers: [...readers!] })
        expect(read.toolCall).toMatchObject({ name: 'fill' })
        expect(read.toolCall.args).toEqual(args)
      }),
      { numRuns: 300 },
    )
  })
})
