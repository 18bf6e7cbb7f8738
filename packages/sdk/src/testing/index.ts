// `@wildcall/sdk/testing`: the scripted server and response fixtures, for demos, smoke tests and any
// test runner. Plain Node, ESM and CJS: nothing here imports a test runner at load time. The vitest
// conformance kit is `@wildcall/sdk/testing/vitest`.
import type { Adapter } from '../adapters/types'
import { InvokeError } from '../errors/invoke-error'
import { registerAdapterSuite, type AdapterTestOptions, type SuiteRunner } from './test-adapter'

export { startScriptedServer, toolCallResponse, contentResponse, sseChunks } from './scripted-server'
export type { ScriptedReply, ScriptedServer, ScriptedServerOptions, RecordedRequest, ResponseOptions } from './scripted-server'
export type { AdapterTestOptions, AdapterTestTarget, AdapterRequestCase, AdapterResponseCase, AdapterFinishCase } from './test-adapter'
export { checkHistory } from './check-history'
export { checkPromptForm } from './check-prompt-form'
export type { CheckHistoryOptions } from './check-history'
export { streamedReply } from './streamed-reply'

/**
 * The conformance kit, kept here for adapter packages that import it from `@wildcall/sdk/testing`:
 * the same suite as `@wildcall/sdk/testing/vitest`, registered with the `describe` and `it` of the
 * vitest run it is called in (vitest's own module, which vitest exposes on `globalThis` in every
 * worker for `import.meta.vitest`), so this module never imports vitest. New code imports it from
 * `@wildcall/sdk/testing/vitest`.
 *
 * @example
 * ```ts
 * import { testAdapter } from '@wildcall/sdk/testing'
 * testAdapter(acmeAdapter(), { matches: ['acme-2-mini'], rejects: ['gpt-4.1'] })
 * ```
 */
export function testAdapter(adapter: Adapter, options: AdapterTestOptions = {}): void {
  const runner = (globalThis as { __vitest_index__?: SuiteRunner }).__vitest_index__
  if (!runner || typeof runner.describe !== 'function' || typeof runner.it !== 'function') {
    throw new InvokeError('config_error', 'testAdapter registers vitest tests: call it in a test file that vitest runs, and import it from "@wildcall/sdk/testing/vitest".', { retryable: false })
  }
  registerAdapterSuite(runner, adapter, options)
}
