// What a clean step pays for, counted rather than timed: the work that depends only on the tool set
// is done once per set, a signal is made only when something can stop the request, and a secret in
// the body is still redacted from everything that reports it.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { toolCallResponse } from '../testing'
import { defineTool } from '../tool/define-tool'
import type { ToolSet } from '../tool/types'
import type { ChatRequest } from '../types'
import { createClient } from './create-client'
import type { ClientConfig } from './config'

const SECRET = 'sk-cost-SECRET-0123456789'
const messages = [{ role: 'user', content: 'click the third button' }]
const tools = {
  click: defineTool({ description: 'Click an element', inputSchema: z.object({ index: z.number().int() }), execute: async ({ index }) => index }),
  done: defineTool({ description: 'Finish', inputSchema: z.object({ text: z.string() }) }),
}
const reply = () => new Response(JSON.stringify(toolCallResponse('click', { index: 3 })), { headers: { 'content-type': 'application/json' } })

function clientWith(overrides: Partial<ClientConfig> = {}, seen: RequestInit[] = []) {
  const customFetch = async (_url: string | URL | Request, init?: RequestInit) => {
    seen.push(init!)
    return reply()
  }
  return createClient({ baseURL: 'http://127.0.0.1:1/v1', model: 'gpt-4.1-mini', apiKey: SECRET, retry: 0, customFetch: customFetch as typeof fetch, ...overrides })
}

const sentBody = (init: RequestInit) => JSON.parse(init.body as string) as ChatRequest

afterEach(() => {
  vi.restoreAllMocks()
})

