import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import * as core from '../core'
import * as root from '../index'
import { builtInReaders, decodeArgument, hermesReader, xmlCallReader } from '../readers'
import type { ChatResponse } from '../types'
import type { ToolSet } from '../tool/types'
import { createBrowserTools } from './__fixtures__/browser-tools'
import { composeReaders, type Reader, type ReaderCall } from './reader'

const tools = createBrowserTools()
const AgentOutput = root.createMacroTool(tools)
const macro = { AgentOutput }

interface CorpusEntry {
  id: string
  response: ChatResponse
}
const directory = new URL('./__fixtures__/', import.meta.url)
const corpus = readdirSync(directory)
  .filter((file) => /^[a-f]-.*\.json$/.test(file))
  .sort()
  .flatMap((file) => JSON.parse(readFileSync(new URL(file, directory), 'utf8')) as CorpusEntry[])

/** What a repair came to, comparable across two entry points: the call and its fixes, or the error. */
function outcome(run: () => { toolCall: unknown; fixes: string[]; dropped: unknown }) {
  try {
    const { toolCall, fixes, dropped } = run()
    return { toolCall, fixes, dropped }
  } catch (error) {
    return root.isInvokeError(error) ? { error: error.type, message: error.message } : { raw: String(error) }
  }
}

/** `@@name key=value …@@`: a made-up markup, read by a reader written outside the built-in set. */
const atReader: Reader = {
  name: 'at-at',
  formats: ['tool-markup:at-at'],
  read(text, context) {
    const calls: ReaderCall[] = []
    for (const match of text.matchAll(/@@(\w+)((?: \w+=[^\s@]+)*)( ?@@)?/g)) {
      const end = match.index + match[0].length
      if (context.claimed(match.index, end)) continue
      if (!match[3]) {
        calls.push({ args: undefined, format: 'tool-markup:at-at', fixes: [], start: match.index, end, truncated: true })
        continue
      }
      const args = Object.fromEntries(match[2]!.trim().split(' ').filter(Boolean).map((pair) => pair.split('=')))
      calls.push({ name: match[1], args, format: 'tool-markup:at-at', fixes: [], start: match.index, end })
    }
    return calls
  },
}

const content = (text: string) => ({ role: 'assistant', content: text })
const ask = [{ role: 'user' as const, content: 'Go on.' }]

