import { hermesPrompt, InvokeError, type Adapter, type ErrorContext, type FinishClass, type InvokeErrorType, type PromptForm } from '@wildcall/sdk'
import { glmReader, hermesReader } from '@wildcall/sdk/readers'

/** Options of {@link glmAdapter}. */
export interface GlmAdapterOptions {
  /** Leave GLM's thinking on (no `thinking: { type: 'disabled' }`). Default `false`. */
  thinking?: boolean
}

// Zhipu's finish reasons beside OpenAI's.
const FINISH: Record<string, FinishClass> = {
  sensitive: 'filtered',
  // The inference service failed mid-answer: a new attempt usually succeeds.
  network_error: 'server_error',
  // GLM-4.6+: the context window filled up while answering — the output is cut.
  model_context_window_exceeded: 'truncated',
}

// Zhipu (bigmodel.cn / z.ai) business error codes inside `error.code`.
const CODES: Record<string, [InvokeErrorType, string]> = {
  '1113': ['quota_exceeded', 'The Zhipu account has no balance or resource package left (1113). Recharge it; retrying does not help.'],
  '1261': ['context_length', "The prompt is over GLM's context window (1261 Prompt exceeds max length). Shorten the history."],
  '1301': ['content_filter', "Zhipu's safety review flagged the input or output as unsafe (1301). Rephrase the conversation."],
}

// Prompt mode (an endpoint that refuses tools): the Qwen-style tools block GLM's template renders,
// asking for GLM's own call markup (under `response_format`, for the JSON object it admits), which
// is also how past calls are written back (strings raw, other values as JSON, as the template does).
const prompt: PromptForm = {
  tools: (functions, name, json) => hermesPrompt.tools(functions, name, json).replace(/<tool_call>\n.*/s, '<tool_call>{function-name}\n<arg_key>{arg-key-1}</arg_key>\n<arg_value>{arg-value-1}</arg_value>\n...\n</tool_call>'),
  call: (name, args) => `<tool_call>${name}\n${Object.entries(args as object).map(([key, value]) => `<arg_key>${key}</arg_key>\n<arg_value>${typeof value === 'string' ? value : JSON.stringify(value)}</arg_value>\n`).join('')}</tool_call>`,
  results: hermesPrompt.results,
}

/**
 * GLM (Zhipu's bigmodel.cn and z.ai, and GLM served elsewhere): sends
 * `thinking: { type: 'disabled' }`, classifies Zhipu's finish reasons (`sensitive` →
 * `content_filter`, `network_error` → retryable `server_error`, `model_context_window_exceeded` →
 * `output_truncated`) and its business error codes (1113 balance → `quota_exceeded`, 1261 →
 * `context_length`, 1301 → `content_filter`). GLM's native `<tool_call>…<arg_key>` markup in
 * `content` is parsed by the SDK's generic repair. In prompt mode (an endpoint that refuses tools) it
 * asks for that markup and writes past calls in it.
 *
 * Every request patch here is a model quirk: it applies wherever GLM runs.
 *
 * @example
 * ```ts
 * import { createClient } from '@wildcall/sdk'
 * import { glmAdapter } from '@wildcall/adapter-glm'
 *
 * const client = createClient({
 *   baseURL: 'https://api.z.ai/api/paas/v4',
 *   model: 'glm-4.6',
 *   apiKey: process.env.ZAI_API_KEY,
 *   adapters: [glmAdapter()],
 * })
 * ```
 */
export function glmAdapter(options: GlmAdapterOptions = {}): Adapter {
  return {
    name: 'glm',
    kind: 'model',
    readers: [glmReader, hermesReader],
    prompt,
    match: { models: ['glm'] },
    patchRequest(body) {
      if (!options.thinking) body.thinking = { type: 'disabled' }
    },
    classifyFinish(reason) {
      const key = typeof reason === 'string' ? reason.toLowerCase() : ''
      // Own keys only: a reason such as "constructor" must not find Object.prototype's.
      return Object.hasOwn(FINISH, key) ? FINISH[key] : undefined
    },
    classifyError(error, context) {
      const code = /"code"\s*:\s*"?(\d{4})"?/.exec(context.bodyText)?.[1]
      const known = code === undefined ? undefined : CODES[code]
      if (!known) return undefined
      const [type, explanation] = known
      return context.reclassify(type, explanation)
    },
  }
}

