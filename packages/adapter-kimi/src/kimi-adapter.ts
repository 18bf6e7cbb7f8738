import { InvokeError, patchHistoryReasoning, type Adapter, type ChatResponse, type ErrorContext, type InvokeErrorType } from '@wildcall/sdk'
import { specialTokenReader } from '@wildcall/sdk/readers'

/** Options of {@link kimiAdapter}. */
export interface KimiAdapterOptions {
  /** Leave thinking on for Kimi models that can switch it (no `thinking: { type: 'disabled' }`). Default `false`. */
  thinking?: boolean
}

const K3 = /^kimi-k3/
// The coding models (`kimi-for-coding`, `kimi-k2-code…`) take no thinking switch.
const CODE = /cod(?:e|ing)/
const SECTION_BEGIN = '<|tool_calls_section_begin|>'
const SECTION_END = '<|tool_calls_section_end|>'

/**
 * Kimi (Moonshot's API, and Kimi served elsewhere). `kimi-k3*` takes only `tool_choice: 'required'`
 * (a named choice becomes `'required'`) and no `parallel_tool_calls`; other Kimi models except the
 * coding ones get `thinking: { type: 'disabled' }`. When a server's reasoning parser swallows Kimi's
 * tool-call section into `reasoning_content` (Kimi closes its thinking before that section, so it is
 * the answer, not a draft), the section is moved back into `content`, where the SDK parses it.
 * Moonshot's error wording: `exceeded model token limit` → `context_length`, a suspended account
 * (`exceeded_current_quota_error`) → `quota_exceeded`, `engine_overloaded_error` → `server_error`,
 * a high-risk rejection → `content_filter`.
 *
 * History: `reasoning_content` is declared in `echoFields`, so `result.messages` carries it. Where
 * thinking is on (the `thinking` option, `kimi-k3*`), Moonshot refuses a tool-calling assistant turn
 * without it, so one written while thinking was off gets `reasoning_content: ''`; where the adapter
 * turns thinking off, it is dropped from the copies sent. Your `messages` array is never modified.
 *
 * Every request patch here is a model quirk (Kimi K3's thinking takes only a `'required'` choice,
 * wherever it runs).
 *
 * @example
 * ```ts
 * import { createClient } from '@wildcall/sdk'
 * import { kimiAdapter } from '@wildcall/adapter-kimi'
 *
 * const client = createClient({
 *   baseURL: 'https://api.moonshot.ai/v1',
 *   model: 'kimi-k2-0905-preview',
 *   apiKey: process.env.MOONSHOT_API_KEY,
 *   adapters: [kimiAdapter()],
 * })
 * ```
 */
export function kimiAdapter(options: KimiAdapterOptions = {}): Adapter {
  return {
    name: 'kimi',
    kind: 'model',
    readers: [specialTokenReader],
    match: { models: ['kimi'] },
    echoFields: { message: ['reasoning_content'] },
    patchRequest(body, context) {
      if (K3.test(context.modelId)) {
        if (typeof body.tool_choice === 'object' && body.tool_choice !== null) body.tool_choice = 'required'
        delete body.parallel_tool_calls
        body.messages = patchHistoryReasoning(body.messages, true)
        return
      }
      if (CODE.test(context.modelId)) return
      if (!options.thinking) body.thinking = { type: 'disabled' }
      body.messages = patchHistoryReasoning(body.messages, options.thinking === true)
    },
    fixResponse(response) {
      return moveCallSection(response)
    },
    classifyError(error, context) {
      const text = context.bodyText
      if (/exceeded model token limit|context_length_exceeded/i.test(text)) {
        return context.reclassify('context_length', "The prompt is over Kimi's context window (\"exceeded model token limit\"). Shorten the history.")
      }
      if (/exceeded_current_quota_error|is suspended/i.test(text)) {
        return context.reclassify('quota_exceeded', 'The Moonshot account is out of balance or suspended (exceeded_current_quota_error). Recharge it; retrying does not help.')
      }
      if (/engine_overloaded_error/i.test(text)) {
        return context.reclassify('server_error', 'Moonshot is overloaded (engine_overloaded_error). Retrying after a pause usually helps.')
      }
      if (/considered high risk|"type"\s*:\s*"content_filter"/i.test(text)) {
        return context.reclassify('content_filter', "Moonshot's content filter rejected the conversation as high risk. Rephrase it; retrying does not help.")
      }
      return undefined
    },
  }
}

function moveCallSection(response: ChatResponse): ChatResponse {
  const choice = response.choices[0]
  const message = choice?.message
  if (!choice || typeof message !== 'object' || message === null) return response
  const reasoning = message.reasoning_content
  if (typeof reasoning !== 'string' || (message.tool_calls?.length ?? 0) > 0) return response
  const content = typeof message.content === 'string' ? message.content : ''
  if (content.includes(SECTION_BEGIN)) return response
  const start = reasoning.indexOf(SECTION_BEGIN)
  if (start < 0) return response
  const endAt = reasoning.indexOf(SECTION_END, start)
  const end = endAt < 0 ? reasoning.length : endAt + SECTION_END.length
  return {
    ...response,
    choices: [
      {
        ...choice,
        message: {
          ...message,
          reasoning_content: (reasoning.slice(0, start) + reasoning.slice(end)).trim(),
          content: `${content}${content ? '\n' : ''}${reasoning.slice(start, end)}`,
        },
      },
      ...response.choices.slice(1),
    ],
  }
}

