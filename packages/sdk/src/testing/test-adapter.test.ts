import { describe, expect, it } from 'vitest'
import { defineAdapter } from '../adapters/define-adapter'
import type { Adapter } from '../adapters/types'
import type { ChatResponse } from '../types'
import { contentResponse, toolCallResponse } from './scripted-server'
import {
  checkClassifyFinish,
  checkFinishCase,
  checkFixResponse,
  checkMatch,
  checkPatchRequest,
  checkRequestCase,
  checkResponseCase,
  claimedTargets,
} from './test-adapter'
import { testAdapter as legacyTestAdapter } from './index'
import { testAdapter } from './vitest'

/** A small, well-behaved adapter: the kit must pass it. */
function sampleAdapter(): Adapter {
  return defineAdapter({
    name: 'sample',
    match: { models: ['sample-'], hosts: ['api.sample.test'] },
    patchRequest(body, context) {
      body.sample_mode = 'tools'
      // Sample's own API refuses parallel_tool_calls; Sample models on other hosts keep it.
      if (/(?:^|\.)sample\.test(?::\d+)?$/.test(context.host)) delete body.parallel_tool_calls
    },
    fixResponse(response) {
      const message = response.choices[0]?.message
      const found = typeof message?.content === 'string' ? /<call>([\s\S]*?)<\/call>/.exec(message.content) : null
      if (!message || !found) return
      const { name, arguments: args } = JSON.parse(found[1]!) as { name: string; arguments: unknown }
      message.tool_calls = [{ id: 'call_sample', type: 'function', function: { name, arguments: JSON.stringify(args) } }]
      message.content = null
    },
    classifyFinish: (reason) => (reason === 'sample_done' ? 'ok' : undefined),
  })
}

testAdapter(sampleAdapter(), {
  matches: ['Vendor/Sample-2', { model: 'anything', baseURL: 'https://eu.api.sample.test:8443/v1' }],
  rejects: ['sampler-1', 'acme-sample-1'],
  requests: [
    { name: 'drops parallel_tool_calls on its API and sets sample_mode', model: 'sample-2', baseURL: 'https://api.sample.test/v1', toolChoiceName: 'done', after: { sample_mode: 'tools', tool_choice: { type: 'function', function: { name: 'done' } } }, absent: ['parallel_tool_calls'] },
    { name: 'leaves other models to the default adapter', model: 'gpt-4.1', after: { parallel_tool_calls: false }, absent: ['sample_mode'] },
    { name: 'keeps what the caller merged in', model: 'sample-2', before: { max_tokens: 64 }, after: { max_tokens: 64 } },
  ],
  responses: [
    { name: 'repairs its markup', model: 'sample-2', response: contentResponse('<call>{"name":"input_text","arguments":{"index":4,"text":"hello"}}</call>', { finishReason: 'sample_done' }), expected: { name: 'input_text', args: { index: 4, text: 'hello' } } },
    { name: 'a 401 is auth_error', model: 'sample-2', status: 401, response: { error: { message: 'bad key' } }, expected: { error: 'auth_error' } },
  ],
  finishes: [
    { reason: 'sample_done', expected: 'ok' },
    { reason: 'stop', expected: undefined },
  ],
})

/** An adapter with just the given patch, matching `sample-*`. */
function patching(patchRequest: Adapter['patchRequest']): Adapter {
  return defineAdapter({ name: 'bad', match: { models: ['sample-'] }, patchRequest })
}