describe('readers', () => {
  it('should give identical results for the whole repair corpus through the default entry and through core with the built-in readers passed', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(150)
    const differences: string[] = []
    let read = 0
    for (const entry of corpus) {
      const message = entry.response.choices[0]?.message
      if (!message) continue
      const viaRoot = outcome(() => root.repairToolCall(message, macro, { toolChoiceName: 'AgentOutput' }))
      const viaCore = outcome(() => core.repairToolCall(message, macro, { toolChoiceName: 'AgentOutput', readers: [...builtInReaders] }))
      if (JSON.stringify(viaRoot) !== JSON.stringify(viaCore)) differences.push(`${entry.id}: ${JSON.stringify(viaRoot)} ≠ ${JSON.stringify(viaCore)}`)
      if ('fixes' in viaRoot && viaRoot.fixes?.some((code) => code.startsWith('reader:'))) read++
    }
    expect(differences).toEqual([])
    // The corpus exercises the readers: most of its answers are written into the text.
    expect(read).toBeGreaterThan(60)
  })

  it('should give identical invoke results through a default client and a core client given the built-in readers', async () => {
    const differences: string[] = []
    for (const entry of corpus) {
      const customFetch = async () => new Response(JSON.stringify(entry.response), { headers: { 'content-type': 'application/json' } })
      const config = { baseURL: 'http://127.0.0.1:9/v1', model: entry.response.model ?? 'gpt-4.1-mini', maxRetries: 0, customFetch }
      const run = async (client: root.Client) => {
        try {
          const result = await client.invoke([{ role: 'user', content: entry.id }], macro, { toolChoiceName: 'AgentOutput' })
          return { args: result.toolCall.args, fixes: result.fixes, output: result.toolResult }
        } catch (error) {
          return root.isInvokeError(error) ? { error: error.type, message: error.message } : { raw: String(error) }
        }
      }
      const viaRoot = await run(root.createClient(config))
      const viaCore = await run(core.createClient({ ...config, readers: [...builtInReaders] }))
      if (JSON.stringify(viaRoot) !== JSON.stringify(viaCore)) differences.push(`${entry.id}: ${JSON.stringify(viaRoot)} ≠ ${JSON.stringify(viaCore)}`)
    }
    expect(differences).toEqual([])
  })

  it('should read only JSON in a core client, and a family markup once its adapter declares the reader', async () => {
    const answer = '<tool_call>\n<function=scroll>\n<parameter=down>\ntrue\n</parameter>\n</function>\n</tool_call>'
    const customFetch = async () => new Response(JSON.stringify({ choices: [{ message: content(answer), finish_reason: 'stop' }] }))
    const config = { baseURL: 'http://127.0.0.1:9/v1', model: 'my-model', maxRetries: 0, customFetch }
    await expect(core.createClient(config).invoke(ask, tools)).rejects.toMatchObject({ type: 'no_tool_call' })
    const family = core.defineAdapter({ name: 'family', match: { models: ['my-model'] }, readers: [hermesReader, xmlCallReader] })
    const result = await core.createClient({ ...config, adapters: [family] }).invoke(ask, tools)
    expect(result.toolCall).toMatchObject({ name: 'scroll', args: { down: true } })
    expect(result.fixes).toContain('reader:xml-call')
    // The default entry reads it with no configuration at all.
    const plain = await root.createClient(config).invoke(ask, tools)
    expect({ name: plain.toolCall.name, args: plain.toolCall.args }).toEqual({ name: result.toolCall.name, args: result.toolCall.args })
  })

  it('should read a made-up markup with a reader given to createClient, name it in fixes, and never execute a cut one', async () => {
    let answer = 'I will scroll. @@scroll down=true num_pages=2@@'
    const customFetch = async () => new Response(JSON.stringify({ choices: [{ message: content(answer), finish_reason: 'stop' }] }))
    const config = { baseURL: 'http://127.0.0.1:9/v1', model: 'my-model', maxRetries: 0, customFetch }
    await expect(root.createClient(config).invoke(ask, tools, {})).rejects.toMatchObject({ type: 'no_tool_call' })
    const client = root.createClient({ ...config, readers: [atReader] })
    const result = await client.invoke(ask, tools, {})
    expect(result.toolCall).toMatchObject({ name: 'scroll', args: { down: true, num_pages: 2 } })
    expect(result.fixes).toEqual(expect.arrayContaining(['tool-markup:at-at', 'reader:at-at', 'coerced:boolean']))
    answer = 'I will scroll. @@scroll down=true'
    // Unclosed under a normal finish: malformed, not cut off (issue 10), and never executed.
    await expect(client.invoke(ask, tools, {})).rejects.toMatchObject({ type: 'no_tool_call', retryable: true })
  })

  it('should skip a reader that throws or answers junk, and keep reading with the others', () => {
    const throwing: Reader = { name: 'throws', formats: [], read: () => { throw new TypeError('bug') } }
    const junk: Reader = { name: 'junk', formats: [], read: () => [null, { start: 'x' }, { start: 5, end: 2 }] as unknown as ReaderCall[] }
    const message = content('<tool_call>{"name": "wait", "arguments": {"seconds": 2}}</tool_call>')
    const result = root.repairToolCall(message, tools, { readers: [throwing, junk] })
    expect(result.toolCall).toEqual({ name: 'wait', args: { seconds: 2 } })
    expect(result.fixes).toContain('reader:hermes')
  })

  it('should give a reader written outside the SDK the schema of the tool it reads, for the shared value decoder', () => {
    // `%%name key: value%%` with each value written as text: the decoder types it by the field's schema.
    const percentReader: Reader = {
      name: 'percent',
      formats: ['tool-markup:percent'],
      read(text, context) {
        const match = /%%(\w+) (\w+): ([^%]*)%%/.exec(text)
        if (!match) return undefined
        const fixes: string[] = []
        const value = decodeArgument(context, match[1]!, match[2]!, match[3]!, fixes)
        return [{ name: match[1], args: { [match[2]!]: value }, format: 'tool-markup:percent', fixes, start: match.index, end: match.index + match[0].length }]
      },
    }
    const search = root.defineTool({ description: 'Search.', inputSchema: z.object({ query: z.string().optional(), filter: z.object({ tag: z.string() }).optional() }) })
    for (const repair of [root.repairToolCall, core.repairToolCall]) {
      // An object field gets the object the text spells; a string field keeps the text as written.
      expect(repair(content('%%search filter: {"tag": "a"}%%'), { search }, { readers: [percentReader] }).toolCall.args).toEqual({ filter: { tag: 'a' } })
      expect(repair(content('%%search query: {"tag": "a"}%%'), { search }, { readers: [percentReader] }).toolCall.args).toEqual({ query: '{"tag": "a"}' })
    }
  })

  it('should reject readers that are not readers with a config_error naming the field', () => {
    const config = { baseURL: 'http://127.0.0.1:9/v1', model: 'm' }
    expect(() => root.createClient({ ...config, readers: [{ name: 'x' } as unknown as Reader] })).toThrow(/"readers" must be an array of readers/)
    expect(() => root.defineAdapter({ name: 'a', match: { models: ['a'] }, readers: 'hermes' as unknown as Reader[] })).toThrow(/readers/)
  })
})

describe('composeReaders', () => {
  const named = (name: string, stage?: Reader['stage']): Reader => ({ name, formats: [], ...(stage ? { stage } : {}), read: () => undefined })
  it('should put readers not in the default set first, keep a default one at its place, and let one named like a default replace it', () => {
    const defaults = [named('a'), named('b'), named('json', 'json')]
    const replacement = named('b')
    const order = composeReaders([named('custom'), named('a'), replacement, named('custom')], defaults)
    expect(order.map((reader) => reader.name)).toEqual(['custom', 'a', 'b', 'json'])
    expect(order[2]).toBe(replacement)
    expect(composeReaders(undefined, defaults)).toBe(defaults)
  })
})
