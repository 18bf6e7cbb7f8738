import { assertAdapter } from '../adapters/define-adapter'
import { createAdapterRegistry } from '../adapters/registry'
import { runHook } from '../adapters/run-hook'
import type { Adapter } from '../adapters/types'
import { buildRequest, toolDefinition } from '../client/build-request'
import { createClient } from '../client/create-client'
import { isInvokeError, type InvokeErrorType } from '../errors/invoke-error'
import type { ChatRequest, ChatResponse } from '../types'
import type { FinishClass } from '../errors/classify-finish'
import type { ToolSet } from '../tool/types'
import { ensure, ensureEqual, ensureSubset } from './check'
import { adapterContextOf, DEFAULT_BASE_URL, kitMessages, kitTools, label, patchOnce, sameTarget, snapshot, toTarget, type AdapterTestTarget } from './kit-fixtures'
import { checkEchoFields, checkSampleEcho } from './check-echo'
import { checkForeignHosts, checkSharedHosts, checkUserTemperature } from './check-hosts'
import { checkPromptForm } from './check-prompt-form'
import { contentResponse, toolCallResponse } from './scripted-server'

/** One request case of {@link testAdapter}. */
export interface AdapterRequestCase {
  name: string
  model: string
  baseURL?: string
  /** The temperature the user configured (sent, and seen by adapters as `context.temperature`). */
  temperature?: number
  toolChoiceName?: string
  /** Merged (shallowly) over the body `buildRequest` makes, before any adapter runs. */
  before?: Partial<ChatRequest>
  /** After the whole patch chain the sent body must `toMatchObject` this. */
  after?: Record<string, unknown>
  /** Dot paths the sent body must not have, e.g. `'tool_choice'`, `'thinking.type'`. */
  absent?: string[]
}

/** One response case of {@link testAdapter}: the response goes through the real `invoke` pipeline. */
export interface AdapterResponseCase {
  name: string
  model: string
  baseURL?: string
  /** The body the server answers: an object is sent as JSON, a string as is. */
  response: ChatResponse | unknown
  /** HTTP status of the answer. Default 200. */
  status?: number
  /** The tools of the step. Default: the kit's `scroll`, `input_text`, `done`. */
  tools?: ToolSet
  toolChoiceName?: string
  /** The call `invoke` must resolve with (name and validated args), or the error type it must throw. */
  expected: { name: string; args: unknown } | { error: InvokeErrorType }
  /**
   * Provider fields of the answer's message (or its tool call) that the next request need not send
   * back. Every other one must come back in the history: declare it in the adapter's `echoFields`.
   */
  notEchoed?: string[]
}

/** One finish-reason case of {@link testAdapter}. */
export interface AdapterFinishCase {
  reason: string | null
  /** What the adapter's `classifyFinish` returns; `undefined` means it defers to the default. */
  expected: FinishClass | undefined
  model?: string
}

/** The adapter's own cases, run after the generic checks. */
export interface AdapterTestOptions {
  /** Models/URLs the adapter must match (as users type them). */
  matches?: AdapterTestTarget[]
  /** Models/URLs the adapter must not match. */
  rejects?: AdapterTestTarget[]
  requests?: AdapterRequestCase[]
  responses?: AdapterResponseCase[]
  finishes?: AdapterFinishCase[]
  /**
   * Top-level request fields wildcall sends that `patchRequest` changes for the adapter's models on
   * every host, because the model needs it wherever it runs (a `tool_choice` form its thinking mode
   * refuses, say). Any other change to `tool_choice`, `parallel_tool_calls`, `tools`, `temperature`
   * … on a host the adapter does not claim fails the kit: a provider's API quirk tests `context.host`.
   */
  modelQuirks?: string[]
}

export type { AdapterTestTarget }

const FINISH_CLASSES: ReadonlySet<string> = new Set<FinishClass>(['ok', 'truncated', 'filtered', 'malformed', 'server_error', 'unknown'])
const FINISH_REASONS: ReadonlyArray<string | null | undefined> = ['tool_calls', 'stop', 'length', 'content_filter', 'eos', null, undefined, '', 'weird', 'constructor', '__proto__', 'toString']
/** Models no family adapter has any business matching on a neutral host. */
const UNRELATED_MODELS = ['gpt-4.1', 'llama-3.3-70b']

