import { InvokeError, type Adapter, type ChatRequest, type ErrorContext, type InvokeErrorType } from '@wildcall/sdk'

/** OpenRouter's unified reasoning switch (`reasoning` in its chat-completions body). */
export interface OpenRouterReasoning {
  enabled?: boolean
  effort?: string
  max_tokens?: number
  [key: string]: unknown
}

const CONTEXT = /context[ _-]?(?:length|limit|window)|maximum context|prompt is too long|input token count|Range of input length|too many (?:input )?tokens|exceeds? the (?:available )?context/i
const CREDITS = /insufficient credits|requires more credits|can only afford|credit balance/i
const RATE = /rate[ -]?limit|too many requests|\b429\b/i

/**
 * OpenRouter as a provider (matched by the host `openrouter.ai`, whatever the model). It translates
 * what model adapters set — `thinking: { type: 'disabled' | 'enabled' }`, `enable_thinking`,
 * `reasoning_effort` — into OpenRouter's unified `reasoning: { enabled, effort }` and removes the
 * originals, so the Qwen, Claude or Gemini adapter's intent reaches whichever upstream serves the
 * model. It also reads OpenRouter's error bodies (`{ error: { code, message, metadata: { raw,
 * provider_name } } }`): 402 credits → `quota_exceeded`, moderation → `content_filter`, an
 * upstream 429 → `rate_limit`, a context-window complaint in `metadata.raw` → `context_length`.
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
    patchRequest(body) {
      translateReasoning(body)
    },
    classifyError(error, context) {
      return classifyOpenRouterError(error, context)
    },
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

function translateReasoning(body: ChatRequest): void {
  if (!('thinking' in body) && !('enable_thinking' in body) && !('reasoning_effort' in body)) return
  const thinking = isObject(body.thinking) ? body.thinking : undefined
  const effort = typeof body.reasoning_effort === 'string' ? body.reasoning_effort : undefined
  const enableThinking = typeof body.enable_thinking === 'boolean' ? body.enable_thinking : undefined
  delete body.thinking
  delete body.enable_thinking
  delete body.reasoning_effort
  const existing: OpenRouterReasoning = isObject(body.reasoning) ? body.reasoning : {}
  // "Off" wins over an effort: a model adapter that sets both (Hunyuan) means "off where possible".
  if (thinking?.type === 'disabled' || enableThinking === false || effort === 'none') {
    const { effort: _effort, max_tokens: _budget, ...rest } = existing
    body.reasoning = { ...rest, enabled: false }
    return
  }
  const next: OpenRouterReasoning = { ...existing }
  if (effort) next.effort = effort
  if (typeof thinking?.budget_tokens === 'number') next.max_tokens = thinking.budget_tokens
  if (effort || thinking?.type === 'enabled' || enableThinking === true || next.max_tokens !== undefined) next.enabled = true
  if (Object.keys(next).length > 0) body.reasoning = next
}

interface OpenRouterErrorBody {
  code?: unknown
  message?: unknown
  metadata?: { raw?: unknown; provider_name?: unknown; reasons?: unknown; flagged_input?: unknown }
}

function readError(body: unknown): OpenRouterErrorBody | undefined {
  const root = Array.isArray(body) ? body[0] : body
  return isObject(root) && isObject(root.error) ? (root.error as OpenRouterErrorBody) : undefined
}

/**
 * OpenRouter reports its own errors and the upstream provider's under one envelope; the useful
 * part (the provider's status and wording) is often only in `metadata.raw`.
 */
function classifyOpenRouterError(error: InvokeError, context: ErrorContext): InvokeError | undefined {
  const info = readError(context.body)
  if (!info) return undefined
  const metadata = isObject(info.metadata) ? info.metadata : {}
  const raw = typeof metadata.raw === 'string' ? metadata.raw : metadata.raw === undefined ? '' : JSON.stringify(metadata.raw)
  const message = typeof info.message === 'string' ? info.message : ''
  const text = `${message}\n${raw}`
  const code = typeof info.code === 'number' ? info.code : context.status
  const provider = typeof metadata.provider_name === 'string' ? ` (upstream: ${metadata.provider_name})` : ''
  const type: InvokeErrorType | undefined =
    Array.isArray(metadata.reasons) || metadata.flagged_input !== undefined ? 'content_filter'
    : code === 402 || CREDITS.test(text) ? 'quota_exceeded'
    : CONTEXT.test(text) ? 'context_length'
    : /free-models-per-day/i.test(text) ? 'quota_exceeded'
    : code === 429 || RATE.test(raw) ? 'rate_limit'
    : code === 408 ? 'timeout'
    : code === 401 || code === 403 ? 'auth_error'
    : code === 404 ? 'model_not_found'
    : code >= 500 ? 'server_error'
    : undefined
  if (!type) return undefined
  const hints: Partial<Record<InvokeErrorType, string>> = {
    content_filter: 'OpenRouter\'s moderation flagged the input. Rephrase it; retrying does not help.',
    quota_exceeded: /free-models-per-day/i.test(text) ? 'The daily limit of free-model requests is used up. Add credits or wait for tomorrow.' : 'The OpenRouter account has too few credits for this request. Add credits or lower maxTokens.',
    context_length: `The prompt is over the model's context window${provider}. Shorten the history or pick a model with a larger window.`,
    rate_limit: `The upstream provider is rate-limiting this model${provider}. Retrying after a pause usually helps.`,
    timeout: 'OpenRouter timed out waiting for the upstream provider. Retrying usually helps.',
    auth_error: 'OpenRouter rejected the API key. Check it.',
    model_not_found: 'OpenRouter has no endpoint for this model (or none that supports tool calling). Check the model slug.',
    server_error: `The upstream provider failed${provider}. Retrying usually helps.`,
  }
  return new InvokeError(type, `[openrouter] ${hints[type]} (${error.message.replace(/^\[wildcall\] /, '')})`, {
    status: context.status,
    rawResponse: error.rawResponse,
    cause: error,
    ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
  })
}
