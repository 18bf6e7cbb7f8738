import { builtinModules } from 'node:module'
import { fileURLToPath } from 'node:url'
import { runInNewContext } from 'node:vm'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))
const nodeBuiltins = new Set(builtinModules)

/** Bundles `contents` for the browser; records any Node built-in the bundle would import. */
async function bundle(contents: string, format: 'esm' | 'iife') {
  const reached: string[] = []
  const result = await build({
    stdin: { contents, resolveDir: here('.'), loader: 'ts' },
    bundle: true,
    format,
    globalName: 'bundle',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    alias: { '@wildcall/sdk': here('../../sdk/src/index.ts'), '@wildcall/sdk/json-schema': here('../../sdk/src/json-schema.ts') },
    plugins: [
      {
        name: 'record-node-imports',
        setup(builder) {
          builder.onResolve({ filter: /.*/ }, (args) => {
            if (args.path.startsWith('node:') || nodeBuiltins.has(args.path.split('/')[0]!)) {
              reached.push(`${args.path} (from ${args.importer})`)
              return { path: args.path, external: true }
            }
            return undefined
          })
        },
      },
    ],
  })
  return { code: result.outputFiles[0]!.text, reached }
}

describe('@wildcall/otel in the browser', () => {
  it('should bundle for the browser, @opentelemetry/api included, without a Node built-in', async () => {
    const { code, reached } = await bundle("export * from './index.ts'", 'esm')
    expect(reached).toEqual([])
    expect(code).toContain('gen_ai.client.inference.duration')
  })

  it('should trace a step in a page-like realm with no process, require or Buffer', async () => {
    const entry = `
      import { trace } from '@opentelemetry/api'
      import { createClient, defineTool } from '@wildcall/sdk'
      import { jsonSchema } from '@wildcall/sdk/json-schema'
      import { instrument } from './index.ts'
      export async function run(answer) {
        const ended = []
        // A tracer provider of the API's own shape, recording span names and attributes.
        const tracerProvider = { getTracer: () => ({ startSpan(name, options = {}) {
          const attributes = { ...options.attributes }
          const span = { spanContext: () => ({ traceId: '0'.repeat(31) + '1', spanId: String(ended.length + 1).padStart(16, '0'), traceFlags: 1 }), setAttribute(key, value) { attributes[key] = value; return span },
            setAttributes(values) { Object.assign(attributes, values); return span }, addEvent() { return span }, setStatus() { return span }, updateName() { return span }, isRecording: () => true, recordException() {}, end() { ended.push([name, attributes]) }, addLink() { return span }, addLinks() { return span } }
          return span
        } }) }
        const customFetch = async () => new Response(answer, { status: 200, headers: { 'content-type': 'application/json' } })
        const client = createClient({ baseURL: 'https://api.openai.com/v1', model: 'gpt-4.1-mini', apiKey: 'sk-browser', customFetch })
        const stop = instrument(client, { tracerProvider })
        const tools = { done: defineTool({ inputSchema: jsonSchema({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }), execute: ({ text }) => text }) }
        await client.invoke([{ role: 'user', content: 'hi' }], tools)
        stop()
        return ended
      }
    `
    const { code, reached } = await bundle(entry, 'iife')
    expect(reached).toEqual([])
    const answer = JSON.stringify({ id: 'chatcmpl-b', model: 'gpt-4.1-mini', choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', tool_calls: [{ id: 'call_b', type: 'function', function: { name: 'done', arguments: '{"text":"ok"}' } }] } }], usage: { prompt_tokens: 5, completion_tokens: 2 } })
    const page = { Response, Headers, URL, TextDecoder, TextEncoder, AbortController, AbortSignal, DOMException, performance, setTimeout, clearTimeout, queueMicrotask, console, fetch: undefined }
    const realm = runInNewContext(`${code}; bundle`, page) as { run(answer: string): Promise<Array<[string, Record<string, unknown>]>> }
    expect(runInNewContext('typeof process + typeof require + typeof Buffer', page)).toBe('undefinedundefinedundefined')
    const ended = await realm.run(answer)
    expect(ended.map(([name]) => name)).toEqual(['chat gpt-4.1-mini', 'execute_tool done', 'wildcall.step'])
    expect(ended[0]![1]).toMatchObject({ 'gen_ai.provider.name': 'openai', 'server.address': 'api.openai.com', 'server.port': 443, 'gen_ai.usage.input_tokens': 5 })
  })
})
