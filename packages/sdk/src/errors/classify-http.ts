import { parseRetryAfter, type HeadersLike } from '../retry/retry-after'
import { decodeXmlReferences } from '../repair/reading/decode-xml-references'
import { isRecord as isObject } from '../util/is-record'
import { InvokeError, type InvokeErrorType } from './invoke-error'

/** What a provider's error body says, whatever its shape. */
export interface ProviderErrorDetail {
  /** The human-readable message (the page title for an HTML page). */
  message?: string
  /** `error.code` (`context_length_exceeded`, `429`, `Arrearage`, …) as text. */
  code?: string
  /** `error.type` (`invalid_request_error`, `overloaded_error`, …). */
  type?: string
  /** Google's `error.status` (`RESOURCE_EXHAUSTED`, `INVALID_ARGUMENT`, …). */
  status?: string
  /** Groq's `failed_generation`: the model's raw output when its tool call could not be parsed. */
  failedGeneration?: string
  /** True when the body is an HTML page (a proxy's error page). */
  html?: boolean
}

type Json = Record<string, unknown>
const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined

function messageOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (Array.isArray(value)) {
    // FastAPI / pydantic validation errors: [{ loc, msg }]
    const parts = value.map((item) => (isObject(item) ? (text(item.msg) ?? text(item.message)) : text(item))).filter(Boolean)
    return parts.length > 0 ? parts.join('; ') : undefined
  }
  if (isObject(value)) return text(value.message) ?? text(value.msg)
  return undefined
}

/**
 * Reads the error out of any provider's error body: `{ error: { message, code, type } }` (OpenAI and
 * most), `{ error: "…" }` (Ollama, TGI), `[{ error: { code, message, status } }]` (Gemini),
 * `{ object: "error", message }` (vLLM), `{ code, message }` (DashScope), `{ detail }` (FastAPI),
 * `{ errors: [...] }`, `{ base_resp: { status_code, status_msg } }` (MiniMax), or a text / HTML page.
 *
 * @example
 * ```ts
 * readProviderError({ error: { message: 'Rate limit', code: 'rate_limit_exceeded' } }, '…')
 * // { message: 'Rate limit', code: 'rate_limit_exceeded' }
 * ```
 */
export function readProviderError(body: unknown, bodyText: string): ProviderErrorDetail {
  let root = body
  if (Array.isArray(root)) root = root.find(isObject)
  if (!isObject(root)) return typeof body === 'string' ? { message: body.trim() } : readTextError(bodyText)
  const detail: ProviderErrorDetail = {}
  let error: unknown = root.error ?? (Array.isArray(root.errors) ? root.errors[0] : undefined)
  if (typeof error === 'string') {
    detail.message = error
    error = root
  } else if (!isObject(error)) {
    error = root
  }
  const source = error as Json
  // Sets a field not set yet, to a value there is.
  const put = (key: keyof ProviderErrorDetail, value: string | undefined) => {
    if (value !== undefined) (detail as Json)[key] ??= value
  }
  // MiniMax-style status envelope: `{ base_resp: { status_code, status_msg } }`, 0 meaning success.
  const envelope = isObject(root.base_resp) && root.base_resp.status_code !== 0 ? root.base_resp : undefined
  if (envelope) {
    put('message', messageOf(envelope.status_msg))
    put('code', text(envelope.status_code))
  }
  detail.message ??= messageOf(source.message) ?? messageOf(source.msg) ?? messageOf(source.error_msg) ?? messageOf(source.detail) ?? messageOf(root.message) ?? messageOf(root.detail)
  const metadata = isObject(source.metadata) ? source.metadata : undefined
  // OpenRouter relays the upstream provider's own error here: its wording decides the type.
  const upstream = metadata ? text(metadata.raw) : undefined
  if (upstream && upstream !== detail.message) detail.message = detail.message ? `${detail.message} (${upstream})` : upstream
  put('code', text(source.code) ?? text(source.error_code) ?? text(root.code))
  put('type', text(source.type) ?? text(source.error_type) ?? text(root.type))
  put('status', text(source.status))
  if (typeof source.failed_generation === 'string' && source.failed_generation !== '') detail.failedGeneration = source.failed_generation
  if (detail.message !== undefined) detail.message = detail.message.trim()
  return detail
}

