import { InvokeError, type Adapter, type ChatMessage, type ErrorContext, type InvokeErrorType } from '@wildcall/sdk'

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

/**
 * DeepSeek (api.deepseek.com and DeepSeek models served elsewhere): sends `thinking: { type:
 * 'disabled' }`, removes `tool_choice` (DeepSeek rejects it), and treats the
 * `insufficient_system_resource` finish reason and error as a retryable server failure.
 *
 * History `reasoning_content`: with thinking on (the `thinking` option, or a reasoner model that
 * always thinks) it is sent back untouched, because DeepSeek's thinking mode needs the reasoning of
 * earlier tool-call turns. With thinking off it is dropped from the copies of assistant messages
 * sent: a non-thinking model never reads it, and it only costs prompt tokens. Your `messages` array
 * is never modified.
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
    match: { models: ['deepseek'] },
    patchRequest(body, context) {
      delete body.tool_choice
      if (ALWAYS_THINKS.test(context.modelId)) return
      if (options.thinking) {
        body.thinking = { type: 'enabled' }
        return
      }
      body.thinking = { type: 'disabled' }
      if (Array.isArray(body.messages) && body.messages.some(hasReasoning)) {
        body.messages = body.messages.map((message) => {
          if (!hasReasoning(message)) return message
          const { reasoning_content: _dropped, ...rest } = message
          return rest as ChatMessage
        })
      }
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

function hasReasoning(message: ChatMessage): boolean {
  return typeof message === 'object' && message !== null && message.role === 'assistant' && 'reasoning_content' in message
}

