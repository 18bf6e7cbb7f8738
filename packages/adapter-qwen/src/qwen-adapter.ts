import { InvokeError, type Adapter, type ErrorContext, type InvokeErrorType } from '@wildcall/sdk'
import { hermesReader, xmlCallReader } from '@wildcall/sdk/readers'

/** Options of {@link qwenAdapter}. */
export interface QwenAdapterOptions {
  /**
   * Leave Qwen's thinking on (no `enable_thinking: false`). Default `false`: a tool-calling step
   * answers faster and cheaper without it, and hybrid Qwen3 models otherwise think on DashScope.
   */
  thinking?: boolean
}

// `qwen3-max`, `qwen-plus-latest`, `qwen36-plus` (from `qwen3.6-plus`): the hosted flagships, tuned
// by Alibaba for their default temperature. Every other Qwen gets 1.0 unless the user chose one.
const MAX_OR_PLUS = /(?:^|-)(?:max|plus)(?:-|$)/
// Thinking-only releases (`qwen3-235b-a22b-thinking-2507`) refuse `enable_thinking: false`.
const THINKING_ONLY = /(?:^|-)thinking(?:-|$)/

/**
 * The Qwen family (DashScope's compatible mode, and Qwen served elsewhere): turns thinking off with
 * `enable_thinking: false`, sets `temperature: 1.0` on models other than `*-max`/`*-plus` unless you
 * set one, and reads DashScope's error wording (`Range of input length` → `context_length`,
 * `data_inspection_failed` → `content_filter`, `Arrearage` → `quota_exceeded`). A `<think>` block
 * that still leaks into `content` (a server that ignores the flag) is split off by the SDK's
 * generic reasoning repair, which reports it in `fixes`.
 *
 * Every request patch here is a model quirk: it applies wherever Qwen runs (a server without
 * the `enable_thinking` switch ignores it, or refuses it once and the client drops it).
 *
 * @example
 * ```ts
 * import { createClient } from '@wildcall/sdk'
 * import { qwenAdapter } from '@wildcall/adapter-qwen'
 *
 * const client = createClient({
 *   baseURL: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
 *   model: 'qwen3-max',
 *   apiKey: process.env.DASHSCOPE_API_KEY,
 *   adapters: [qwenAdapter()],
 * })
 * ```
 */
export function qwenAdapter(options: QwenAdapterOptions = {}): Adapter {
  return {
    name: 'qwen',
    kind: 'model',
    readers: [hermesReader, xmlCallReader],
    match: { models: ['qwen'] },
    patchRequest(body, context) {
      if (!options.thinking && !THINKING_ONLY.test(context.modelId)) body.enable_thinking = false
      if (!MAX_OR_PLUS.test(context.modelId) && context.temperature === undefined && body.temperature === undefined) {
        body.temperature = 1.0
      }
    },
    classifyError(error, context) {
      const text = context.bodyText
      if (/data_inspection_failed|inappropriate content/i.test(text)) {
        return context.reclassify('content_filter', "DashScope's content inspection rejected the conversation (data_inspection_failed). Rephrase it; retrying the same input does not help.")
      }
      if (/Range of input length|input length should be/i.test(text)) {
        return context.reclassify('context_length', "The prompt is longer than the model's context window (DashScope: \"Range of input length\"). Shorten the history or pick a model with a larger window.")
      }
      if (/Arrearage|overdue-payment/i.test(text)) {
        return context.reclassify('quota_exceeded', 'The Alibaba Cloud account is in arrears (Arrearage). Top it up; retrying does not help.')
      }
      return undefined
    },
  }
}

