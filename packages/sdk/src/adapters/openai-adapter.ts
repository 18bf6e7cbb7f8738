import type { Adapter } from './types'

/**
 * The default adapter, always last in the chain: GPT-family request patches and the standard
 * finish reasons.
 *
 * @example
 * ```ts
 * const registry = createAdapterRegistry() // already holds openaiAdapter() as the fallback
 * ```
 */
export function openaiAdapter(): Adapter {
  return {
    name: 'openai',
    kind: 'model',
    match: () => true,
  }
}
