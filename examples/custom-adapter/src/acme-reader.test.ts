import { createClient, defineTool, registerAdapter, type StreamEvent } from '@wildcall/sdk'
import { sseChunks, startScriptedServer, type ScriptedServer } from '@wildcall/sdk/testing'
import { testReader } from '@wildcall/sdk/testing/vitest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { acmeAdapter } from './acme-adapter'
import { acmeReader } from './acme-reader'

/** Acme's template: the field form for flat arguments. */
const render = ({ name, args }: { name: string; args: Record<string, unknown> }) =>
  `<<call:${name}>>\n${Object.entries(args).map(([key, value]) => `@${key} ${String(value)}\n`).join('')}<</call>>`

// The conformance kit every reader runs: render → read round trip, no invention, linear floods.
testReader(acmeReader, {
  render,
  scalars: 'text',
  calls: [
    { name: 'input_text', args: { index: 3, text: 'acme anvils: {heavy} <b>"grade A"</b>' } },
    { name: 'scroll', args: { down: true, num_pages: 2 } },
    { name: 'done', args: { text: 'ok' } },
    { name: 'wait', args: {} },
  ],
})

describe('acmeReader in a client', () => {
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
  const answer = 'I will type the query.\n<<call:input_text>>\n@index 3\n@text acme anvils, the heavy kind\n<</call>>'
  const whole = { choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' }] }
  /** The answer streamed in small pieces, as a server sends it. */
  const pieces = (text: string) => Array.from({ length: Math.ceil(text.length / 7) }, (_, index) => ({ choices: [{ index: 0, delta: { content: text.slice(index * 7, index * 7 + 7) } }] }))
  let server: ScriptedServer
  beforeAll(async () => {
    server = await startScriptedServer({ script: [] })
  })
  afterAll(() => server.close())

  it('should read the markup in invoke once given to createClient, on a host no adapter knows', async () => {
    server.setScript([{ body: whole }, { body: whole }])
    const plain = createClient({ baseURL: server.url, model: 'house-model', maxRetries: 0 })
    await expect(plain.invoke(messages, tools)).rejects.toMatchObject({ type: 'no_tool_call' })
    const client = createClient({ baseURL: server.url, model: 'house-model', readers: [acmeReader] })
    const result = await client.invoke(messages, tools)
    expect(result.toolCall).toMatchObject({ name: 'input_text', args: { index: 3, text: 'acme anvils, the heavy kind' } })
    expect(result.fixes).toEqual(expect.arrayContaining(['tool-markup:acme', 'reader:acme', 'coerced:integer']))
    expect(executed).toContainEqual({ index: 3, text: 'acme anvils, the heavy kind' })
  })

  it('should preview the fields while they stream through the registered adapter, and end with what invoke returns', async () => {
    const unregister = registerAdapter(acmeAdapter())
    try {
      // A millisecond apart, as a model streams: the stream previews once per network read, and
      // chunks written all at once arrive in one read (one preview, of the whole call).
      const chunks = sseChunks([...pieces(answer), { choices: [{ index: 0, delta: {}, finish_reason: 'call' }] }]).map((text) => ({ text, delayMs: 1 }))
      server.setScript([{ chunks }, { body: whole }])
      const client = createClient({ baseURL: server.url, model: 'acme-2' })
      const run = client.stream(messages, tools)
      const events: StreamEvent[] = []
      for await (const event of run) events.push(event)
      const streamed = await run.result
      const previews = events.filter((event) => event.type === 'partial')
      // The text grows field by field: the index first, then ever more of the text.
      expect(previews[0]).toMatchObject({ name: 'input_text', args: { index: '3' } })
      expect(previews.some((event) => event.type === 'partial' && typeof (event.args as { text?: unknown }).text === 'string' && ((event.args as { text: string }).text).length < 'acme anvils, the heavy kind'.length)).toBe(true)
      expect(previews.at(-1)).toMatchObject({ args: { index: '3', text: 'acme anvils, the heavy kind' } })
      const invoked = await client.invoke(messages, tools)
      expect({ name: streamed.toolCall.name, args: streamed.toolCall.args }).toEqual({ name: invoked.toolCall.name, args: invoked.toolCall.args })
      expect(streamed.fixes).toContain('reader:acme')
    } finally {
      unregister()
    }
  })

  it('should never execute a call cut before its closer', async () => {
    const before = executed.length
    server.setScript([{ body: { choices: [{ index: 0, message: { role: 'assistant', content: '<<call:input_text>>\n@index 3\n@text acme' }, finish_reason: 'stop' }] } }])
    const client = createClient({ baseURL: server.url, model: 'house-model', readers: [acmeReader], maxRetries: 0 })
    const error = await client.invoke(messages, tools).then(() => undefined, (caught: unknown) => caught as { type?: string })
    // Cut off (or, under a plain `stop`, malformed): an error either way, and nothing runs.
    expect(['output_truncated', 'no_tool_call']).toContain(error?.type)
    expect(executed).toHaveLength(before)
  })
})
