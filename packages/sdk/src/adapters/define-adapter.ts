import { InvokeError } from '../errors/invoke-error'
import { normalizeModelName } from './normalize-model-name'
import type { Adapter } from './types'
import { isReaderList, isRecord, READER_LIST_RULE } from '../util/is-record'

const HOOKS = ['patchRequest', 'fixResponse', 'fixChunk', 'classifyFinish', 'classifyError'] as const

function describeValue(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (value instanceof RegExp) return String(value)
  if (typeof value === 'string') return JSON.stringify(value)
  return typeof value
}

/**
 * Checks an adapter's shape at run time (community adapters arrive untyped, often from plain
 * JavaScript) and throws a `config_error` naming the adapter and the field to fix.
 */
export function assertAdapter(adapter: unknown): asserts adapter is Adapter {
  if (!isRecord(adapter)) {
    throw new InvokeError('config_error', `defineAdapter: expected an adapter object such as { name, match, patchRequest }, got ${describeValue(adapter)}. Call the adapter's factory, e.g. qwenAdapter().`)
  }
  const { name, kind, match, compose, echoFields } = adapter
  if (typeof name !== 'string' || name.trim() === '') {
    throw new InvokeError('config_error', `defineAdapter: an adapter has no "name" (got ${describeValue(name)}). Give it a short non-empty name such as "acme".`)
  }
  // `rule` ends with the value it got when `value` is given.
  const fail = (field: string, rule: string, ...value: unknown[]): never => {
    throw new InvokeError('config_error', `[${name}] adapter "${field}" ${rule}${value.length > 0 ? ` (got ${describeValue(value[0])}).` : ''}`)
  }
  if (kind !== undefined && kind !== 'model' && kind !== 'provider') fail('kind', 'must be "model" or "provider"', kind)
  if (typeof match !== 'function') {
    if (!isRecord(match)) fail('match', 'must be a function or { models?, hosts? } of strings and RegExps', match)
    let count = 0
    for (const [key, list] of Object.entries(match as Record<string, unknown>)) {
      if (key !== 'models' && key !== 'hosts') fail('match', `has an unknown key "${key}": use "models" (model names) or "hosts" (base URL hosts).`)
      if (list === undefined) continue
      if (!Array.isArray(list)) fail(`match.${key}`, 'must be an array of strings and RegExps', list)
      for (const pattern of list as unknown[]) {
        // A model string is compared normalised: one that normalises to '' would match every model.
        const text = typeof pattern === 'string' ? (key === 'models' ? normalizeModelName(pattern) : pattern.trim()) : ''
        if (!(pattern instanceof RegExp || text !== '')) fail(`match.${key}`, 'must hold only non-empty strings and RegExps', pattern)
        count++
      }
    }
    if (count === 0) fail('match', 'lists no models and no hosts, so it would never match. Add e.g. { models: ["acme"] }.')
  }
  for (const hook of HOOKS) if (adapter[hook] !== undefined && typeof adapter[hook] !== 'function') fail(hook, 'must be a function', adapter[hook])
  if (compose !== undefined && typeof compose !== 'boolean') fail('compose', 'must be true or false', compose)
  if (echoFields !== undefined) {
    if (!isRecord(echoFields)) fail('echoFields', 'must be { message?, toolCall? } of field names', echoFields)
    for (const [key, list] of Object.entries(echoFields as Record<string, unknown>)) {
      if (key !== 'message' && key !== 'toolCall') fail('echoFields', `has an unknown key "${key}": use "message" or "toolCall".`)
      if (!Array.isArray(list) || !list.every((field) => typeof field === 'string' && field !== '')) fail(`echoFields.${key}`, 'must be an array of field names such as ["reasoning_content"]', list)
    }
  }
  if (adapter.readers !== undefined && !isReaderList(adapter.readers)) fail('readers', READER_LIST_RULE)
  const { prompt } = adapter
  if (prompt !== undefined && ['tools', 'call', 'results'].some((key) => typeof (prompt as Record<string, unknown> | null)?.[key] !== 'function')) fail('prompt', 'must be { tools, call, results } of functions', prompt)
}

/**
 * Validates an adapter at run time and returns it, typed. Throws `InvokeError('config_error')`
 * naming the adapter and the field: a missing name, a bad `kind`, a `match` that is neither a
 * function nor `{ models?, hosts? }` of strings and RegExps, a hook that is not a function.
 *
 * @example
 * ```ts
 * export function acmeAdapter(): Adapter {
 *   return defineAdapter({
 *     name: 'acme',
 *     match: { models: ['acme-'] },
 *     patchRequest(body) {
 *       delete body.parallel_tool_calls
 *     },
 *   })
 * }
 * ```
 */
export function defineAdapter<T extends Adapter>(adapter: T): T {
  assertAdapter(adapter)
  return adapter
}
