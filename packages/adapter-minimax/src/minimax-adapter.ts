import { type Adapter, type ChatResponse, type InvokeErrorType } from '@wildcall/sdk'
import { xmlCallReader } from '@wildcall/sdk/readers'

/** Options of {@link minimaxAdapter}. */
export interface MiniMaxAdapterOptions {
  /** Leave thinking on for MiniMax-M3 (no `thinking: { type: 'disabled' }`). Default `false`. */
  thinking?: boolean
}

// MiniMax's own API (api.minimax.io, api.minimaxi.com): where its provider patch applies.
const MINIMAX_API = /(?:^|\.)minimaxi?\.(?:io|com|chat)(?::\d+)?$/
// MiniMax-M3 has a thinking switch; M2.x always thinks (interleaved) and has none.
const M3 = /^minimax-m3/

// MiniMax's `base_resp.status_code` values.
const CODES: Record<string, [InvokeErrorType, string]> = {
  '1002': ['rate_limit', 'MiniMax is rate-limiting this account (1002). Retrying after a pause usually helps.'],
  '1004': ['auth_error', 'MiniMax rejected the API key (1004). Check the key and the region of the base URL.'],
  '1008': ['quota_exceeded', 'The MiniMax account balance is used up (1008 insufficient balance). Recharge it; retrying does not help.'],
  '1026': ['content_filter', "MiniMax's safety check flagged the input (1026). Rephrase the conversation."],
  '1027': ['content_filter', "MiniMax's safety check flagged the output (1027). Rephrase the conversation."],
  '1039': ['context_length', "The prompt is over the model's token limit (1039). Shorten the history."],
}

/**
 * MiniMax (api.minimax.io and MiniMax models served elsewhere). Provider API, on MiniMax's hosts
 * only: `parallel_tool_calls` dropped (MiniMax's API rejects it; vLLM takes it). Model quirks,
 * wherever the model runs: `thinking: { type: 'disabled' }` to M3 models only, and the history below. With
 * `reasoning_split` MiniMax returns its thinking in `reasoning_details`; the adapter copies it into
 * `reasoning_content`, where the SDK reads reasoning. MiniMax's `base_resp.status_code` errors are
 * classified (1008 balance → `quota_exceeded`, 1026/1027 → `content_filter`, 1039 →
 * `context_length`, 1002 → `rate_limit`, 1004 → `auth_error`). The `<minimax:tool_call>` markup and
 * `<think>` blocks in `content` are handled by the SDK's generic repair. `result.messages` keeps
 * what MiniMax's interleaved thinking needs sent back: `content` as the model wrote it (its
 * `<think>` block included) and `reasoning_details` (both declared in `echoFields`).
 *
 * @example
 * ```ts
 * import { createClient } from '@wildcall/sdk'
 * import { minimaxAdapter } from '@wildcall/adapter-minimax'
 *
 * const client = createClient({
 *   baseURL: 'https://api.minimax.io/v1',
 *   model: 'MiniMax-M2',
 *   apiKey: process.env.MINIMAX_API_KEY,
 *   adapters: [minimaxAdapter()],
 * })
 * ```
 */
export function minimaxAdapter(options: MiniMaxAdapterOptions = {}): Adapter {
  return {
    name: 'minimax',
    kind: 'model',
    readers: [xmlCallReader],
    match: { models: ['minimax'] },
    // MiniMax's interleaved thinking needs the whole assistant turn back: its `<think>` block in
    // `content` as written, or its `reasoning_details` with `reasoning_split`.
    echoFields: { message: ['content', 'reasoning_details'] },
    patchRequest(body, context) {
      if (MINIMAX_API.test(context.host)) delete body.parallel_tool_calls
      if (M3.test(context.modelId) && !options.thinking) body.thinking = { type: 'disabled' }
    },
    fixResponse(response) {
      return copyReasoningDetails(response)
    },
    classifyError(error, context) {
      const code = /"status_code"\s*:\s*(\d{4})/.exec(context.bodyText)?.[1]
      const known = code === undefined ? undefined : CODES[code]
      if (!known) return undefined
      const [type, explanation] = known
      return context.reclassify(type, explanation)
    },
  }
}

function copyReasoningDetails(response: ChatResponse): ChatResponse {
  const choice = response.choices[0]
  const message = choice?.message
  if (!choice || typeof message !== 'object' || message === null) return response
  if (typeof message.reasoning_content === 'string' && message.reasoning_content !== '') return response
  const details = message.reasoning_details
  if (!Array.isArray(details)) return response
  const text = details
    .map((detail: unknown) => (typeof detail === 'object' && detail !== null && typeof (detail as { text?: unknown }).text === 'string' ? (detail as { text: string }).text : ''))
    .filter(Boolean)
    .join('\n\n')
  if (!text) return response
  return { ...response, choices: [{ ...choice, message: { ...message, reasoning_content: text } }, ...response.choices.slice(1)] }
}
