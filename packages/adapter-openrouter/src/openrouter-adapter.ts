import type { Adapter, ChatRequest } from '@wildcall/sdk'

/** OpenRouter's unified reasoning switch (`reasoning` in its chat-completions body). */
export interface OpenRouterReasoning {
  enabled?: boolean
  effort?: string
  max_tokens?: number
  [key: string]: unknown
}

// Upstream complaints relayed in `metadata.raw` that the SDK's generic patterns miss: a token count
// over the window (vLLM, TGI), and a 429 that OpenRouter passes on as a 400 or a 5xx.
const UPSTREAM_CONTEXT = /too many (?:input )?tokens|context[ _-]?limit/i
const UPSTREAM_RATE = /rate[ -]?limit|too many requests|\b429\b/i

/**
 * OpenRouter as a provider (matched by the host `openrouter.ai`, whatever the model). It translates
 * what model adapters set — `thinking: { type: 'disabled' | 'enabled' }`, `enable_thinking`,
 * `reasoning_effort` — into OpenRouter's unified `reasoning: { enabled, effort }` and removes the
 * originals, so the Qwen, Claude or Gemini adapter's intent reaches whichever upstream serves the
 * model. The SDK already reads OpenRouter's error bodies (`{ error: { code, message, metadata: { raw,
 * provider_name } } }`, the upstream's wording in `metadata.raw` included); this adds what it cannot
 * know: moderation → `content_filter`, the daily free-model limit → `quota_exceeded`, upstream
 * wordings its patterns miss (a token-count complaint → `context_length`, a relayed 429 →
 * `rate_limit`), and the upstream provider's name in the message. `result.messages` keeps
 * `reasoning_details` (declared in `echoFields`), which OpenRouter wants sent back unchanged.
 *
 * Every patch here is the provider's: it applies on OpenRouter's host only.
 *
 * @example
 * ```ts
 * import { createClient } from '@wildcall/sdk'
 * import { claudeAdapter } from '@wildcall/adapter-claude'
 * import { openrouterAdapter } from '@wildcall/adapter-openrouter'
 *
 * const client = createClient({
 *   baseURL: 'https://openrouter.ai/api/v1',
 *   model: 'anthropic/claude-sonnet-4.5',
 *   apiKey: process.env.OPENROUTER_API_KEY,
 *   adapters: [claudeAdapter(), openrouterAdapter()],
 * })
 * ```
 */
export function openrouterAdapter(): Adapter {
  return {
    name: 'openrouter',
    kind: 'provider',
    match: { hosts: ['openrouter.ai'] },
    // OpenRouter asks for `reasoning_details` back unchanged, so reasoning continues across tool calls.
    echoFields: { message: ['reasoning_details'] },
    patchRequest(body) {
      translateReasoning(body)
    },
    classifyError(error, context) {
      const metadata = (context.body as { error?: { metadata?: unknown } } | undefined)?.error?.metadata
      if (!isObject(metadata)) return undefined
      // OpenRouter's own moderation answers 403, which alone would read as a rejected API key.
      if (Array.isArray(metadata.reasons) || metadata.flagged_input !== undefined) {
        return context.reclassify('content_filter', "OpenRouter's moderation flagged the input. Rephrase it; retrying does not help.")
      }
      // A 429 that no retry today can cure.
      if (/free-models-per-day/i.test(context.bodyText)) {
        return context.reclassify('quota_exceeded', 'The daily limit of free-model requests is used up. Add credits or wait for tomorrow.')
      }
      const name = metadata.provider_name
      const provider = typeof name === 'string' ? `The upstream provider ${name}` : 'The upstream provider'
      const raw = typeof metadata.raw === 'string' ? metadata.raw : (JSON.stringify(metadata.raw) ?? '')
      // The SDK reads `metadata.raw` too; these are upstream wordings its generic patterns miss.
      if (error.type === 'bad_request' && UPSTREAM_CONTEXT.test(raw)) {
        return context.reclassify('context_length', `${provider} says the prompt is over the model's context window: shorten it.`)
      }
      if ((error.type === 'bad_request' || error.type === 'server_error') && UPSTREAM_RATE.test(raw)) {
        return context.reclassify('rate_limit', `${provider} is rate-limiting this model: retrying after a pause helps.`)
      }
      // Otherwise the SDK's classification stands; only say which provider it came from.
      return typeof name === 'string' ? context.reclassify(error.type, `${provider} reported this error.`) : undefined
    },
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

function translateReasoning(body: ChatRequest): void {
  const { thinking, enable_thinking: enableThinking, reasoning_effort: effort } = body
  delete body.thinking
  delete body.enable_thinking
  delete body.reasoning_effort
  const { type, budget_tokens: budget } = isObject(thinking) ? thinking : {}
  const reasoning: OpenRouterReasoning = isObject(body.reasoning) ? { ...body.reasoning } : {}
  // "Off" wins over an effort: a model adapter that sets both (Hunyuan) means "off where possible".
  if (type === 'disabled' || enableThinking === false || effort === 'none') {
    delete reasoning.effort
    delete reasoning.max_tokens
    reasoning.enabled = false
  } else {
    const hasEffort = typeof effort === 'string' && effort !== ''
    if (hasEffort) reasoning.effort = effort
    if (typeof budget === 'number') reasoning.max_tokens = budget
    if (hasEffort || type === 'enabled' || enableThinking === true || reasoning.max_tokens !== undefined) reasoning.enabled = true
  }
  // A body that asked for nothing gets no `reasoning` object.
  if (Object.keys(reasoning).length > 0) body.reasoning = reasoning
}
