import { describe, expect, it } from 'vitest'
import { isInvokeError } from '../errors/invoke-error'
import { defineAdapter } from './define-adapter'
import type { Adapter } from './types'

function configError(run: () => unknown): string {
  try {
    run()
  } catch (error) {
    expect(isInvokeError(error) && error.type).toBe('config_error')
    expect(isInvokeError(error) && error.retryable).toBe(false)
    return (error as Error).message
  }
  throw new Error('expected a config_error')
}

describe('defineAdapter', () => {
  it('should return a valid adapter unchanged', () => {
    const adapter: Adapter = { name: 'acme', kind: 'model', match: { models: ['acme', /^acme-\d/], hosts: ['api.acme.test'] }, patchRequest() {} }
    expect(defineAdapter(adapter)).toBe(adapter)
    const predicate: Adapter = { name: 'local', kind: 'provider', match: ({ host }) => host.startsWith('localhost'), compose: true }
    expect(defineAdapter(predicate)).toBe(predicate)
  })

  it.each([
    [undefined, 'expected an adapter object'],
    ['acme', 'expected an adapter object'],
    [[], 'expected an adapter object'],
    [{ match: { models: ['x'] } }, 'has no "name"'],
    [{ name: '  ', match: { models: ['x'] } }, 'has no "name"'],
    [{ name: 42, match: { models: ['x'] } }, 'has no "name"'],
  ])('should reject %j', (adapter, message) => {
    expect(configError(() => defineAdapter(adapter as never))).toContain(message)
  })

  it.each([
    [{ kind: 'family', match: { models: ['acme'] } }, '"kind" must be "model" or "provider"'],
    [{ match: undefined }, '"match" must be a function or { models?, hosts? }'],
    [{ match: 'acme' }, '"match" must be a function or { models?, hosts? }'],
    [{ match: { model: ['acme'] } }, 'unknown key "model"'],
    [{ match: {} }, 'lists no models and no hosts'],
    [{ match: { models: [] } }, 'lists no models and no hosts'],
    [{ match: { models: 'acme' } }, '"match.models" must be an array'],
    [{ match: { models: ['acme', 3] } }, '"match.models" must hold only non-empty strings and RegExps (got number)'],
    [{ match: { models: [''] } }, '"match.models" must hold only non-empty strings'],
    [{ match: { models: ['openai/'] } }, '"match.models" must hold only non-empty strings'],
    [{ match: { hosts: [null] } }, '"match.hosts" must hold only non-empty strings and RegExps (got null)'],
    [{ match: { models: ['acme'] }, patchRequest: 'delete tool_choice' }, '"patchRequest" must be a function'],
    [{ match: { models: ['acme'] }, fixResponse: {} }, '"fixResponse" must be a function'],
    [{ match: { models: ['acme'] }, classifyFinish: true }, '"classifyFinish" must be a function'],
    [{ match: { models: ['acme'] }, classifyError: 1 }, '"classifyError" must be a function'],
    [{ match: { models: ['acme'] }, compose: 'yes' }, '"compose" must be true or false'],
  ])('should name the adapter and the field for %j', (fields, message) => {
    const text = configError(() => defineAdapter({ name: 'acme', ...fields } as never))
    expect(text).toContain('[acme]')
    expect(text).toContain(message)
    expect(text.startsWith('[wildcall] ')).toBe(true)
  })
})
