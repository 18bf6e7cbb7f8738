import { InvokeError, patchHistoryReasoning, type Adapter, type ErrorContext, type InvokeErrorType } from '@wildcall/sdk'
import { specialTokenReader, xmlCallReader } from '@wildcall/sdk/readers'

/** Options of {@link deepseekAdapter}. */
export interface DeepSeekAdapterOptions {
  /**
   * Keep DeepSeek's thinking mode on (`thinking: { type: 'enabled' }`) and send back the
   * `reasoning_content` of assistant history, which thinking mode with tool calls requires.
   * Default `false`: thinking off, and history `reasoning_content` dropped.
   */
  thinking?: boolean
}

// `deepseek-reasoner` and the R1 line always think: the `thinking` switch does not apply to them.
const ALWAYS_THINKS = /^deepseek-reasoner|(?:^|-)r1(?:-|$)/
// The reasoner of DeepSeek's own API refuses a tool-calling history turn without its reasoning.
const REASONER = /^deepseek-reasoner/
// DeepSeek's own API (api.deepseek.com): where its provider patches apply.
const DEEPSEEK_API = /(?:^|\.)deepseek\.com(?::\d+)?$/

/**
 * DeepSeek (api.deepseek.com and DeepSeek models served elsewhere). Model quirks, wherever the model
 * runs: `thinking: { type: 'disabled' }` (a server without the switch that refuses it is adapted to
 * by the client), the history reasoning below. Provider API, on DeepSeek's hosts only: `tool_choice`
 * removed (DeepSeek's API rejects it; the same model on vLLM or SGLang keeps its named choice), and
 * the `insufficient_system_resource` finish reason and error as a retryable server failure.
 *
 * History `reasoning_content`: declared in `echoFields`, so `result.messages` carries it. With
 * thinking on (the `thinking` option, or `deepseek-reasoner`) it is sent back, because DeepSeek's
 * thinking mode needs the reasoning of earlier tool-call turns; a tool-calling turn written while
 * thinking was off gets `reasoning_content: ''`, so such a history stays valid. With thinking off it
 * is dropped from the copies of assistant messages sent: a non-thinking model never reads it, and it
 * only costs prompt tokens. Your `messages` array is never modified.
 *
 * @example
 * ```ts
 * import { createClient } from '@wildcall/sdk'
 * import { deepseekAdapter } from '@wildcall/adapter-deepseek'
 *
 * const client = createClient({
 *   baseURL: 'https://api.deepseek.com/v1',
 *   model: 'deepseek-chat',
 *   apiKey: process.env.DEEPSEEK_API_KEY,
 *   adapters: [deepseekAdapter()],
 * })
 * ```
 */
export function deepseekAdapter(options: DeepSeekAdapterOptions = {}): Adapter {
  return {
    name: 'deepseek',
    kind: 'model',
    readers: [specialTokenReader, xmlCallReader],
    match: { models: ['deepseek'] },
    echoFields: { message: ['reasoning_content'] },
    patchRequest(body, context) {
      if (DEEPSEEK_API.test(context.host)) delete body.tool_choice
      if (ALWAYS_THINKS.test(context.modelId)) {
        if (REASONER.test(context.modelId)) body.messages = patchHistoryReasoning(body.messages, true)
        return
      }
      if (options.thinking) body.thinking = { type: 'enabled' }
      else body.thinking = { type: 'disabled' }
      body.messages = patchHistoryReasoning(body.messages, options.thinking === true)
    },
    classifyFinish(reason) {
      return typeof reason === 'string' && reason.toLowerCase() === 'insufficient_system_resource' ? 'server_error' : undefined
    },
    classifyError(error, context) {
      if (/insufficient_system_resource/i.test(context.bodyText)) {
        return context.reclassify('server_error', 'DeepSeek ran out of capacity for this request (insufficient_system_resource). Retrying usually helps.')
      }
      if (/Insufficient Balance/i.test(context.bodyText)) {
        return context.reclassify('quota_exceeded', 'The DeepSeek account balance is used up (Insufficient Balance). Top it up; retrying does not help.')
      }
      return undefined
    },
  }
}