describe('the cost of a clean step', () => {
  it('should serialise a tool set\'s definitions once, not once per request, and send them whole every time', async () => {
    const seen: RequestInit[] = []
    const client = clientWith({}, seen)
    const stringify = vi.spyOn(JSON, 'stringify')
    for (let step = 0; step < 5; step++) await client.invoke(messages, tools, { toolChoiceName: 'click' })
    const ofDefinitions = stringify.mock.calls.filter(([value]) => Array.isArray(value) && (value as Array<{ type?: unknown }>)[0]?.type === 'function')
    const ofWholeBodies = stringify.mock.calls.filter(([value]) => typeof value === 'object' && value !== null && 'tools' in value && 'messages' in value)
    expect(ofDefinitions).toHaveLength(1)
    expect(ofWholeBodies).toHaveLength(0)
    stringify.mockRestore()
    expect(seen).toHaveLength(5)
    for (const init of seen) expect(sentBody(init).tools!.map((tool) => tool.function.name)).toEqual(['click', 'done'])
  })

  it('should send the tools a hook changed, not the cached ones', async () => {
    const seen: RequestInit[] = []
    const client = clientWith({
      transformRequestBody: (body) => {
        body.tools!.push({ type: 'function', function: { name: 'extra', parameters: { type: 'object' } } })
      },
    }, seen)
    await client.invoke(messages, tools)
    await client.invoke(messages, tools)
    for (const init of seen) expect(sentBody(init).tools!.map((tool) => tool.function.name)).toEqual(['click', 'done', 'extra'])
  })

  it("should give transformRequestBody a history it may change in place, never the caller's array", async () => {
    const seen: RequestInit[] = []
    const history = [...messages]
    const client = clientWith({ transformRequestBody: (body) => void body.messages.unshift({ role: 'system', content: 'Be brief.' }) }, seen)
    await client.invoke(history, tools)
    await client.invoke(history, tools)
    expect(history).toEqual(messages)
    for (const init of seen) expect(sentBody(init).messages.map((message) => message.role)).toEqual(['system', 'user'])
  })

  it('should serialise a tool set again when it gains a tool or one is replaced', async () => {
    const seen: RequestInit[] = []
    const client = clientWith({}, seen)
    const set: ToolSet = { click: tools.click }
    await client.invoke(messages, set)
    set.done = tools.done
    await client.invoke(messages, set)
    set.click = defineTool({ description: 'Press an element', inputSchema: z.object({ index: z.number().int() }) })
    await client.invoke(messages, set)
    expect(seen.map((init) => sentBody(init).tools!.map((tool) => `${tool.function.name}: ${tool.function.description}`))).toEqual([
      ['click: Click an element'],
      ['click: Click an element', 'done: Finish'],
      ['click: Press an element', 'done: Finish'],
    ])
  })

  it('should give fetch no signal when nothing can stop the request, and one of its own otherwise', async () => {
    const seen: RequestInit[] = []
    await clientWith({ deadlineMs: Number.POSITIVE_INFINITY }, seen).invoke(messages, tools)
    expect(seen[0]!.signal).toBeUndefined()
    const caller = new AbortController()
    await clientWith({ deadlineMs: Number.POSITIVE_INFINITY }, seen).invoke(messages, tools, { signal: caller.signal })
    await clientWith({}, seen).invoke(messages, tools)
    await clientWith({ deadlineMs: Number.POSITIVE_INFINITY, timeoutMs: 5_000 }, seen).invoke(messages, tools)
    for (const init of seen.slice(1)) {
      expect(Object.keys(init).sort()).toEqual(['body', 'headers', 'method', 'signal'])
      expect(init.signal).toBeInstanceOf(AbortSignal)
      expect(init.signal).not.toBe(caller.signal)
      // As a literal's getter was: a wrapper may still drop or replace it.
      expect(Object.getOwnPropertyDescriptor(init, 'signal')).toMatchObject({ enumerable: true, configurable: true })
    }
  })

  it('should abort through a custom fetch that spreads init into the fetch it wraps', async () => {
    let aborted = false
    const hanging = (_url: string, init: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        init.signal!.addEventListener('abort', () => {
          aborted = true
          reject(init.signal!.reason)
        })
      })
    const wrapper = (url: string, init: RequestInit) => hanging(url, { ...init, headers: { ...(init.headers as Record<string, string>), 'x-trace': '1' } })
    const client = createClient({ baseURL: 'http://127.0.0.1:1/v1', model: 'gpt-4.1-mini', retry: 0, deadlineMs: 40, customFetch: wrapper as typeof fetch })
    await expect(client.invoke(messages, tools)).rejects.toMatchObject({ type: 'timeout' })
    expect(aborted).toBe(true)
  })

  it('should end at the deadline a call whose custom fetch never reads its signal and answers late', async () => {
    const late = async () => {
      await new Promise((resolve) => setTimeout(resolve, 120))
      return reply()
    }
    const client = createClient({ baseURL: 'http://127.0.0.1:1/v1', model: 'gpt-4.1-mini', retry: 0, deadlineMs: 40, customFetch: late as typeof fetch })
    await expect(client.invoke(messages, tools)).rejects.toMatchObject({ type: 'timeout', message: expect.stringContaining('deadlineMs (40 ms') })
    const idle = createClient({ baseURL: 'http://127.0.0.1:1/v1', model: 'gpt-4.1-mini', retry: 0, timeoutMs: 40, customFetch: late as typeof fetch })
    await expect(idle.invoke(messages, tools)).rejects.toMatchObject({ type: 'timeout', message: expect.stringContaining('timeoutMs (40 ms)') })
  })

  it('should stop a stream whose custom fetch never reads its signal: at the deadline, at the idle gap, on abort', async () => {
    // One event, then silence: only the link can end the pending read.
    const stalled = async () => {
      const first = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { role: 'assistant', content: 'Looking' } }] })}\n\n`
      return new Response(new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode(first)) }), { headers: { 'content-type': 'text/event-stream' } })
    }
    const streamWith = (config: Partial<ClientConfig>, signal?: AbortSignal) => {
      const client = createClient({ baseURL: 'http://127.0.0.1:1/v1', model: 'gpt-4.1-mini', retry: 0, customFetch: stalled as typeof fetch, ...config })
      return client.stream(messages, tools, signal ? { signal } : {}).result
    }
    const started = Date.now()
    await expect(streamWith({ deadlineMs: 60 })).rejects.toMatchObject({ type: 'timeout', message: expect.stringContaining('deadlineMs (60 ms') })
    await expect(streamWith({ timeoutMs: 60 })).rejects.toMatchObject({ type: 'timeout', message: expect.stringContaining('timeoutMs (60 ms)') })
    const caller = new AbortController()
    setTimeout(() => caller.abort(new Error('user left')), 60)
    await expect(streamWith({}, caller.signal)).rejects.toThrow('user left')
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  it('should redact a secret the body carries from rawRequest and the request event, read late or never', async () => {
    const seen: RequestInit[] = []
    const client = clientWith({ transformRequestBody: (body) => void (body.metadata = { note: `key ${SECRET}` }) }, seen)
    const quiet = await client.invoke(messages, tools)
    const bodies: ChatRequest[] = []
    client.events.on('request', ({ body }) => bodies.push(body))
    const heard = await client.invoke(messages, tools)
    expect(sentBody(seen[0]!).metadata).toEqual({ note: `key ${SECRET}` })
    for (const shown of [quiet.rawRequest, heard.rawRequest, ...bodies, JSON.parse(JSON.stringify(quiet)).rawRequest]) {
      expect(JSON.stringify(shown)).not.toContain(SECRET)
      expect(shown.metadata).toEqual({ note: 'key [REDACTED]' })
    }
    expect(quiet.rawRequest).toBe(quiet.rawRequest)
    // Still a plain field to the caller: it can be replaced (strict mode throws on a getter alone).
    const replaced = { ...quiet.rawRequest, metadata: {} }
    quiet.rawRequest = replaced
    expect(quiet.rawRequest).toBe(replaced)
  })
})
