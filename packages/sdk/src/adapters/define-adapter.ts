import { InvokeError } from '../errors/invoke-error'
import { normalizeModelName } from './normalize-model-name'
import type { Adapter } from './types'

const HOOKS = ['patchRequest', 'fixResponse', 'fixChunk', 'classifyFinish', 'classifyError'] as const
const MATCH_KEYS = new Set(['models', 'hosts'])

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

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
  if (!isPlainObject(adapter)) {
    throw new InvokeError('config_error', `defineAdapter: expected an adapter object such as { name, match, patchRequest }, got ${describeValue(adapter)}. Call the adapter's factory, e.g. qwenAdapter().`)
  }
  const { name } = adapter
  if (typeof name !== 'string' || name.trim() === '') {
    throw new InvokeError('config_error', `defineAdapter: an adapter has no "name" (got ${describeValue(name)}). Give it a short non-empty name such as "acme"; it appears in errors and in result.adapters.`)
  }
  const fail = (field: string, message: string): never => {
    throw new InvokeError('config_error', `[${name}] adapter "${field}" ${message}`)
  }
  if (adapter.kind !== undefined && adapter.kind !== 'model' && adapter.kind !== 'provider') {
    fail('kind', `must be "model" or "provider" (got ${describeValue(adapter.kind)}).`)
  }
  const { match } = adapter
  if (typeof match !== 'function') {
    if (!isPlainObject(match)) fail('match', `must be a function or { models?, hosts? } of strings and RegExps (got ${describeValue(match)}).`)
    const patterns = match as Record<string, unknown>
    for (const key of Object.keys(patterns)) {
      if (!MATCH_KEYS.has(key)) fail('match', `has an unknown key "${key}": use "models" (model names) or "hosts" (base URL hosts).`)
    }
    let count = 0
    for (const key of MATCH_KEYS) {
      const list = patterns[key]
      if (list === undefined) continue
      if (!Array.isArray(list)) fail(`match.${key}`, `must be an array of strings and RegExps (got ${describeValue(list)}).`)
      for (const pattern of list as unknown[]) {
        // A model string is compared normalised: one that normalises to '' would match every model.
        const text = typeof pattern === 'string' ? (key === 'models' ? normalizeModelName(pattern) : pattern.trim()) : undefined
        const valid = pattern instanceof RegExp || (text !== undefined && text !== '')
        if (!valid) fail(`match.${key}`, `must hold only non-empty strings and RegExps (got ${describeValue(pattern)}).`)
        count++
      }
    }
    if (count === 0) fail('match', 'lists no models and no hosts, so it would never match. Add e.g. { models: ["acme"] }.')
  }
  for (const hook of HOOKS) {
    const value = adapter[hook]
    if (value !== undefined && typeof value !== 'function') fail(hook, `must be a function (got ${describeValue(value)}).`)
  }
  if (adapter.compose !== undefined && typeof adapter.compose !== 'boolean') fail('compose', `must be true or false (got ${describeValue(adapter.compose)}).`)
  const echo = adapter.echoFields
  if (echo !== undefined) {
    if (!isPlainObject(echo)) fail('echoFields', `must be { message?, toolCall? } of field names (got ${describeValue(echo)}).`)
    const lists = echo as Record<string, unknown>
    for (const key of Object.keys(lists)) {
      const list = lists[key]
      if (key !== 'message' && key !== 'toolCall') fail('echoFields', `has an unknown key "${key}": use "message" or "toolCall".`)
      if (!Array.isArray(list) || !list.every((field) => typeof field === 'string' && field !== '')) fail(`echoFields.${key}`, `must be an array of field names such as ["reasoning_content"] (got ${describeValue(list)}).`)
    }
  }
  const { readers } = adapter
  if (readers !== undefined && !(Array.isArray(readers) && readers.every((reader) => typeof reader?.name === 'string' && typeof reader.read === 'function'))) {
    fail('readers', 'must be an array of readers: objects with a "name" and a "read(text, context)" function.')
  }
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
