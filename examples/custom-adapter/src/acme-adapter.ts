import { defineAdapter, type Adapter, type FinishClass } from '@wildcall/sdk'
import { acmeReader } from './acme-reader'

/** Options of {@link acmeAdapter}. */
export interface AcmeAdapterOptions {
  /** Let Acme models think before answering (slower, more tokens). Default: off. */
  reasoning?: boolean
}

// Acme's own API (api.acme.test and its subdomains, any port). Its quirks apply there only: Acme
// models served elsewhere (OpenRouter, a local vLLM) take the standard request.
const ACME_API = /(?:^|\.)acme\.test(?::\d+)?$/

// Acme's own finish reasons (lower-cased). Anything else defers to wildcall's defaults.
const FINISH: Record<string, FinishClass> = {
  call: 'ok',
  budget: 'truncated',
  guarded: 'filtered',
}

/**
 * Adapter for the (made-up) Acme model family, served at `api.acme.test` and by other hosts.
 *
 * - Requests: Acme's API rejects `parallel_tool_calls` and a named `tool_choice` (it only knows
 *   `'auto'` and `'required'`): a provider quirk, patched on `api.acme.test` only. Acme models think
 *   unless sent `reasoning: 'off'`: a model quirk, patched wherever they run.
 * - Responses: Acme writes its call in `content` as `<<call:name>>…<</call>>`; the adapter
 *   declares {@link acmeReader}, which reads it (in `invoke`, and live in `stream`). Its finish
 *   reasons `call`, `budget`, `guarded` and its "credit balance too low" 400 are classified.
 *
 * @example
 * ```ts
 * import { createClient, registerAdapter } from '@wildcall/sdk'
 * import { acmeAdapter } from 'wildcall-adapter-acme'
 *
 * registerAdapter(acmeAdapter())
 * const client = createClient({ baseURL: 'https://api.acme.test/v1', model: 'acme-2-flash', apiKey })
 * ```
 */
export function acmeAdapter(options: AcmeAdapterOptions = {}): Adapter {
  return defineAdapter({
    name: 'acme',
    kind: 'model',
    match: { models: ['acme-'], hosts: ['api.acme.test'] },
    readers: [acmeReader],
    patchRequest(body, context) {
      // The model's quirk, on every host.
      if (body.reasoning === undefined) body.reasoning = options.reasoning ? 'on' : 'off'
      // The provider's quirks, on Acme's API only.
      if (!ACME_API.test(context.host)) return
      delete body.parallel_tool_calls
      // A named choice becomes 'required': with one tool that is the same thing, and Acme returns
      // 400 for the object form. The body's tool_choice is a fresh object, but replace, not mutate.
      if (typeof body.tool_choice === 'object' && body.tool_choice !== null) body.tool_choice = 'required'
    },
    classifyFinish(reason) {
      if (typeof reason !== 'string') return undefined
      const key = reason.toLowerCase()
      return Object.prototype.hasOwnProperty.call(FINISH, key) ? FINISH[key] : undefined
    },
    classifyError(error, context) {
      if (context.status === 400 && /credit balance too low/i.test(context.bodyText)) {
        return context.reclassify('quota_exceeded', 'Your Acme credit balance is too low. Top up at acme.test/billing.')
      }
      return undefined
    },
  })
}
