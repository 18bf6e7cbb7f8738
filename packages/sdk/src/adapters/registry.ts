// Imports in the order that bundles smallest: module order moves the gzip size (node scripts/check-size.mjs).
import { assertAdapter } from './define-adapter'
import { runHook } from './run-hook'
import { normalizeModelName } from './normalize-model-name'
import { openaiAdapter } from './openai-adapter'
import type { Adapter, MatchContext } from './types'

/**
 * An ordered set of adapters. Adapters registered at run time rank before the registry's built-ins,
 * the newest registration first.
 *
 * @example
 * ```ts
 * const registry: AdapterRegistry = createAdapterRegistry({ builtIns: [qwenAdapter()] })
 * const unregister = registry.register(acmeAdapter())
 * registry.list().map((adapter) => adapter.name) // ['acme', 'qwen']
 * ```
 */
export interface AdapterRegistry {
  /**
   * Validates and adds an adapter (before every earlier one); returns a function that removes it.
   * Only one adapter of a name runs for a client, so registering a second adapter under a name
   * already taken warns (once per name).
   */
  register(adapter: Adapter): () => void
  /** Adapters added with `register`, newest first. */
  registered(): Adapter[]
  /** The built-in adapters given to `createAdapterRegistry`, in the order given. */
  builtIns(): Adapter[]
  /** Every adapter in precedence order: registered (newest first), then built-ins. */
  list(): Adapter[]
}

/**
 * Options of {@link createAdapterRegistry}.
 *
 * @example
 * ```ts
 * const registry = createAdapterRegistry({ builtIns: [qwenAdapter(), glmAdapter()] })
 * const client = createClient({ baseURL, model: 'glm-4.6', registry })
 * ```
 */
export interface AdapterRegistryOptions {
  /** Adapters the registry starts with; anything registered later ranks before them. */
  builtIns?: Adapter[]
}

/**
 * Makes an isolated registry. The default OpenAI adapter is not stored in it: `createClient` always
 * appends it last.
 *
 * @example
 * ```ts
 * const registry = createAdapterRegistry({ builtIns: [qwenAdapter(), openrouterAdapter()] })
 * const unregister = registry.register(myQwenAdapter) // overrides qwenAdapter() for the models it matches
 * const client = createClient({ baseURL, model, registry })
 * ```
 */
export function createAdapterRegistry(options: AdapterRegistryOptions = {}): AdapterRegistry {
  const builtIns = [...(options.builtIns ?? [])]
  builtIns.forEach((adapter) => assertAdapter(adapter))
  // One entry per registration, so registering the same adapter twice needs two unregisters.
  const entries: Array<{ adapter: Adapter }> = []
  const warned = new Set<string>()
  const list = () => [...entries.map((entry) => entry.adapter), ...builtIns]
  return {
    register(adapter) {
      assertAdapter(adapter)
      const { name } = adapter
      // Two packages of one name would shadow each other silently: only one adapter of a name runs.
      if (!warned.has(name) && list().some((other) => other.name === name && other !== adapter)) {
        warned.add(name)
        console.warn(`[wildcall] two adapters are named "${name}": only one runs. Rename one.`)
      }
      const entry = { adapter }
      entries.unshift(entry)
      return () => {
        const index = entries.indexOf(entry)
        if (index >= 0) entries.splice(index, 1)
      }
    },
    registered: () => entries.map((entry) => entry.adapter),
    builtIns: () => [...builtIns],
    list,
  }
}

// A registered symbol on globalThis: the ESM and CJS builds (or two installed copies) of this
// version line share one default registry, so an adapter registered through `import` is seen by a
// client created through `require`. The version in the key keeps an incompatible future copy apart.
const REGISTRY_KEY = Symbol.for('wildcall.defaultRegistry.v1')

function sharedRegistry(): AdapterRegistry {
  const holder = globalThis as { [REGISTRY_KEY]?: AdapterRegistry }
  return (holder[REGISTRY_KEY] ??= createAdapterRegistry())
}

/**
 * The registry `createClient` uses unless given one; {@link registerAdapter} adds to it. It starts
 * empty: adapter packages are installed separately and registered or passed as `adapters`.
 *
 * @example
 * ```ts
 * defaultRegistry.list().map((adapter) => adapter.name) // e.g. ['acme']
 * ```
 */
export const defaultRegistry: AdapterRegistry = sharedRegistry()

/**
 * Registers an adapter in the default registry and returns a function that unregisters it.
 * Clients resolve their adapters when created: register before `createClient`.
 *
 * @example
 * ```ts
 * const unregister = registerAdapter(acmeAdapter())
 * const client = createClient({ baseURL, model: 'acme-2-mini' })
 * // … later
 * unregister()
 * ```
 */
export function registerAdapter(adapter: Adapter): () => void {
  return defaultRegistry.register(adapter)
}

const DEFAULT_ADAPTER_NAME = 'openai'

const hostname = (host: string) => host.replace(/:\d+$/, '')

function regexMatch(pattern: RegExp, value: string): string | undefined {
  // A global or sticky RegExp keeps state between calls; start from the beginning every time.
  pattern.lastIndex = 0
  const found = pattern.exec(value)
  pattern.lastIndex = 0
  return found ? found[0] : undefined
}

