import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createClient } from '../client/create-client'
import { isInvokeError } from '../errors/invoke-error'
import { startScriptedServer, toolCallResponse, type ScriptedServer } from '../testing/scripted-server'
import { defineTool } from '../tool/define-tool'
import type { ChatRequest } from '../types'
import { defineAdapter } from './define-adapter'
import { normalizeModelName } from './normalize-model-name'
import { createAdapterRegistry, defaultRegistry, matchesAdapter, registerAdapter, resolveAdapters } from './registry'
import type { Adapter, MatchContext } from './types'

const tools = { done: defineTool({ description: 'Finish', inputSchema: z.object({ text: z.string() }), execute: async ({ text }) => text }) }
const messages = [{ role: 'user', content: 'go' }]

function contextOf(model: string, baseURL = 'https://api.example.com/v1'): MatchContext {
  return { model, modelId: normalizeModelName(model), baseURL, host: new URL(baseURL).host.toLowerCase() }
}

function names(adapters: Adapter[]): string[] {
  return adapters.map((adapter) => adapter.name)
}

/** A client with an injected fetch that records every body and answers one valid call. */
function recordingClient(config: Parameters<typeof createClient>[0] extends infer C ? Omit<C & object, 'customFetch'> : never) {
  const bodies: ChatRequest[] = []
  const client = createClient({
    ...(config as Parameters<typeof createClient>[0]),
    customFetch: async (_url, init) => {
      bodies.push(JSON.parse(String(init?.body)) as ChatRequest)
      return new Response(JSON.stringify(toolCallResponse('done', { text: 'ok' })), { status: 200 })
    },
  })
  return { client, bodies }
}

/** Local stand-ins for the family packages (the real ones live in packages/adapter-*). */
function fakeQwen(name = 'qwen', marker = 'built-in'): Adapter {
  return defineAdapter({
    name,
    match: { models: ['qwen'] },
    patchRequest(body) {
      body.enable_thinking = false
      body.patched_by = marker
    },
  })
}

function fakeClaude(log: string[] = []): Adapter {
  return defineAdapter({
    name: 'claude',
    match: { models: ['claude'] },
    patchRequest(body) {
      log.push('claude.patchRequest')
      body.thinking = { type: 'disabled' }
    },
    fixResponse() {
      log.push('claude.fixResponse')
    },
    classifyFinish() {
      log.push('claude.classifyFinish')
      return undefined
    },
  })
}

function fakeOpenRouter(log: string[] = []): Adapter {
  return defineAdapter({
    name: 'openrouter',
    kind: 'provider',
    match: { hosts: ['openrouter.ai'] },
    patchRequest(body) {
      log.push('openrouter.patchRequest')
      const thinking = body.thinking as { type?: string } | undefined
      if (thinking?.type === 'disabled') {
        delete body.thinking
        body.reasoning = { enabled: false }
      }
    },
    fixResponse() {
      log.push('openrouter.fixResponse')
    },
    classifyFinish() {
      log.push('openrouter.classifyFinish')
      return undefined
    },
  })
}

