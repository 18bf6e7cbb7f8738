// The attempt loop of a step: send, read, adapt to a refusal and send again, recover a failed
// generation, complete; what a failed attempt leaves on its error (evidence, usage, a reask).

// Imports in the order that bundles smallest: module order moves the gzip size (node scripts/check-size.mjs).
import { completeStep } from './complete-step'
import { refusesTools } from '../errors/classify-http'
import { errorMessage, InvokeError, isAbortError, isInvokeError } from '../errors/invoke-error'
import { isPlainObject } from '../repair/coerce'
import { isRecord } from '../util/is-record'
import { abortReason } from '../retry/with-retry'
import { isReaskable, reaskMessages } from './reask'
import { normalizeUsage, sumUsage } from './normalize-usage'
import { noteLearned } from './profile'
import { adaptToRejection, patchBody } from './prepare-step'
import { refusedConstraint } from './adapt-to-rejected-field'
import { sendRequest, type SentRequest } from './send-request'
import { emitResponse } from './step-events'
import type { ChatResponse } from '../types'
import type { StepState } from './client-state'
import type { AttemptDetail, InvokeResult } from './invoke-result'

/**
 * The model's raw output carried by an error (Groq's 400 `tool_use_failed` with
 * `failed_generation`), as the assistant response it should have been: the repair layer may still
 * turn it into a call.
 */
export function failedGenerationResponse(error: unknown): ChatResponse | undefined {
  if (!isInvokeError(error)) return undefined
  const raw = error.rawResponse
  const body = Array.isArray(raw) ? raw[0] : raw
  const carried = isRecord(body) ? body.error : undefined
  const generation = isRecord(carried) ? carried.failed_generation : undefined
  if (typeof generation !== 'string' || generation.trim() === '') return undefined
  return { choices: [{ index: 0, message: { role: 'assistant', content: generation }, finish_reason: 'stop' }] }
}

/** Wraps anything that escaped classification, so callers only ever see an InvokeError or their abort. */
export function ensureInvokeError(error: unknown, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted) return abortReason(signal)
  if (isInvokeError(error) || isAbortError(error)) return error
  return new InvokeError('unknown', `Unexpected failure while handling the response: ${errorMessage(error)}`, { cause: error })
}

/**
 * One attempt of a step: send, read the body with `read` (whole, or as a stream), recover a
 * failed generation the server reported as an error, then complete. Only an `InvokeError` or the
 * caller's abort escapes.
 */
export async function runAttempt(step: StepState, attempt: number, read: (sent: SentRequest) => Promise<ChatResponse>): Promise<InvokeResult> {
  let parsed: ChatResponse
  let detail: AttemptDetail
  step.attempt = attempt
  for (;;) {
    // Aborted before sending: no request, so no response event either (`sendRequest` relies on this check).
    if (step.signal?.aborted) throw abortReason(step.signal)
    step.fixes.length = 0
    if (step.requestFixes.length > 0) step.fixes.push(...step.requestFixes)
    const startedAt = Date.now()
    detail = { status: undefined, usage: {}, rawResponse: undefined, durationMs: 0 }
    step.details.push(detail)
    try {
      const sent = await sendRequest(step, attempt)
      detail.status = sent.response.status
      parsed = await read(sent)
      detail.durationMs = Date.now() - startedAt
      detail.rawResponse = parsed
      detail.usage = normalizeUsage(isPlainObject(parsed) ? parsed.usage : undefined)
      emitResponse(step, detail)
      break
    } catch (error) {
      detail.durationMs = Date.now() - startedAt
      const failure = ensureInvokeError(error, step.signal)
      if (isInvokeError(failure)) recordFailure(detail, failure)
      emitResponse(step, detail, failure)
      // The endpoint refuses tools: the same step again in prompt mode, and every later one (not a retry).
      if (step.toolMode === 'auto' && !step.prompt && refusesTools(error) && !refusedConstraint(step.body, failure as InvokeError)) {
        step.prompt = step.client.promptMode = true
        noteLearned(step.client, step.callId)
        patchBody(step, step.messages)
        continue
      }
      if (adaptToRejection(step, error)) continue
      const recovered = failedGenerationResponse(error)
      if (!recovered) throw withEvidence(step, failure)
      step.fixes.push('failed-generation')
      parsed = recovered
      break
    }
  }
  try {
    return await completeStep(step, parsed)
  } catch (error) {
    const failure = ensureInvokeError(error, step.signal)
    if (!isInvokeError(failure)) throw failure
    if (failure.rawResponse === undefined) setField(failure, 'rawResponse', detail.rawResponse ?? parsed)
    detail.error = failure
    if (isReaskable(failure) && step.answer && (step.options.reask ?? step.client.config.reask ?? true)) {
      patchBody(step, [...step.messages, ...reaskMessages(failure, step.answer, step.tools, step.context.toolChoiceName, step.client.echo)])
    }
    throw withEvidence(step, failure)
  }
}

function recordFailure(detail: AttemptDetail, error: InvokeError): void {
  detail.error = error
  if (detail.status === undefined && error.status !== undefined) detail.status = error.status
  if (error.rawResponse !== undefined) detail.rawResponse = error.rawResponse
  if (error.usage !== undefined) detail.usage = error.usage
}

/** Puts what the step spent so far on an error that ends an attempt. */
function withEvidence(step: StepState, error: unknown): unknown {
  if (isInvokeError(error)) setField(error, 'usage', sumUsage(step.details))
  return error
}

// InvokeError's fields are read-only to users; the pipeline fills in what it learns later.
function setField<K extends 'usage' | 'rawResponse'>(error: InvokeError, key: K, value: InvokeError[K]): void {
  ;(error as { -readonly [P in K]: InvokeError[P] })[key] = value
}