/**
 * How specifically one pattern matches, or -1. A string scores twice its length, plus one when it
 * is the whole value (so an exact name beats a prefix of the same text); a RegExp scores twice the
 * length of the text it matched.
 */
function scorePattern(pattern: string | RegExp, value: string, kind: 'models' | 'hosts'): number {
  if (pattern instanceof RegExp) {
    const found = regexMatch(pattern, value) ?? (kind === 'hosts' ? regexMatch(pattern, hostname(value)) : undefined)
    return found === undefined ? -1 : found.length * 2 + (found === value ? 1 : 0)
  }
  if (kind === 'models') {
    const prefix = normalizeModelName(pattern)
    if (prefix === '' || !value.startsWith(prefix)) return -1
    return prefix.length * 2 + (prefix === value ? 1 : 0)
  }
  // Hosts: the host itself or any subdomain, on any port unless the pattern names one.
  const wanted = pattern.trim().toLowerCase()
  const actual = wanted.includes(':') ? value : hostname(value)
  if (actual === wanted) return wanted.length * 2 + 1
  return actual.endsWith(`.${wanted}`) ? wanted.length * 2 : -1
}

/**
 * How specifically `adapter` matches the client, or -1 when it does not match. A predicate that
 * returns true scores 0, the least specific. A predicate that throws is a `config_error` naming
 * the adapter.
 */
export function matchSpecificity(adapter: Adapter, context: MatchContext): number {
  const { match } = adapter
  if (typeof match === 'function') return runHook(adapter, 'match', match, context, undefined) ? 0 : -1
  let best = -1
  for (const pattern of match.models ?? []) best = Math.max(best, scorePattern(pattern, context.modelId, 'models'))
  for (const pattern of match.hosts ?? []) best = Math.max(best, scorePattern(pattern, context.host, 'hosts'))
  return best
}

/**
 * Whether `adapter` matches this client.
 *
 * @example
 * ```ts
 * matchesAdapter(acmeAdapter(), { model: 'Acme-2', modelId: 'acme-2', baseURL, host: 'api.acme.test' }) // true
 * ```
 */
export function matchesAdapter(adapter: Adapter, context: MatchContext): boolean {
  return matchSpecificity(adapter, context) >= 0
}

/**
 * The names reported in `client.adapters` and `result.adapters`: every adapter of the chain that
 * matched. The default adapter, which runs last for every model, is named only when it matches too
 * (the GPT family), so a Qwen model behind OpenRouter reports `['qwen', 'openrouter']`.
 */
export function matchedAdapterNames(chain: readonly Adapter[], context: MatchContext): string[] {
  const last = chain.length - 1
  return chain.filter((adapter, index) => index < last || matchesAdapter(adapter, context)).map((adapter) => adapter.name)
}

/**
 * The adapters that handle a client, in patch order: the model adapter(s), then the provider
 * adapter(s), then the default OpenAI adapter.
 *
 * Precedence: the client's `adapters` (in array order), then the registry's registered adapters
 * (newest first), then its built-ins; within each of these tiers the most specific match first.
 * Of each kind only the first matching adapter is used (so an override replaces, not stacks), plus
 * every matching adapter that declares `compose: true`. A name already taken by a
 * higher-precedence adapter is skipped. A matching adapter named `openai` replaces the default
 * adapter, in its place at the end.
 */
export function resolveAdapters(registry: AdapterRegistry, clientAdapters: readonly Adapter[], context: MatchContext): Adapter[] {
  const tiers: ReadonlyArray<readonly Adapter[]> = [
    clientAdapters,
    typeof registry.registered === 'function' ? registry.registered() : registry.list(),
    typeof registry.builtIns === 'function' ? registry.builtIns() : [],
  ]
  const ranked: Array<{ adapter: Adapter; tier: number; score: number; order: number }> = []
  tiers.forEach((adapters, tier) => {
    adapters.forEach((adapter, order) => {
      if (tier === 0) assertAdapter(adapter)
      const score = matchSpecificity(adapter, context)
      if (score >= 0) ranked.push({ adapter, tier, score, order })
    })
  })
  ranked.sort((a, b) => a.tier - b.tier || b.score - a.score || a.order - b.order)
  const names = new Set<string>()
  const chosen = { model: false, provider: false }
  const picked: Adapter[] = []
  let fallback: Adapter | undefined
  for (const { adapter } of ranked) {
    if (names.has(adapter.name)) continue
    if (adapter.name === DEFAULT_ADAPTER_NAME) {
      // Replaces the default adapter in its place (last) instead of competing with family adapters.
      fallback = adapter
      names.add(adapter.name)
      continue
    }
    const kind = adapter.kind === 'provider' ? 'provider' : 'model'
    if (!adapter.compose) {
      if (chosen[kind]) continue
      chosen[kind] = true
    }
    names.add(adapter.name)
    picked.push(adapter)
  }
  return [...picked.filter((a) => a.kind !== 'provider'), ...picked.filter((a) => a.kind === 'provider'), fallback ?? openaiAdapter()]
}