/** What the adapter says it matches: each string model pattern as a model, each string host as a base URL. */
export function claimedTargets(adapter: Adapter): AdapterTestTarget[] {
  if (typeof adapter.match === 'function') return []
  const models = (adapter.match.models ?? []).filter((pattern): pattern is string => typeof pattern === 'string')
  const hosts = (adapter.match.hosts ?? []).filter((pattern): pattern is string => typeof pattern === 'string')
  return [...models, ...hosts.map((host) => ({ model: 'some-model', baseURL: `https://${host.trim().toLowerCase()}/v1` }))]
}

/** Throws unless `createClient` (with only this adapter) resolves it, or does not, for the target. */
export function checkMatch(adapter: Adapter, target: AdapterTestTarget, expected: boolean): void {
  const { model, baseURL } = toTarget(target)
  const client = createClient({
    model,
    baseURL,
    adapters: [adapter],
    registry: createAdapterRegistry(),
    customFetch: () => Promise.reject(new Error('the match check sends nothing')),
  })
  ensure(client.adapters.includes(adapter.name) === expected, `adapter "${adapter.name}" should ${expected ? '' : 'not '}match ${label(target)} (resolved: ${client.adapters.join(', ')})`)
}

/**
 * Throws unless `patchRequest` is idempotent for the target (patching twice equals patching once),
 * keeps every message and tool, leaves the caller's messages and the cached tool definitions alone.
 */
export function checkPatchRequest(adapter: Adapter, target: AdapterTestTarget, toolChoiceName?: string): void {
  const { model } = toTarget(target)
  const { context } = adapterContextOf(adapter, target, toolChoiceName === undefined ? {} : { toolChoiceName })
  const messages = kitMessages()
  const messagesBefore = snapshot(messages)
  const definitionsBefore = Object.keys(kitTools).map((name) => snapshot(toolDefinition(name, kitTools[name]!)))
  const build = () => buildRequest({ model, messages, tools: kitTools, ...(toolChoiceName === undefined ? {} : { toolChoiceName }) })
  const once = patchOnce(adapter, build(), context)
  const onceSent = snapshot(once) as ChatRequest
  const twice = snapshot(patchOnce(adapter, once, context))
  const where = `patchRequest of "${adapter.name}" for ${label(target)}${toolChoiceName ? ` with toolChoiceName "${toolChoiceName}"` : ''}`
  ensureEqual(twice, onceSent, `${where} is not idempotent: patching twice must equal patching once`)
  ensure(Array.isArray(onceSent.messages) && onceSent.messages.length === messages.length, `${where} dropped messages`)
  const names = Array.isArray(onceSent.tools) ? onceSent.tools.map((tool) => tool?.function?.name) : undefined
  ensureEqual(names, Object.keys(kitTools), `${where} dropped or renamed tools`)
  ensureEqual(snapshot(messages), messagesBefore, `${where} mutated the caller's messages in place: copy the messages you change`)
  const definitionsAfter = Object.keys(kitTools).map((name) => snapshot(toolDefinition(name, kitTools[name]!)))
  ensureEqual(definitionsAfter, definitionsBefore, `${where} changed the cached tool definitions`)
}

/** The standard responses every `fixResponse` must leave well-formed. */
export function standardResponses(): Array<{ name: string; response: ChatResponse; call?: string }> {
  return [
    { name: 'a tool_calls response', response: toolCallResponse('done', { text: 'ok' }), call: 'done' },
    { name: 'a content JSON response', response: contentResponse('{"name":"done","arguments":{"text":"ok"}}') },
    { name: 'an empty content response', response: contentResponse('') },
  ]
}

/** Throws unless `fixResponse` returns a response with a `choices` array whose first choice has a message. */
export function checkFixResponse(adapter: Adapter, target: AdapterTestTarget, response: ChatResponse, call?: string): void {
  const fix = adapter.fixResponse
  const { context } = adapterContextOf(adapter, target)
  const input = structuredClone(response)
  const fixed = fix ? (fix.call(adapter, input, context) ?? input) : input
  const where = `fixResponse of "${adapter.name}" for ${label(target)}`
  ensure(typeof fixed === 'object' && fixed !== null && Array.isArray(fixed.choices) && fixed.choices.length > 0, `${where} must return a response with a non-empty choices array`)
  const message = fixed.choices[0]?.message
  ensure(typeof message === 'object' && message !== null, `${where} must keep choices[0].message an object`)
  if (call) {
    const names = (message?.tool_calls ?? []).map((toolCall) => toolCall?.function?.name)
    ensure(names.includes(call), `${where} dropped a well-formed tool call (${call}; calls now: ${JSON.stringify(names)})`)
  }
}

