import { InvokeError, type Adapter, type ErrorContext, type InvokeErrorType } from '@wildcall/sdk'

/**
 * Grok (xAI's API, and Grok served elsewhere). `grok-4.3` gets `reasoning_effort: 'none'`;
 * `grok-3-mini*` and `grok-code-fast*` get `'low'`; every other Grok (grok-4, grok-4-fast, grok-3)
 * receives no `reasoning_effort`, which xAI rejects on models without the switch. xAI's error
 * wording: `maximum prompt length` → `context_length`, a team without credits (403) →
 * `quota_exceeded`, `Incorrect API key` (400) → `auth_error`.
 *
 * Every request patch here is a model quirk: it applies wherever Grok runs.
 *
 * @example
 * ```ts
 * import { createClient } from '@wildcall/sdk'
 * import { grokAdapter } from '@wildcall/adapter-grok'
 *
 * const client = createClient({
 *   baseURL: 'https://api.x.ai/v1',
 *   model: 'grok-code-fast-1',
 *   apiKey: process.env.XAI_API_KEY,
 *   adapters: [grokAdapter()],
 * })
 * ```
 */
export function grokAdapter(): Adapter {
  return {
    name: 'grok',
    kind: 'model',
    match: { models: ['grok'] },
    patchRequest(body, context) {
      const effort = reasoningEffortOf(context.modelId)
      if (effort) body.reasoning_effort = effort
    },
    classifyError(error, context) {
      const text = context.bodyText
      if (/maximum prompt length/i.test(text)) {
        return context.reclassify('context_length', "The prompt is over Grok's context window (\"maximum prompt length\"). Shorten the history.")
      }
      if (/doesn't have any credits|does not have any credits|spending limit|exhausted (?:its|your) credits/i.test(text)) {
        return context.reclassify('quota_exceeded', 'The xAI team has no credits left (or hit its spending limit). Buy credits or raise the limit; retrying does not help.')
      }
      if (/Incorrect API key/i.test(text) && error.type !== 'auth_error') {
        return context.reclassify('auth_error', 'xAI rejected the API key (Incorrect API key). Check it.')
      }
      return undefined
    },
  }
}

function reasoningEffortOf(modelId: string): 'none' | 'low' | undefined {
  // `grok-4.3` normalises to `grok-43`.
  if (/^grok-43(?!\d)/.test(modelId)) return 'none'
  if (/^grok-3-mini|^grok-code-fast/.test(modelId)) return 'low'
  return undefined
}