function readTextError(bodyText: string): ProviderErrorDetail {
  const trimmed = bodyText.trim()
  if (trimmed === '') return {}
  if (/^<(?:!doctype|html|head|body|\?xml)|<\/(?:html|body|title)>/i.test(trimmed.slice(0, 2_000))) {
    const plain = elementText(trimmed, 'title') ?? elementText(trimmed, 'h1') ?? pageText(trimmed)
    return { message: decodeXmlReferences(plain.replace(/&nbsp;/g, ' ')).replace(/\s+/g, ' ').trim(), html: true }
  }
  return { message: trimmed }
}

// Found with indexOf and fixed-length regexes, not `<h1[^>]*>([\s\S]*?)<\/h1>`: on a page of
// thousands of unclosed `<h1` (or `<title>`, `<style`, `<a`) such a regex scanned to the end from each one.
const SKIPPED = /<(script|style)/gi

/** The text inside the first `<tag …>…</tag>` of a page (as the regex above would find it), or `undefined`. */
function elementText(page: string, tag: 'title' | 'h1'): string | undefined {
  // regex-bounded: `<` and a literal tag name (title, h1), no quantifier (test: packages/sdk/src/linear-time.test.ts)
  const opener = new RegExp(`<${tag}`, 'gi')
  // Only the first opener can match: a later one has no more `>` and no more closers after it.
  if (!opener.test(page)) return undefined
  const open = page.indexOf('>', opener.lastIndex)
  if (open < 0) return undefined
  const close = closerAfter(page, tag, open + 1)
  return close < 0 ? undefined : page.slice(open + 1, close)
}

function closerAfter(page: string, tag: string, from: number): number {
  // regex-bounded: a literal closing tag (title, h1, script, style), no quantifier (test: packages/sdk/src/linear-time.test.ts)
  const closer = new RegExp(`</${tag}>`, 'gi')
  closer.lastIndex = from
  return closer.test(page) ? closer.lastIndex - tag.length - 3 : -1
}

/** A page's text: scripts and styles dropped, every tag a space. */
function pageText(page: string): string {
  let out = ''
  let from = 0
  // A script or style without a closer keeps its text (as before), and so do all after it.
  const unclosed = new Set<string>()
  SKIPPED.lastIndex = 0
  for (let found = SKIPPED.exec(page); found; found = SKIPPED.exec(page)) {
    const tag = found[1]!.toLowerCase()
    if (unclosed.has(tag)) continue
    const close = closerAfter(page, tag, SKIPPED.lastIndex)
    if (close < 0) {
      unclosed.add(tag)
      continue
    }
    out += `${page.slice(from, found.index)} `
    from = close + tag.length + 3
    SKIPPED.lastIndex = from
  }
  return stripTags(out + page.slice(from))
}

/** Every `<…>` as a space; a `<` with no `>` after it stays text, as `/<[^>]+>/g` left it. */
function stripTags(text: string): string {
  let out = ''
  let from = 0
  for (let open = text.indexOf('<'); open >= 0; open = text.indexOf('<', open + 1)) {
    const close = text.indexOf('>', open + 1)
    // No `>` after this `<`: none after any later `<` either.
    if (close < 0) break
    if (close === open + 1) continue
    out += `${text.slice(from, open)} `
    from = close + 1
    open = close
  }
  return out + text.slice(from)
}