/** Throws unless `classifyFinish` returns a known class or `undefined` for a spread of reasons. */
export function checkClassifyFinish(adapter: Adapter, target: AdapterTestTarget): void {
  const classify = adapter.classifyFinish
  if (!classify) return
  const { context } = adapterContextOf(adapter, target)
  for (const reason of FINISH_REASONS) {
    const result = classify.call(adapter, reason, context)
    ensure(result === undefined || (typeof result === 'string' && FINISH_CLASSES.has(result)), `classifyFinish of "${adapter.name}" returned ${JSON.stringify(result)} for ${JSON.stringify(reason)}: return one of ${[...FINISH_CLASSES].join(', ')} or undefined`)
  }
}

function hasPath(value: unknown, path: string): boolean {
  let current: unknown = value
  for (const key of path.split('.')) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) return false
    current = (current as Record<string, unknown>)[key]
  }
  return current !== undefined
}

/** The body the pipeline would send for a request case: built, `before` merged, every adapter's patch. */
export function patchedRequest(adapter: Adapter, testCase: AdapterRequestCase): ChatRequest {
  const target = { model: testCase.model, baseURL: testCase.baseURL ?? DEFAULT_BASE_URL }
  const { context, chain } = adapterContextOf(adapter, target, testCase)
  let body: ChatRequest = {
    ...buildRequest({
      model: testCase.model,
      messages: kitMessages(),
      tools: kitTools,
      ...(testCase.toolChoiceName === undefined ? {} : { toolChoiceName: testCase.toolChoiceName }),
      ...(testCase.temperature === undefined ? {} : { temperature: testCase.temperature }),
    }),
    ...testCase.before,
  }
  for (const item of chain) {
    const patch = item.patchRequest
    if (patch) body = runHook(item, 'patchRequest', patch, body, context) ?? body
  }
  return snapshot(body) as ChatRequest
}

/** Throws unless the request case's body matches `after` and lacks every `absent` path. */
export function checkRequestCase(adapter: Adapter, testCase: AdapterRequestCase): void {
  const sent = patchedRequest(adapter, testCase)
  if (testCase.after) ensureSubset(sent, testCase.after, `request case "${testCase.name}": the sent body does not match "after"`)
  for (const path of testCase.absent ?? []) {
    ensure(!hasPath(sent, path), `request case "${testCase.name}": the sent body must not have "${path}" (it has ${JSON.stringify(path.split('.').reduce<any>((at, key) => at?.[key], sent))})`)
  }
}

/** Runs a response case through `createClient` + `invoke` with an injected fetch; throws on a mismatch. */
export async function checkResponseCase(adapter: Adapter, testCase: AdapterResponseCase): Promise<void> {
  const text = typeof testCase.response === 'string' ? testCase.response : JSON.stringify(testCase.response)
  const client = createClient({
    model: testCase.model,
    baseURL: testCase.baseURL ?? DEFAULT_BASE_URL,
    adapters: [adapter],
    registry: createAdapterRegistry(),
    maxRetries: 0,
    customFetch: async () => new Response(text, { status: testCase.status ?? 200, headers: { 'content-type': 'application/json' } }),
  })
  const tools = testCase.tools ?? kitTools
  const options = testCase.toolChoiceName === undefined ? {} : { toolChoiceName: testCase.toolChoiceName }
  const { expected } = testCase
  if ('error' in expected) {
    let caught: unknown
    try {
      const result = await client.invoke(kitMessages(), tools, options)
      caught = result
    } catch (error) {
      caught = error
    }
    const actual = isInvokeError(caught) ? caught.type : `no InvokeError (${caught instanceof Error ? caught.message : JSON.stringify((caught as { toolCall?: unknown })?.toolCall ?? caught)})`
    ensure(actual === expected.error, `response case "${testCase.name}": expected the error ${expected.error}, got ${actual}${isInvokeError(caught) ? `: ${caught.message}` : ''}`)
    return
  }
  const result = await client.invoke(kitMessages(), tools, options)
  ensure(result.toolCall.name === expected.name, `response case "${testCase.name}": expected a call of ${expected.name}, got ${result.toolCall.name}`)
  ensureEqual(result.toolCall.args, expected.args, `response case "${testCase.name}": the arguments differ`)
  const target = { model: testCase.model, baseURL: testCase.baseURL ?? DEFAULT_BASE_URL }
  await checkSampleEcho(adapter, { name: testCase.name, target, response: testCase.response, tools, ...options, ...(testCase.notEchoed ? { notEchoed: testCase.notEchoed } : {}) })
}