describe('matchesAdapter', () => {
  const openrouter = fakeOpenRouter()
  it.each([
    ['https://openrouter.ai/api/v1', true],
    ['https://eu.openrouter.ai/api/v1', true],
    ['https://OpenRouter.ai:8443/api/v1', true],
    ['http://localhost:8080/v1', false],
    ['https://notopenrouter.ai/v1', false],
    ['https://openrouter.ai.example.com/v1', false],
  ])('should detect the provider by host: %s → %s', (baseURL, expected) => {
    expect(matchesAdapter(openrouter, contextOf('anthropic/claude-sonnet-4.5', baseURL))).toBe(expected)
  })

  it('should compare a host pattern with a port against the port too', () => {
    const local = defineAdapter({ name: 'local', kind: 'provider', match: { hosts: ['localhost:1234'] } })
    expect(matchesAdapter(local, contextOf('m', 'http://localhost:1234/v1'))).toBe(true)
    expect(matchesAdapter(local, contextOf('m', 'http://localhost:8080/v1'))).toBe(false)
  })

  it('should normalise string model patterns like model names', () => {
    const qwen36 = defineAdapter({ name: 'q', match: { models: ['Qwen3.6'] } })
    expect(matchesAdapter(qwen36, contextOf('qwen3.6-plus'))).toBe(true)
    expect(matchesAdapter(qwen36, contextOf('Qwen/Qwen3-Max'))).toBe(false)
    const gpt52 = defineAdapter({ name: 'g', match: { models: ['gpt-5.2'] } })
    expect(matchesAdapter(gpt52, contextOf('gpt-5.2-2026-01-15'))).toBe(true)
    expect(matchesAdapter(gpt52, contextOf('gpt-5.1'))).toBe(false)
  })

  it('should reset a global RegExp between tests', () => {
    const sticky = defineAdapter({ name: 's', match: { models: [/qwen/g] } })
    expect(matchesAdapter(sticky, contextOf('qwen3-max'))).toBe(true)
    expect(matchesAdapter(sticky, contextOf('qwen3-max'))).toBe(true)
  })

  it('should turn a throwing match predicate into a config_error naming the adapter', () => {
    const broken = defineAdapter({
      name: 'broken',
      match: () => {
        throw new Error('boom')
      },
    })
    try {
      createClient({ baseURL: 'https://api.example.com/v1', model: 'x', adapters: [broken], registry: createAdapterRegistry() })
      expect.unreachable()
    } catch (error) {
      expect(isInvokeError(error) && error.type).toBe('config_error')
      expect(String(error)).toContain('[broken] adapter hook match threw: boom')
    }
  })
})

