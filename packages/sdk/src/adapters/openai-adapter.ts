import type { FinishClass } from '../errors/classify-finish'
import type { Adapter } from './types'

// Matched on the normalised name (dots removed): 'gpt-5.2-2026-01-15' arrives as 'gpt-52-2026-01-15'.
// The o-series (o1, o3, o3-mini, o4-mini, …) is OpenAI's too.
const GPT = /^(?:gpt-|chatgpt-|o\d)/
/** o-series reasoning models reject `parallel_tool_calls`, any `temperature` and `max_tokens`. */
const O_SERIES = /^o\d/
// Open-weight gpt-oss models are served by vLLM, Groq, … with their own reasoning knobs: not ours to patch.
const GPT_OSS = /^gpt-oss/
const GPT_5 = /^gpt-5/
const DATE = '(?:-\\d{4}-\\d{2}-\\d{2})?'
/** gpt-5.1 and gpt-5.2 (and their dated snapshots) accept `reasoning_effort: 'none'`. */
const EFFORT_NONE = new RegExp(`^gpt-5[12]${DATE}$`)
/** The first gpt-5 models go no lower than `'minimal'`. */
const EFFORT_MINIMAL = new RegExp(`^gpt-5(?:-mini|-nano)?${DATE}$`)
/** The non-reasoning chat snapshots reject both `reasoning_effort` and a custom `temperature`. */
const CHAT_LATEST = /chat-latest$/

const FINISH: Readonly<Record<string, FinishClass>> = {
  stop: 'ok',
  tool_calls: 'ok',
  function_call: 'ok',
  length: 'truncated',
  content_filter: 'filtered',
}

/** What {@link openaiAdapter} does to one model's requests: `[gpt5, oSeries, chatLatest, effort]`, `undefined` for a model not its own. */
type RequestPlan = [gpt5: boolean, oSeries: boolean, chatLatest: boolean, effort: 'none' | 'minimal' | undefined]

const planRequest = (id: string): RequestPlan | undefined =>
  GPT.test(id) && !GPT_OSS.test(id) ? [GPT_5.test(id), O_SERIES.test(id), CHAT_LATEST.test(id), EFFORT_NONE.test(id) ? 'none' : EFFORT_MINIMAL.test(id) ? 'minimal' : undefined] : undefined

/**
 * The default adapter, always last in the chain. GPT family only (other models pass untouched):
 * `gpt-5*` gets `verbosity: 'low'`; `gpt-5.1`/`gpt-5.2` get `reasoning_effort: 'none'`, `gpt-5`,
 * `gpt-5-mini`, `gpt-5-nano` get `'minimal'` (dated snapshots too); `*chat-latest` loses
 * `reasoning_effort` and `temperature`; every other GPT (4.x, 5.4+, codex, pro) loses
 * `reasoning_effort`, which they reject or do not need. A value an earlier adapter already set for
 * `verbosity` or `reasoning_effort` is kept, and no effort is added when a provider adapter already
 * wrote a `reasoning` object. Knows OpenAI's own finish reasons; others defer to the default.
 *
 * @example
 * ```ts
 * const adapter = openaiAdapter()
 * const body = { model: 'gpt-5.2', messages: [] }
 * adapter.patchRequest?.(body, context) // body now has reasoning_effort: 'none', verbosity: 'low'
 * ```
 */
export function openaiAdapter(): Adapter {
  // What a request of a model gets depends on the model alone: decided once per model, not per request.
  let planned: string | undefined
  let plan: RequestPlan | undefined
  return {
    name: 'openai',
    kind: 'model',
    // It runs for every model (always last, for the standard finish reasons), but it *matches* — and
    // so appears in `result.adapters` — only the GPT family it patches.
    match: (context) => GPT.test(context.modelId) && !GPT_OSS.test(context.modelId),
    patchRequest(body, context) {
      const id = context.modelId
      if (id !== planned) plan = planRequest((planned = id))
      if (!plan) return
      const [gpt5, oSeries, chatLatest, effort] = plan
      // Reasoning models count output tokens as `max_completion_tokens` and refuse `max_tokens`.
      if ((gpt5 || oSeries) && body.max_tokens !== undefined && body.max_completion_tokens === undefined) {
        body.max_completion_tokens = body.max_tokens
        delete body.max_tokens
      }
      if (oSeries) {
        delete body.parallel_tool_calls
        delete body.temperature
        return
      }
      if (gpt5 && body.verbosity === undefined) body.verbosity = 'low'
      if (chatLatest) {
        delete body.reasoning_effort
        delete body.temperature
        return
      }
      // Only a field that is there is deleted: deleting an absent one still costs a runtime call, every step.
      if (effort === undefined) {
        if (body.reasoning_effort !== undefined) delete body.reasoning_effort
      } else if (body.reasoning_effort === undefined && body.reasoning === undefined) body.reasoning_effort = effort
    },
    classifyFinish(reason) {
      if (typeof reason !== 'string') return undefined
      const key = reason.trim().toLowerCase()
      return Object.hasOwn(FINISH, key) ? FINISH[key] : undefined
    },
  }
}
