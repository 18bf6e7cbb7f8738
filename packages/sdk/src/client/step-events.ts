import type { Emitter } from 'mitt'
import { isInvokeError, type InvokeError } from '../errors/invoke-error'
import type { AttemptDetail, InvokeResult } from './invoke-result'
import type { ChatResponse } from '../types'
import type { ClientEvents } from './client-events'
import type { ClientState, StepState } from './client-state'

// A random prefix per page or process and a counter: ids that tell steps apart for the cost of an increment.
const prefix = Math.random().toString(36).slice(2, 8)
let count = 0

/** A new id for one step (one `invoke` or `stream` call): every client event of the step carries it. */
export function newCallId(): string {
  return `${prefix}-${++count}`
}

/** Whether anything listens to `type` (or to every event): an event nobody hears is not even built. */
export function listens(events: Emitter<ClientEvents>, type: keyof ClientEvents): boolean {
  return events.all.has(type) || events.all.has('*')
}

/** The `response` event of one HTTP request: its detail, sent once its body was read, or once it failed (`error`). */
export function emitResponse(step: StepState, detail: AttemptDetail, error?: unknown): void {
  if (!listens(step.client.events, 'response')) return
  const reason = (detail.rawResponse as ChatResponse | undefined)?.choices?.[0]?.finish_reason
  step.client.events.emit('response', { ...detail, callId: step.callId, attempt: step.attempt, finishReason: typeof reason === 'string' ? reason : undefined, error })
}

/** The `retry` event of a step. */
export function emitRetry(step: StepState, info: { attempt: number; maxAttempts: number; error: InvokeError; delayMs: number }): void {
  step.client.events.emit('retry', { callId: step.callId, ...info })
}

/** The end of a step: `error` for an InvokeError, then `done` whatever happened (an abort included). */
export function emitDone(client: ClientState, step: StepState | undefined, result: InvokeResult | undefined, error?: unknown): void {
  const { events } = client
  if (events.all.size === 0) return
  const callId = step?.callId ?? newCallId()
  if (isInvokeError(error)) events.emit('error', { callId, error })
  events.emit('done', result ? { callId, result } : { callId, error })
}

/**
 * Sends `logger.debug` a line per request (the adapters that patch it, in order), repair (its
 * codes, the reader among them) and retry. A listener only when the logger has `debug`: nothing to pay otherwise.
 */
export function debugEvents(client: ClientState): void {
  const { logger } = client.config
  if (!logger?.debug) return
  client.events.on('*', (type, given) => {
    const event = given as Partial<ClientEvents['retry'] & ClientEvents['fix']>
    const text = type === 'request' ? `adapters ${client.adapterNames.join() || 'none'}` : type === 'fix' ? event.codes : type === 'retry' ? `${event.error!.type}, again in ${event.delayMs} ms` : ''
    if (text) logger.debug!(`[wildcall] ${event.callId}#${event.attempt} ${type}: ${text}`)
  })
}