describe('resolveAdapters', () => {
  const empty = createAdapterRegistry()

  it('should put model adapters first, then provider adapters, then the default openai adapter', () => {
    const chain = resolveAdapters(empty, [fakeOpenRouter(), fakeClaude()], contextOf('anthropic/claude-sonnet-4.5', 'https://openrouter.ai/api/v1'))
    expect(names(chain)).toEqual(['claude', 'openrouter', 'openai'])
  })

  it('should always end with the default openai adapter, even when nothing matched', () => {
    expect(names(resolveAdapters(empty, [fakeClaude()], contextOf('llama-3.3-70b')))).toEqual(['openai'])
  })

  it('should pick the most specific model adapter whatever the order', () => {
    const claude = defineAdapter({ name: 'claude', match: { models: ['claude'] } })
    const opus = defineAdapter({ name: 'claude-opus', match: { models: ['claude-opus'] } })
    const context = contextOf('anthropic/claude-opus-4.1')
    expect(names(resolveAdapters(empty, [claude, opus], context))).toEqual(['claude-opus', 'openai'])
    expect(names(resolveAdapters(empty, [opus, claude], context))).toEqual(['claude-opus', 'openai'])
    expect(names(resolveAdapters(empty, [opus, claude], contextOf('claude-sonnet-4.5')))).toEqual(['claude', 'openai'])
  })

  it('should let an exact name beat a prefix, and any pattern beat a predicate', () => {
    const prefix = defineAdapter({ name: 'prefix', match: { models: ['glm-4'] } })
    const exact = defineAdapter({ name: 'exact', match: { models: ['glm-4.6'] } })
    const predicate = defineAdapter({ name: 'predicate', match: ({ modelId }) => modelId.startsWith('glm') })
    const regex = defineAdapter({ name: 'regex', match: { models: [/^glm-\d+$/] } })
    expect(names(resolveAdapters(empty, [predicate, prefix, exact], contextOf('GLM-4.6')))).toEqual(['exact', 'openai'])
    expect(names(resolveAdapters(empty, [predicate, prefix], contextOf('glm-4.5-air')))).toEqual(['prefix', 'openai'])
    // The RegExp matched the whole name "glm-45" (6 characters), longer than the prefix "glm-4".
    expect(names(resolveAdapters(empty, [prefix, regex], contextOf('glm-4.5')))).toEqual(['regex', 'openai'])
    expect(names(resolveAdapters(empty, [predicate], contextOf('glm-4.5')))).toEqual(['predicate', 'openai'])
  })

  it('should rank the client adapters, then registered, then built-ins, before specificity', () => {
    const registry = createAdapterRegistry({ builtIns: [defineAdapter({ name: 'built-in', match: { models: ['qwen3-max'] } })] })
    const context = contextOf('Qwen/Qwen3-Max')
    expect(names(resolveAdapters(registry, [], context))).toEqual(['built-in', 'openai'])
    // A registered predicate is less specific than the built-in's exact name, and still wins: tier first.
    registry.register(defineAdapter({ name: 'predicate', match: ({ modelId }) => modelId.includes('qwen') }))
    expect(names(resolveAdapters(registry, [], context))).toEqual(['predicate', 'openai'])
    // Within the registered tier the more specific one wins, and of equally specific ones the newest.
    registry.register(defineAdapter({ name: 'older', match: { models: ['qwen'] } }))
    expect(names(resolveAdapters(registry, [], context))).toEqual(['older', 'openai'])
    registry.register(defineAdapter({ name: 'newer', match: { models: ['QWEN'] } }))
    expect(names(resolveAdapters(registry, [], context))).toEqual(['newer', 'openai'])
    const mine = defineAdapter({ name: 'mine', match: { models: [/qwen/] } })
    expect(names(resolveAdapters(registry, [mine], context))).toEqual(['mine', 'openai'])
  })

  it('should apply adapters that compose alongside the chosen one, in precedence order', () => {
    const addOn = defineAdapter({ name: 'add-on', compose: true, match: { models: ['qwen'] } })
    const chain = resolveAdapters(empty, [addOn, fakeQwen(), fakeQwen('other-qwen')], contextOf('qwen3-max'))
    expect(names(chain)).toEqual(['add-on', 'qwen', 'openai'])
  })

  it('should use one adapter per name, the first by precedence', () => {
    const registry = createAdapterRegistry()
    const composing = defineAdapter({ name: 'tag', compose: true, match: { models: ['qwen'] } })
    registry.register(composing)
    const chain = resolveAdapters(registry, [{ ...composing }], contextOf('qwen3-max'))
    expect(names(chain)).toEqual(['tag', 'openai'])
  })

  it('should reject an untyped, malformed client adapter with a config_error from createClient', () => {
    try {
      createClient({ baseURL: 'https://api.example.com/v1', model: 'x', adapters: [{ name: 'acme', match: { models: ['acme'] }, patchRequest: 'nope' } as never] })
      expect.unreachable()
    } catch (error) {
      expect(isInvokeError(error) && error.type).toBe('config_error')
      expect(String(error)).toContain('[acme] adapter "patchRequest" must be a function')
    }
  })
})

describe('defaultRegistry', () => {
  it('should be one registry for every copy of the SDK in the process (ESM and CJS builds, two installs)', async () => {
    // A fresh module graph is a second copy of the SDK, as a CJS require next to an ESM import is.
    vi.resetModules()
    const copy = (await import('./registry')) as typeof import('./registry')
    vi.resetModules()
    expect(copy.registerAdapter).not.toBe(registerAdapter)
    const unregister = copy.registerAdapter(defineAdapter({ name: 'acme-shared', match: { models: ['acme-shared'] } }))
    try {
      expect(defaultRegistry.list().map((adapter) => adapter.name)).toContain('acme-shared')
      const client = createClient({ baseURL: 'http://127.0.0.1:1/v1', model: 'acme-shared-1' })
      expect(client.adapters).toContain('acme-shared')
    } finally {
      unregister()
    }
    expect(defaultRegistry.list().map((adapter) => adapter.name)).not.toContain('acme-shared')
  })
})

