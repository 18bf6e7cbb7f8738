// `@wildcall/sdk/testing/vitest`: the conformance kit for vitest. Only this entry imports vitest, so
// `@wildcall/sdk/testing` (the scripted server and fixtures) loads in any Node program.
import { describe, it } from 'vitest'
import type { Adapter } from '../adapters/types'
import { registerAdapterSuite, type AdapterTestOptions } from './test-adapter'

export type { AdapterTestOptions, AdapterTestTarget, AdapterRequestCase, AdapterResponseCase, AdapterFinishCase } from './test-adapter'

/**
 * The conformance kit: registers a vitest `describe` block that runs the checks every adapter must
 * pass (accepted by `defineAdapter`; matches what it claims and not unrelated models, nor other
 * families on hosts that serve every family; `patchRequest` idempotent, keeping messages and tools
 * and editing neither the caller's messages nor the cached tool definitions, keeping the user's
 * temperature, and changing no field wildcall sends on hosts it does not claim beyond the declared
 * `modelQuirks`; declared `echoFields` echoed; `fixResponse` well-formed; `classifyFinish` only known
 * classes), then the adapter's own cases. Response cases run through the real `createClient` →
 * `invoke` pipeline with an injected fetch, and a provider field of their answer that the next
 * request does not send back fails unless listed in `notEchoed`.
 *
 * @example
 * ```ts
 * import { testAdapter } from '@wildcall/sdk/testing/vitest'
 * import { acmeAdapter } from './acme-adapter'
 *
 * testAdapter(acmeAdapter(), {
 *   matches: ['acme-2-mini', { model: 'anything', baseURL: 'https://api.acme.test/v1' }],
 *   requests: [{ name: "drops parallel_tool_calls on Acme's API", model: 'acme-2', baseURL: 'https://api.acme.test/v1', absent: ['parallel_tool_calls'] }],
 *   finishes: [{ reason: 'budget_exhausted', expected: 'truncated' }],
 * })
 * ```
 */
export function testAdapter(adapter: Adapter, options: AdapterTestOptions = {}): void {
  registerAdapterSuite({ describe, it }, adapter, options)
}

export { testReader } from './test-reader'
export type { ReaderTestCall, ReaderTestOptions } from './test-reader'
