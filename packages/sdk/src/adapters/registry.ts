import type { Adapter, MatchContext } from './types'
import { openaiAdapter } from './openai-adapter'

/** An ordered set of adapters; user-registered adapters come before built-in ones. */
export interface AdapterRegistry {
  /** Adds an adapter (before every earlier one) and returns a function that removes it. */
  register(adapter: Adapter): () => void
  /** Every registered adapter, user-registered first, then built-ins. */
  list(): Adapter[]
}

/**
 * Makes an isolated registry that holds the built-in default OpenAI adapter.
 *
 * @example
 * ```ts
 * const registry = createAdapterRegistry()
 * registry.register(myAdapter)
 * const client = createClient({ baseURL, model, registry })
 * ```
 */
export function createAdapterRegistry(): AdapterRegistry {
  const user: Adapter[] = []
  return {
    register(adapter) {
      user.unshift(adapter)
      return () => {
        const index = user.indexOf(adapter)
        if (index >= 0) user.splice(index, 1)
      }
    },
    list: () => [...user],
  }
}

/** The registry `createClient` uses unless given one. */
export const defaultRegistry: AdapterRegistry = createAdapterRegistry()

/**
 * Registers an adapter in the default registry and returns a function that unregisters it.
 *
 * @example
 * ```ts
 * const unregister = registerAdapter(myAdapter)
 * // … later
 * unregister()
 * ```
 */
export function registerAdapter(adapter: Adapter): () => void {
  return defaultRegistry.register(adapter)
}

/** Whether `adapter` matches this client. */
export function matchesAdapter(adapter: Adapter, context: MatchContext): boolean {
  const { match } = adapter
  if (typeof match === 'function') return match(context)
  const test = (patterns: ReadonlyArray<string | RegExp> | undefined, value: string) =>
    patterns?.some((pattern) => (typeof pattern === 'string' ? value.startsWith(pattern) : pattern.test(value))) ?? false
  return (adapter.kind === 'provider' ? test(match.hosts, context.host) : test(match.models, context.modelId)) || test(adapter.kind === 'provider' ? match.models : match.hosts, adapter.kind === 'provider' ? context.modelId : context.host)
}

/**
 * The adapters that handle a client, in patch order: model adapters, then provider adapters, then
 * the default OpenAI adapter.
 */
export function resolveAdapters(registry: AdapterRegistry, clientAdapters: readonly Adapter[], context: MatchContext): Adapter[] {
  const candidates = [...clientAdapters, ...registry.list()]
  const matched = candidates.filter((adapter) => matchesAdapter(adapter, context))
  const models = matched.filter((adapter) => adapter.kind !== 'provider')
  const providers = matched.filter((adapter) => adapter.kind === 'provider')
  return [...models, ...providers, openaiAdapter()]
}