describe('createAdapterRegistry', () => {
  it('should warn once when a second adapter registers a name already taken', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      const first = defineAdapter({ name: 'acme', match: { models: ['acme-'] } })
      const registry = createAdapterRegistry({ builtIns: [defineAdapter({ name: 'other', match: { models: ['other-'] } })] })
      registry.register(first)
      registry.register(first) // the same adapter again is no second package
      expect(warn).not.toHaveBeenCalled()
      registry.register(defineAdapter({ name: 'acme', match: { models: ['acme-2'] } }))
      registry.register(defineAdapter({ name: 'acme', match: { hosts: ['api.acme.test'] } }))
      registry.register(defineAdapter({ name: 'other', match: { models: ['other-2'] } }))
      expect(warn.mock.calls).toEqual([
        ['[wildcall] two adapters are named "acme": only one runs. Rename one.'],
        ['[wildcall] two adapters are named "other": only one runs. Rename one.'],
      ])
    } finally {
      warn.mockRestore()
    }
  })

  it('should validate adapters on register and unregister each registration once', () => {
    const registry = createAdapterRegistry()
    expect(() => registry.register({ name: '', match: { models: ['x'] } } as never)).toThrow(/has no "name"/)
    const qwen = fakeQwen()
    const first = registry.register(qwen)
    const second = registry.register(qwen)
    expect(registry.list()).toEqual([qwen, qwen])
    first()
    first()
    expect(registry.list()).toEqual([qwen])
    second()
    expect(registry.list()).toEqual([])
  })

  it('should list registered adapters newest first, then built-ins', () => {
    const builtIn = fakeQwen('built-in')
    const registry = createAdapterRegistry({ builtIns: [builtIn] })
    const a = fakeQwen('a')
    const b = fakeQwen('b')
    registry.register(a)
    registry.register(b)
    expect(registry.registered()).toEqual([b, a])
    expect(registry.builtIns()).toEqual([builtIn])
    expect(registry.list()).toEqual([b, a, builtIn])
  })
})