describe('testAdapter checks', () => {
  it('should derive the claimed targets from string patterns only', () => {
    expect(claimedTargets(sampleAdapter())).toEqual(['sample-', { model: 'some-model', baseURL: 'https://api.sample.test/v1' }])
    expect(claimedTargets(defineAdapter({ name: 'f', match: () => true }))).toEqual([])
  })

  it('should fail an adapter that matches an unrelated model', () => {
    const greedy = defineAdapter({ name: 'greedy', match: ({ modelId }) => modelId.length > 0 })
    expect(() => checkMatch(greedy, 'gpt-4.1', false)).toThrow(/should not match "gpt-4.1"/)
    expect(() => checkMatch(sampleAdapter(), 'llama-3.3-70b', true)).toThrow(/should match "llama-3.3-70b"/)
  })

  it('should fail a patch that is not idempotent', () => {
    const appending = patching((body) => {
      body.messages = [...body.messages, { role: 'system', content: 'Use tools.' }]
    })
    expect(() => checkPatchRequest(appending, 'sample-1')).toThrow(/not idempotent/)
    const counting = patching((body) => {
      body.retries = ((body.retries as number | undefined) ?? 0) + 1
    })
    expect(() => checkPatchRequest(counting, 'sample-1')).toThrow(/not idempotent/)
  })

  it('should fail a patch that drops messages or tools', () => {
    const noSystem = patching((body) => ({ ...body, messages: body.messages.filter((message) => message.role !== 'system') }))
    expect(() => checkPatchRequest(noSystem, 'sample-1')).toThrow(/dropped messages/)
    const noTools = patching((body) => {
      delete body.tools
    })
    expect(() => checkPatchRequest(noTools, 'sample-1')).toThrow(/dropped or renamed tools/)
  })

  it('should fail a patch that mutates a cached tool definition or the caller messages', () => {
    const mutatesTool = patching((body) => {
      body.tools![0]!.function.description = 'changed'
    })
    expect(() => checkPatchRequest(mutatesTool, 'sample-1')).toThrow(/mutated a frozen tool definition/)
    const mutatesHistory = patching((body) => {
      for (const message of body.messages) delete message.reasoning_content
    })
    expect(() => checkPatchRequest(mutatesHistory, 'sample-1')).toThrow(/mutated the caller's messages/)
    const copiesHistory = patching((body) => {
      body.messages = body.messages.map(({ reasoning_content: _dropped, ...message }) => message)
    })
    expect(() => checkPatchRequest(copiesHistory, 'sample-1')).not.toThrow()
  })

  it('should fail a fixResponse that breaks the response shape or drops a valid call', () => {
    const empties = defineAdapter({ name: 'bad', match: { models: ['sample-'] }, fixResponse: () => ({}) as ChatResponse })
    expect(() => checkFixResponse(empties, 'sample-1', contentResponse(''))).toThrow(/non-empty choices array/)
    const noMessage = defineAdapter({ name: 'bad', match: { models: ['sample-'] }, fixResponse: () => ({ choices: [{ finish_reason: 'stop' }] }) as unknown as ChatResponse })
    expect(() => checkFixResponse(noMessage, 'sample-1', contentResponse(''))).toThrow(/message an object/)
    const dropper = defineAdapter({
      name: 'bad',
      match: { models: ['sample-'] },
      fixResponse(response) {
        response.choices[0]!.message.tool_calls = []
      },
    })
    expect(() => checkFixResponse(dropper, 'sample-1', toolCallResponse('done', { text: 'x' }), 'done')).toThrow(/dropped a well-formed tool call/)
  })

  it('should fail a classifyFinish that returns an unknown class', () => {
    const weird = defineAdapter({ name: 'bad', match: { models: ['sample-'] }, classifyFinish: (reason) => (reason === 'weird' ? ('fine' as never) : undefined) })
    expect(() => checkClassifyFinish(weird, 'sample-1')).toThrow(/returned "fine" for "weird"/)
    expect(() => checkFinishCase(sampleAdapter(), { reason: 'sample_done', expected: 'truncated' })).toThrow()
  })

  it('should fail a request case whose body does not match', () => {
    expect(() => checkRequestCase(sampleAdapter(), { name: 'x', model: 'sample-1', absent: ['sample_mode'] })).toThrow(/must not have "sample_mode"/)
    expect(() => checkRequestCase(sampleAdapter(), { name: 'x', model: 'sample-1', baseURL: 'https://api.sample.test/v1', after: { parallel_tool_calls: false } })).toThrow()
    expect(() => checkRequestCase(sampleAdapter(), { name: 'x', model: 'sample-1', absent: ['tool_choice.function'] })).not.toThrow()
  })

  it('should fail a response case with the wrong call or error', async () => {
    const adapter = sampleAdapter()
    const response = toolCallResponse('done', { text: 'ok' })
    await expect(checkResponseCase(adapter, { name: 'x', model: 'sample-1', response, expected: { name: 'done', args: { text: 'other' } } })).rejects.toThrow()
    await expect(checkResponseCase(adapter, { name: 'x', model: 'sample-1', response, expected: { error: 'no_tool_call' } })).rejects.toThrow(/no InvokeError/)
    await expect(checkResponseCase(adapter, { name: 'x', model: 'sample-1', response: '<html>502</html>', expected: { error: 'invalid_response' } })).resolves.toBeUndefined()
  })
})

describe('kit assertions without a test runner', () => {
  it('should compare like toEqual and toMatchObject, and say what differs', () => {
    expect(() => checkRequestCase(sampleAdapter(), { name: 'sub', model: 'sample-1', after: { tool_choice: 'required', messages: [{ role: 'system' }] } })).toThrow(
      /request case "sub": the sent body does not match "after"\n {2}expected to contain: .*"tool_choice":"required"/,
    )
    expect(() => checkRequestCase(sampleAdapter(), { name: 'sub', model: 'sample-1', after: { model: 'sample-1', sample_mode: 'tools' } })).not.toThrow()
  })
})

// Adapter packages written before `@wildcall/sdk/testing/vitest` import the kit from the
// plain-Node entry: it registers the same suite with the running vitest, without importing vitest.
legacyTestAdapter(sampleAdapter(), { matches: ['sample-2'], finishes: [{ reason: 'sample_done', expected: 'ok' }] })