/** Throws unless `classifyFinish` gives the expected class (or `undefined`) for the reason. */
export function checkFinishCase(adapter: Adapter, testCase: AdapterFinishCase): void {
  const target = testCase.model ?? claimedTargets(adapter)[0] ?? 'some-model'
  const { context } = adapterContextOf(adapter, target)
  const classify = adapter.classifyFinish
  const actual = classify ? runHook(adapter, 'classifyFinish', classify, testCase.reason, context) : undefined
  ensure(actual === testCase.expected, `classifyFinish(${JSON.stringify(testCase.reason)}) of "${adapter.name}" returned ${String(actual)}, expected ${String(testCase.expected)}`)
}

/** What the kit needs of a test runner: vitest's (or a compatible) `describe` and `it`. */
export interface SuiteRunner {
  describe(name: string, body: () => void): void
  it(name: string, body: () => unknown): void
}

/**
 * Registers the conformance suite of an adapter with a test runner's `describe` and `it`: the checks
 * every adapter must pass, then the adapter's own cases. `testAdapter` calls it with vitest's.
 */
export function registerAdapterSuite({ describe, it }: SuiteRunner, adapter: Adapter, options: AdapterTestOptions = {}): void {
  const title = typeof (adapter as { name?: unknown })?.name === 'string' ? (adapter as Adapter).name : 'unnamed adapter'
  describe(`testAdapter: ${title}`, () => {
    it('should be accepted by defineAdapter', () => {
      assertAdapter(adapter)
    })
    try {
      assertAdapter(adapter)
    } catch {
      // The test above reports why; the other checks need a well-formed adapter.
      return
    }
    const matches = [...claimedTargets(adapter), ...(options.matches ?? [])]
    const rejects = [...UNRELATED_MODELS.filter((model) => !matches.some((target) => sameTarget(target, model))), ...(options.rejects ?? [])]
    const probes = matches.length > 0 ? matches : ['some-model']

    describe('match', () => {
      for (const target of matches) it(`should match ${label(target)}`, () => checkMatch(adapter, target, true))
      for (const target of rejects) it(`should not match ${label(target)}`, () => checkMatch(adapter, target, false))
      it('should not claim a host that serves every family', () => checkSharedHosts(adapter))
    })

    if (adapter.patchRequest) {
      describe('patchRequest', () => {
        const targets = [...probes, ...(options.requests ?? []).map((testCase) => ({ model: testCase.model, baseURL: testCase.baseURL ?? DEFAULT_BASE_URL }))]
        for (const target of targets) {
          it(`should be idempotent and keep messages and tools for ${label(target)}`, () => {
            checkPatchRequest(adapter, target)
            checkPatchRequest(adapter, target, 'done')
          })
        }
        const models = [...new Set([...matches, ...(options.requests ?? []).map((testCase) => testCase.model)].filter((target): target is string => typeof target === 'string'))]
        if (models.length > 0) {
          it('should change no field wildcall sends on hosts it does not claim, beyond the declared model quirks', () => checkForeignHosts(adapter, models, options.modelQuirks))
        }
        it("should keep the user's temperature", () => {
          for (const target of targets) checkUserTemperature(adapter, target, options.modelQuirks)
        })
      })
    }

    describe('fixResponse', () => {
      for (const { name, response, call } of standardResponses()) {
        it(`should return a well-formed response for ${name}`, () => {
          for (const target of probes) checkFixResponse(adapter, target, response, call)
        })
      }
    })

    if (adapter.echoFields) {
      it('should keep the declared echoFields in result.messages and send them back in the next request', async () => {
        for (const target of probes) await checkEchoFields(adapter, target)
      })
    }

    if (adapter.classifyFinish) {
      it('should classify finish reasons only into known classes', () => {
        for (const target of probes) checkClassifyFinish(adapter, target)
      })
    }

    if (adapter.prompt) {
      it('should read back, with identical values, every call its prompt form asks for', () => checkPromptForm(adapter.prompt!, adapter.readers))
    }

    if (options.requests?.length) {
      describe('requests', () => {
        for (const testCase of options.requests!) it(testCase.name, () => checkRequestCase(adapter, testCase))
      })
    }
    if (options.responses?.length) {
      describe('responses', () => {
        for (const testCase of options.responses!) it(testCase.name, () => checkResponseCase(adapter, testCase))
      })
    }
    if (options.finishes?.length) {
      describe('finishes', () => {
        for (const testCase of options.finishes!) {
          it(`should classify ${JSON.stringify(testCase.reason)} as ${String(testCase.expected)}`, () => checkFinishCase(adapter, testCase))
        }
      })
    }
  })
}