describe('adapter resolution end to end', () => {
  let server: ScriptedServer
  beforeAll(async () => {
    server = await startScriptedServer({ script: [{ body: toolCallResponse('done', { text: 'ok' }) }] })
  })
  afterAll(() => server.close())
  afterEach(() => server.setScript([{ body: toolCallResponse('done', { text: 'ok' }) }]))

  it('should let a user-registered adapter override a built-in for the same model, and restore it on unregister', async () => {
    const registry = createAdapterRegistry({ builtIns: [fakeQwen('qwen', 'built-in')] })
    const before = createClient({ baseURL: server.url, model: 'Qwen/Qwen3-Max', registry })
    expect(before.adapters).toEqual(['qwen'])
    await before.invoke(messages, tools)
    expect(server.requests.at(-1)!.body.patched_by).toBe('built-in')

    const unregister = registry.register(fakeQwen('my-qwen', 'user'))
    const overridden = createClient({ baseURL: server.url, model: 'Qwen/Qwen3-Max', registry })
    expect(overridden.adapters).toEqual(['my-qwen'])
    const result = await overridden.invoke(messages, tools)
    expect(result.adapters).toEqual(['my-qwen'])
    expect(server.requests.at(-1)!.body.patched_by).toBe('user')

    unregister()
    const restored = createClient({ baseURL: server.url, model: 'Qwen/Qwen3-Max', registry })
    expect(restored.adapters).toEqual(['qwen'])
    await restored.invoke(messages, tools)
    expect(server.requests.at(-1)!.body.patched_by).toBe('built-in')
  })

  it('should let registerAdapter override an earlier registration in the default registry', () => {
    const builtInLike = registerAdapter(fakeQwen('qwen', 'built-in'))
    const override = registerAdapter(fakeQwen('my-qwen', 'user'))
    try {
      expect(createClient({ baseURL: server.url, model: 'qwen3.6-plus' }).adapters).toEqual(['my-qwen'])
      override()
      expect(createClient({ baseURL: server.url, model: 'qwen3.6-plus' }).adapters).toEqual(['qwen'])
    } finally {
      override()
      builtInLike()
    }
    expect(defaultRegistry.list()).toEqual([])
  })

  it('should resolve Qwen/Qwen3-Max and qwen3.6-plus to the qwen adapter and leave gpt-5.2-2026-01-15 to openai', () => {
    const registry = createAdapterRegistry({ builtIns: [fakeQwen(), fakeClaude()] })
    expect(createClient({ baseURL: server.url, model: 'Qwen/Qwen3-Max', registry }).adapters).toEqual(['qwen'])
    expect(createClient({ baseURL: server.url, model: 'qwen3.6-plus', registry }).adapters).toEqual(['qwen'])
    expect(createClient({ baseURL: server.url, model: 'gpt-5.2-2026-01-15', registry }).adapters).toEqual(['openai'])
  })

  it('should patch claude then openrouter for anthropic/claude-sonnet-4.5 on OpenRouter, fix responses provider first and classify finish model first', async () => {
    const log: string[] = []
    const { client, bodies } = recordingClient({
      baseURL: 'https://openrouter.ai/api/v1',
      model: 'anthropic/claude-sonnet-4.5',
      adapters: [fakeOpenRouter(log), fakeClaude(log)],
      registry: createAdapterRegistry(),
    })
    expect(client.adapters).toEqual(['claude', 'openrouter'])
    const result = await client.invoke(messages, tools)
    expect(result.adapters).toEqual(['claude', 'openrouter'])
    expect(log).toEqual(['claude.patchRequest', 'openrouter.patchRequest', 'claude.classifyFinish', 'openrouter.classifyFinish', 'openrouter.fixResponse', 'claude.fixResponse'])
    // OpenRouter translated what the Claude adapter set, which only works in this order.
    expect(bodies[0]).toMatchObject({ model: 'anthropic/claude-sonnet-4.5', reasoning: { enabled: false } })
    expect(bodies[0]).not.toHaveProperty('thinking')
  })

  it.each(['patchRequest', 'fixResponse', 'classifyFinish'] as const)('should turn a throwing %s into a config_error naming the adapter and hook, without retrying', async (hook) => {
    const broken = defineAdapter({
      name: 'broken',
      match: { models: ['acme'] },
      [hook]: () => {
        throw new Error('kaboom')
      },
    })
    const client = createClient({ baseURL: server.url, model: 'acme-1', adapters: [broken], registry: createAdapterRegistry(), maxRetries: 2 })
    const error = await client.invoke(messages, tools).then(() => undefined, (caught: unknown) => caught)
    expect(isInvokeError(error) && error.type).toBe('config_error')
    expect(isInvokeError(error) && error.retryable).toBe(false)
    expect(String(error)).toContain(`[broken] adapter hook ${hook} threw: kaboom`)
    expect(server.requests).toHaveLength(hook === 'patchRequest' ? 0 : 1)
  })

  it('should turn a throwing classifyError into a config_error naming the adapter', async () => {
    server.setScript([{ status: 500, body: { error: { message: 'upstream' } } }])
    const broken = defineAdapter({
      name: 'broken',
      match: { models: ['acme'] },
      classifyError: () => {
        throw new TypeError('cannot read error.code')
      },
    })
    const client = createClient({ baseURL: server.url, model: 'acme-1', adapters: [broken], registry: createAdapterRegistry(), maxRetries: 2, retry: { limit: 2, baseDelayMs: 1 } })
    const error = await client.invoke(messages, tools).then(() => undefined, (caught: unknown) => caught)
    expect(isInvokeError(error) && error.type).toBe('config_error')
    expect(String(error)).toContain('[broken] adapter hook classifyError threw: cannot read error.code')
    expect(server.requests).toHaveLength(1)
  })
})
