import type { Adapter, ChatResponse, FinishClass } from '@wildcall/sdk'

/** Options of {@link hunyuanAdapter}. */
export interface HunyuanAdapterOptions {
  /** Leave thinking on for `hy*` models (no `thinking` switch, no `reasoning_effort`). Default `false`. */
  thinking?: boolean
}

// Tencent's current naming (`hy-t1`, `hy3-…`): these take the thinking switch. `hyperclova` etc. do not match.
const HY = /^hy(?![a-z])/
const ANSWER_TAG = /<\/?answer>/g

/**
 * Tencent Hunyuan. Models named `hy*` (`hy-t1`, …) get `thinking: { type: 'disabled' }` and
 * `reasoning_effort: 'low'` (off where the model can turn thinking off, as little as possible where
 * it cannot). Older `hunyuan-*` names are matched too, for their responses, but get no request
 * patch: Hunyuan-T1 always thinks, and the `hunyuan-*` API documents no thinking switch, so sending
 * one would only risk a 400. Responses: the `<answer>…</answer>` wrapper Hunyuan's reasoning models
 * put around the answer is removed (the `<think>` block before it is left to the SDK's reasoning
 * repair), and the `sensitive` finish reason is `content_filter`.
 *
 * Every request patch here is a model quirk: it applies wherever Hunyuan runs.
 *
 * @example
 * ```ts
 * import { createClient } from '@wildcall/sdk'
 * import { hunyuanAdapter } from '@wildcall/adapter-hunyuan'
 *
 * const client = createClient({
 *   baseURL: 'https://api.hunyuan.cloud.tencent.com/v1',
 *   model: 'hy-t1',
 *   apiKey: process.env.HUNYUAN_API_KEY,
 *   adapters: [hunyuanAdapter()],
 * })
 * ```
 */
export function hunyuanAdapter(options: HunyuanAdapterOptions = {}): Adapter {
  return {
    name: 'hunyuan',
    kind: 'model',
    match: { models: [HY, 'hunyuan'] },
    patchRequest(body, context) {
      if (!HY.test(context.modelId) || options.thinking) return
      body.thinking = { type: 'disabled' }
      body.reasoning_effort = 'low'
    },
    fixResponse(response) {
      return unwrapAnswer(response)
    },
    classifyFinish(reason): FinishClass | undefined {
      return typeof reason === 'string' && reason.toLowerCase() === 'sensitive' ? 'filtered' : undefined
    },
  }
}

function unwrapAnswer(response: ChatResponse): ChatResponse {
  const choice = response.choices[0]
  const message = choice?.message
  if (!choice || typeof message !== 'object' || message === null || typeof message.content !== 'string') return response
  if (!message.content.includes('<answer>')) return response
  const content = message.content.replace(ANSWER_TAG, '').trim()
  return { ...response, choices: [{ ...choice, message: { ...message, content } }, ...response.choices.slice(1)] }
}