// The prompt is over the model's window, in every provider's wording: OpenAI/DeepSeek/vLLM/Groq
// (`context_length_exceeded`, "maximum context length"), Anthropic ("prompt is too long"), Gemini
// ("input token count (N) exceeds the maximum"), DashScope ("Range of input length should be"),
// llama.cpp ("exceeds the available context size"), Kimi ("exceeded model token limit"), Grok
// ("maximum prompt length"), MiniMax ("context window exceeds limit"); SGLang / vLLM forks ("The input
// (5000 tokens) is longer than the model's context length"), TGI / Together ("`inputs` must have less
// than 4096 tokens", "`inputs` tokens + `max_new_tokens` must be <= 8193"), Cohere ("total number of
// tokens in the prompt cannot exceed 4081") and Chinese wordings (Zhipu, DashScope, Moonshot, Baidu:
// "Prompt 超长", "输入长度超过限制", "超出上下文长度"), one alternative each, in that order. One regex
// (only ever tested): separate ones cost the bundle their separators.
// regex-bounded: the `prompt … exceeds … maximum` alternative's two gaps are at most 40 characters each, so an attempt reads ~120 characters (test: packages/sdk/src/linear-time.test.ts)
const CONTEXT_WORDS = /context[\s_-]?(?:length|window|size)[\s_-]?(?:exceeded|exceeds|is exceeded|limit exceeded)|maximum (?:context|prompt|input) (?:length|window|size)|exceed(?:s|ed|ing)?[\s_](?:the[\s_])?(?:available[\s_]|maximum[\s_]|max[\s_]|model'?s?[\s_])?(?:context|token[\s_]limit)|\b(?:prompt|input|messages?)(?: is| are)? too long|\b(?:prompt|input)\b(?: token count| tokens?| length)?[^.]{1,40}?\b(?:exceeds?|exceeded|exceeding|is greater than|is larger than|is more than)\b[^.]{1,40}?\b(?:maximum|max|limit|allowed)\b|range of input length should be|longer than (?:the )?(?:model'?s? )?context (?:length|window|size)|\binputs?`?\s+(?:must (?:have|be) (?:less|fewer) than \d+ tokens|tokens \+ `?max_new_tokens`? must be <=)|tokens in the (?:prompt|input|request) (?:cannot|can't|must not|should not|may not) exceed|超长|(?:输入|上下文|提示词?|prompt)[^。,，]{0,10}(?:长度)?超(?:过|出)|超出[^。,，]{0,6}(?:上下文|最大长度|长度限制)/i

// A safety or moderation system refused the request itself (not the answer: that is a finish reason).
const FILTER_CODES = /^(?:content_filter|content_policy_violation|content_policy|moderation(?:_blocked)?|flagged|safety|data_inspection_failed|sensitive(?:_content)?|prohibited_content|responsible_ai_policy_violation|content_blocked)$/i
// `violat\w{0,10}` (violates, violation…): an unbounded `\w*` ran to the end of every long word.
const FILTER_WORDS = /content (?:management )?polic(?:y|ies)|content filter|flagged by (?:the )?(?:moderation|safety)|requires moderation|inappropriate content|safety (?:system|filters?)|violat\w{0,10} (?:our|the) (?:usage|content|safety) polic|敏感|不安全|内容审核/i

const QUOTA_CODES = /^(?:insufficient_quota|exceeded_current_quota(?:_error)?|insufficient_balance|insufficient_credits|billing_hard_limit_reached|billing_not_active|arrearage|payment_required)$/i
// Chinese wordings too (Zhipu's 1113, SiliconFlow, Baidu): "余额不足" insufficient balance, "欠费" in
// arrears, "请充值" please recharge.
const QUOTA_WORDS = /insufficient[\s_](?:balance|credits?|funds|quota)|credit balance is too low|out of credits|balance is (?:not enough|insufficient)|billing (?:hard )?limit|account (?:is )?(?:in arrears|overdue)|check your plan and billing|余额不足|欠费|请充值/i
// A limit that lasts: "Monthly usage limit reached. Resets in 16 days.", a reset hours or days away
// (not "Rate limit reached … try again in 20s").
// regex-bounded: the gap before the unit is at most 20 characters (test: packages/sdk/src/errors/classify-http.test.ts)
const LIMIT_WORDS = /usage limit|(?:daily|weekly|monthly) (?:\w+ )?(?:limit|quota)|quota (?:is )?(?:exhausted|used up)|(?:resets?|try again|retry) (?:in|after) [^.]{0,20}?\b(?:hours?|days?|weeks?|months?)\b/i
const AUTH_CODES = /^(?:invalid_api_key|authentication_error|permission_error|permission_denied|unauthenticated|unauthorized|invalid_authentication|access_denied|forbidden)$/i
const AUTH_WORDS = /(?:invalid|incorrect|missing|expired|revoked) (?:api[\s_-]?key|authentication|token|bearer)|api[\s_-]?key (?:is )?(?:not valid|invalid|missing|expired|required)|unauthorized|unauthenticated|authentication (?:failed|required)/i
const MODEL_CODES = /^(?:model_not_found|not_found_error|model_not_available|modelnotfound|not_found)$/i
// regex-bounded: each gap after `model` is at most 80 characters, so an attempt reads ~130 characters (test: packages/sdk/src/linear-time.test.ts)
const MODEL_WORDS = /\bno models? (?:are |is )?loaded|\bmodel\b[^.]{1,80}?\b(?:has been |was )?(?:decommissioned|retired|deprecated and (?:removed|no longer))|\bmodel\b[^.]{1,80}?\b(?:does ?n[o']t exist|not exists?|not found|not available|is not a valid model)|(?:unknown|invalid|unsupported) model\b|\bno such model/i
const RATE_CODES = /^(?:rate_limit_exceeded|rate_limit_error|rate_limited|resource_exhausted|too_many_requests|throttling|requests_limit_exceeded)$/i
const RATE_WORDS = /rate[\s_-]?limit|too many requests|requests per (?:minute|second|day)|tokens per minute|\b[rt]pm\b|throttl/i
const SERVER_CODES = /^(?:server_error|api_error|internal_error|internal_server_error|internal|overloaded_error|overloaded|unavailable|service_unavailable|deadline_exceeded|bad_gateway|gateway_timeout)$/i
const SERVER_WORDS = /overloaded|loading model|model is (?:currently )?loading|(?:service|server) (?:is )?(?:temporarily )?unavailable|internal (?:server )?error|bad gateway|gateway time-?out|upstream (?:error|connect)|try again later/i
// A refusal of tools themselves, in any server's words: the model or server "does not support tools /
// function calling" (Ollama), tools "are not supported / enabled", or tools or tool choice "require" a
// server flag (llama.cpp's `--jinja`, vLLM's `--enable-auto-tool-choice`). `tools[0]…` (a schema
// problem), `parallel_tool_calls` and a refused tool_choice form ("tool choice 'required' is not supported") are not.
// regex-bounded: each gap is at most 40 characters and cannot cross a full stop, so an attempt reads ~130 characters (test: packages/sdk/src/linear-time.test.ts)
const REFUSES_TOOLS = /(?:does ?n[o']t|cannot) (?:support|accept) (?:the )?(?:tools?|function[ _-]?calling)(?![\w[]| ?choice)|\b(?:tools?|function[ _-]?calling)(?![\w[]| ?choice)[^.]{1,40}?\bnot (?:supported|enabled)|(?:\b(?:tools?|function[ _-]?calling)(?![\w[]| ?choice)|tool choice)[^.]{1,40}?\brequires?\b[^.]{0,40}?--/i
const BAD_REQUEST_CODES = /^(?:invalid_request_error|invalid_argument|failed_precondition|bad_request|invalid_parameter|invalidparameter|tool_use_failed|validation_error|unprocessable_entity)$/i

/** The HTTP status that a 2xx `{ error }` body means, from its own code, status or type. */
function impliedStatus(detail: ProviderErrorDetail, has: (pattern: RegExp) => boolean): number | undefined {
  // A numeric code from 400 to 599.
  if (/^[45]\d\d$/.test(detail.code ?? '')) return Number(detail.code)
  if (has(AUTH_CODES)) return 401
  if (has(MODEL_CODES)) return 404
  if (has(RATE_CODES)) return 429
  if (has(SERVER_CODES)) return 500
  if (has(BAD_REQUEST_CODES)) return 400
  return undefined
}

interface Verdict {
  type: InvokeErrorType
  /** A refusal of `tools` (see {@link refusesTools}). */
  tools?: true
  /** What happened, in a few words. */
  what: string
  /** What the caller should do. */
  advice: string
  /** The server's delay stays on the error (a limit that resets). */
  wait?: boolean
}

const verdict = (type: InvokeErrorType, what: string, advice: string, wait?: boolean): Verdict => ({ type, what, advice, wait })

/** A long delay in its largest unit, rounded up: `16 d`, `3 h`, `2 min`. */
const spell = (ms: number): string => (ms >= 864e5 ? `${Math.ceil(ms / 864e5)} d` : ms >= 36e5 ? `${Math.ceil(ms / 36e5)} h` : `${Math.ceil(ms / 6e4)} min`)

function decide(status: number, message: string, has: (pattern: RegExp) => boolean, haystack: string, retryAfterMs: number | undefined): Verdict {
  if (CONTEXT_WORDS.test(haystack)) {
    return verdict('context_length', "the prompt is longer than the model's context window", 'Shorten the conversation (drop old messages, trim tool results) or use a model with a larger window; retrying will not help.')
  }
  // One request bigger than the whole per-minute budget ("Request too large … (TPM): Limit 12000,
  // Requested 15000", OpenAI and Groq, at 429 or 413) fails the same way on every retry.
  const budget = /\blimit:? (\d+),(?: used:? \d+,)? requested:? (\d+)/i.exec(message)
  if (status >= 400 && status < 500 && budget && Number(budget[2]) > Number(budget[1])) {
    return verdict('bad_request', "this one request is larger than the provider's per-minute token limit", 'Retrying will not help: shorten the conversation or lower maxTokens, or ask your provider for a higher tier.')
  }
  // Quota before rate: OpenAI sends `insufficient_quota` with 429, and retrying never helps it. A
  // "quota" message that also says when to retry (Gemini's per-minute quotas) is a rate limit,
  // unless its limit is 0 (Gemini: the plan has no quota at all for this model). A 429 whose words
  // say a usage window is spent ("Monthly usage limit reached. Resets in 16 days") keeps its delay.
  // A long delay alone is still a rate limit: the retry loop does not wait it out (`maxRetryAfterMs`).
  if (status === 429 && LIMIT_WORDS.test(message)) {
    return verdict('quota_exceeded', `a usage limit was reached${retryAfterMs === undefined ? '' : `; it resets in ${spell(retryAfterMs)}`}`, 'Wait for the reset or use another API key; retrying now will not help.', true)
  }
  if (status === 402 || has(QUOTA_CODES) || (QUOTA_WORDS.test(message) && (retryAfterMs === undefined || /\blimit: 0\b/.test(message)))) {
    return verdict('quota_exceeded', 'the account is out of quota, credits or balance', 'Top up or raise your spending limit, or use another API key; retrying will not help.')
  }
  if (status < 500 && (has(FILTER_CODES) || FILTER_WORDS.test(message))) {
    return verdict('content_filter', "the provider's safety or moderation system refused the conversation", 'Rephrase or remove the content it objects to; retrying will not help.')
  }
  if (status === 401 || status === 403 || (status < 500 && (has(AUTH_CODES) || AUTH_WORDS.test(message)))) {
    return verdict('auth_error', 'the API key was rejected or has no access', "Check apiKey (it must belong to this baseURL's provider) and that your account may use this model.")
  }
  if (status >= 400 && REFUSES_TOOLS.test(message)) {
    // Whatever the status (Ollama says 400 "api_error", llama.cpp 500): the same request fails again.
    const flags = message.match(/--[a-z][\w-]*/gi)
    return {
      ...verdict('bad_request', 'the endpoint does not accept tools', `Retrying will not help: set toolMode: 'prompt' to describe the tools in the prompt, or ${flags ? `start the server with ${flags.join(' ')}` : 'use a model whose chat template supports tools'}.`),
      tools: true,
    }
  }
  if (MODEL_WORDS.test(message) || (status < 500 && has(MODEL_CODES))) {
    return verdict('model_not_found', 'the model is not available at this endpoint', 'Check the model name as your provider spells it (for a local server: that the model is loaded).')
  }
  if (status === 404) {
    return verdict('model_not_found', 'the model or the endpoint was not found', 'Check the model name and that baseURL points at the API root (often ending in /v1).')
  }
  if (status === 429 || has(RATE_CODES) || (status < 500 && status !== 413 && RATE_WORDS.test(message))) {
    return verdict('rate_limit', 'the provider is rate limiting requests', 'wildcall retries with backoff; lower your request rate or ask your provider for higher limits.')
  }
  if (status === 408) {
    return verdict('timeout', 'the server timed out waiting for the request', 'Retrying usually helps.')
  }
  if (status >= 500 || has(SERVER_CODES) || (status < 400 && SERVER_WORDS.test(message))) {
    return verdict(
      'server_error',
      /loading/i.test(message) ? 'the model is still loading' : status === 529 || /overloaded/i.test(haystack) ? 'the provider is overloaded' : 'the provider failed',
      "Retrying usually helps; if it persists, check the provider's status page.",
    )
  }
  if (status === 409 || status === 425) {
    return verdict('unknown', 'the server asked to try again later', 'Retrying usually helps.')
  }
  if (status >= 400) {
    return verdict('bad_request', 'the provider rejected the request', 'Retrying will not help: check the request options (this model may need an adapter, or refuse one of them).')
  }
  if (status >= 200 && status < 300) {
    return verdict('invalid_schema', 'the server answered with an error body instead of a completion', 'Retrying may help; if it persists, check that baseURL points at an OpenAI-compatible API.')
  }
  return verdict('unknown', `unexpected HTTP status ${status}`, 'Check that baseURL points at an OpenAI-compatible API (a redirect or proxy may be in the way).')
}

// A quote inside the quoted words (vLLM's `"auto" tool choice requires …`) becomes `'`: never `""auto"`.
function quote(value: string, limit = 300): string {
  const flat = value.replace(/\s+/g, ' ').replace(/"/g, "'").trim()
  return flat.length > limit ? `${flat.slice(0, limit)}…` : flat
}

/**
 * Classifies a failed HTTP response (or a 2xx carrying `{ error }`) into an {@link InvokeError},
 * from its status, its body and its headers. The message says what happened and what to do and
 * quotes the provider's own words. `bodyText` must already be redacted; `body` is its parse (or
 * `undefined` when it is not JSON). A 429 whose words say a usage window is spent ("Monthly usage
 * limit reached. Resets in 16 days") is `quota_exceeded` and keeps the delay; any other 429 is a
 * `rate_limit`, however long its delay (the retry loop does not wait beyond `maxRetryAfterMs`).
 *
 * @example
 * ```ts
 * const error = classifyHttpError(429, new Headers({ 'retry-after': '2' }), text, JSON.parse(text))
 * error.type         // 'rate_limit'
 * error.retryAfterMs // 2000
 * ```
 */
export function classifyHttpError(status: number, headers: HeadersLike | undefined, bodyText: string, body: unknown, statusText?: string): InvokeError {
  const detail = readProviderError(body, bodyText)
  const ok = status >= 200 && status < 300
  // The body's own code, type and status (`rate_limit_exceeded`, `invalid_request_error`, `RESOURCE_EXHAUSTED`).
  const names = [detail.code, detail.type, detail.status].filter((value): value is string => value !== undefined)
  const has = (pattern: RegExp) => names.some((name) => pattern.test(name))
  const effective = ok ? (impliedStatus(detail, has) ?? status) : status
  const haystack = [...names, detail.message, body === undefined ? '' : bodyText.slice(0, 20_000)].filter(Boolean).join(' \n ')
  // The whole body too: Google puts the delay in a RetryInfo detail (`"retryDelay": "37s"`), not the message.
  const hinted = parseRetryAfter(headers, [detail.message, bodyText.slice(0, 5_000)].filter(Boolean).join('\n'))
  const verdict = decide(effective, detail.message ?? '', has, haystack, hinted)
  const retryAfterMs = verdict.wait || verdict.type === 'rate_limit' || verdict.type === 'server_error' ? hinted : undefined
  // The reason phrase as the server sent it (HTTP/2 sends none).
  const label = ok ? `HTTP ${status} with an error body` : `HTTP ${status}${statusText?.trim() ? ` ${statusText.trim()}` : ''}`
  const labels = [detail.code, detail.type].filter((value) => value !== undefined && value !== detail.message)
  const said = `${detail.message ? `: "${quote(detail.message)}"` : ''}${labels.length > 0 ? ` (${quote(labels.join(', '), 80)})` : ''}`
  const page = detail.html ? ' The body is an HTML page, probably from a proxy in front of the API.' : ''
  const wait = retryAfterMs !== undefined ? ` The server asks to wait ${retryAfterMs} ms.` : ''
  const error = new InvokeError(verdict.type, `${label}, ${verdict.what}${said}.${page} ${verdict.advice}${wait}`, {
    status,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    rawResponse: body === undefined ? bodyText : body,
  })
  if (verdict.tools) refusals.add(error)
  return error
}

const refusals = new WeakSet<object>()

/**
 * Whether `error` is an endpoint's refusal of `tools` themselves (the model has no tool template,
 * the server was started without its tool flags): what makes `toolMode: 'auto'` switch to prompt mode.
 *
 * @example
 * ```ts
 * refusesTools(classifyHttpError(500, undefined, text, { error: { code: 500, message: 'tools param requires --jinja flag' } })) // true
 * ```
 */
export const refusesTools = (error: unknown): boolean => refusals.has(error as object)
