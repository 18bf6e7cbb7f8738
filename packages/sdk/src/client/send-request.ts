// Sending the request of one attempt and reading its body as text, with the errors of a failed
// request: the transport's (network, timeout, abort) and a failed status classified with the adapters.

import type { Adapter, ErrorContext } from '../adapters/types'
import { runHook } from '../adapters/run-hook'
import { classifyHttpError } from '../errors/classify-http'
import { InvokeError, isAbortError, isInvokeError } from '../errors/invoke-error'
import { abortReason } from '../retry/with-retry'
import { tryParseJson } from '../util/try-parse-json'
import type { StepState } from './client-state'
import type { ChatRequest } from '../types'
import { deadlineError } from './deadline'
import { linkRequest, type RequestLink } from './link-request'
import { redact } from './redact'
import { listens } from './step-events'

const noop = () => {}

/** An ok response whose body is still to be read. */
export interface SentRequest {
  response: Response
  /** The request's own signal and timer: `release` it when done with the body. */
  link: RequestLink
}

/**
 * Sends the request of one attempt. Resolves with an ok `Response` (body unread); throws the
 * classified `InvokeError` for a failed status, a network failure or a timeout, and the caller's
 * abort reason on abort. Fetch gets a signal of the request's own (see {@link linkRequest}) when
 * the caller's signal, `timeoutMs` or the deadline can stop the request.
 */
export async function sendRequest(step: StepState, attempt: number): Promise<SentRequest> {
  const { client, signal } = step
  const link = linkRequest(signal, client.config.timeoutMs, step.deadlineAt)
  if (listens(client.events, 'request')) client.events.emit('request', { callId: step.callId, attempt, url: client.url, body: reportedRequest(step) })
  let response: Response
  try {
    const headers = step.body.stream ? { ...client.headers, accept: 'text/event-stream' } : client.headers
    // The signal is made when fetch reads it, and only when something can stop the request.
    const init: RequestInit = limited(step) ? new LinkedInit(headers, step.payload, link) : { method: 'POST', headers, body: step.payload }
    response = await client.fetch(client.url, init)
    // The headers came: the idle gap starts again for the body.
    link.touch()
  } catch (cause) {
    link.release()
    throw transportError(step, cause, link)
  }
  if (typeof response !== 'object' || response === null || typeof response.status !== 'number' || typeof response.text !== 'function') {
    link.release()
    throw new InvokeError('config_error', 'customFetch resolved with something that is not a Response. It must behave like the global fetch.')
  }
  // A fetch that ignores its signal (some custom ones) may still answer after the deadline.
  if (link.stopped()) {
    link.release()
    response.body?.cancel().catch(noop)
    throw transportError(step, undefined, link)
  }
  if (!response.ok) {
    try {
      const text = await readText(step, response, link)
      throw classifyError(step, response.status, response.headers, text, undefined, response.statusText)
    } finally {
      link.release()
    }
  }
  return { response, link }
}

/**
 * A fetch `init` whose `signal` is made when read: an own, enumerable getter (a wrapper that spreads
 * `init` still passes the signal on), the same function for every request. An object literal with
 * a getter of its own is slow to make (V8 gives each one a map of its own); these share one.
 */
class LinkedInit {
  static #signal = { get: function (this: LinkedInit) { return this.#link.signal() }, enumerable: true, configurable: true }
  method = 'POST'
  #link: RequestLink
  constructor(public headers: Record<string, string>, public body: string, link: RequestLink) {
    this.#link = link
    Object.defineProperty(this, 'signal', LinkedInit.#signal)
  }
}

/**
 * The body as reported back (the `request` event, `result.rawRequest`): every credential the client
 * sends redacted. The body itself when none is in it (set with it); else its redacted copy, made once.
 */
export function reportedRequest(step: StepState): ChatRequest {
  return (step.rawRequest ??= JSON.parse(redact(step.payload, step.client.secrets)) as ChatRequest)
}

/** Whether anything can stop the step's request: the caller's signal, a deadline or an idle timeout. */
export const limited = (step: StepState): boolean => step.signal !== undefined || step.deadlineAt !== undefined || step.client.config.timeoutMs !== undefined

/**
 * The error of a request that failed or was stopped: the caller's abort, a timeout, or a network
 * failure, worded by `failed` (a stream that broke off says so).
 */
export function transportError(step: StepState, cause: unknown, link: RequestLink, failed = (detail: string) => `Could not reach ${step.client.url}: ${detail}. Check the base URL and your connection.`): unknown {
  const { signal, client } = step
  if (signal?.aborted) return abortReason(signal)
  const stop = link.stopped()
  if (stop === 'deadline') return deadlineError(step, cause)
  if (stop === 'idle') return new InvokeError('timeout', `No response within timeoutMs (${client.config.timeoutMs} ms). Raise timeoutMs or try again.`, { cause })
  if (isAbortError(cause)) return cause
  const detail = redact(cause instanceof Error ? `${cause.message}${describeCause(cause)}` : String(cause), client.secrets)
  // A port that fetch refuses outright (9, 25, 6000 …: the Fetch standard's "bad port"): the URL is wrong, no retry can help.
  if (detail.includes('(bad port)')) return new InvokeError('config_error', `Fetch refuses the port of ${client.url} ("bad port"): fix baseURL, no retry can help.`, { cause })
  return new InvokeError('network_error', failed(detail), { cause })
}

/** ` (ECONNREFUSED)`: the code or message of an error's cause, as fetch implementations nest it. */
export function describeCause(error: Error): string {
  const inner = (error as { cause?: { code?: unknown; message?: unknown } }).cause
  if (!inner) return ''
  const code = typeof inner.code === 'string' ? inner.code : typeof inner.message === 'string' ? inner.message : ''
  return code ? ` (${code})` : ''
}

/**
 * Reads a body as redacted text; a failure mid-body is a `network_error` (or timeout/abort). Each
 * read re-arms the idle gap, so `timeoutMs` bounds a silence, not a long body that keeps coming.
 */
export async function readText(step: StepState, response: Response, link: RequestLink): Promise<string> {
  try {
    // Read whole unless an idle gap is watched: then each read re-arms it. (A custom fetch's response without a stream is read whole too.)
    const reader = step.client.config.timeoutMs === undefined ? undefined : response.body?.getReader()
    if (!reader) return redact(await response.text(), step.client.secrets)
    const decoder = new TextDecoder()
    let text = ''
    for (let read; !(read = await reader.read()).done; link.touch()) text += decoder.decode(read.value, { stream: true })
    return redact(text + decoder.decode(), step.client.secrets)
  } catch (cause) {
    throw transportError(step, cause, link)
  }
}

/** Classifies a failed status (or a 2xx `{ error }` body), then lets adapters reword it. */
export function classifyError(step: StepState, status: number, headers: Headers, text: string, parsed: unknown = tryParseJson(text), statusText?: string): InvokeError {
  let error = classifyHttpError(status, headers, text, parsed, statusText)
  const base = { ...step.context, status, body: parsed, bodyText: text }
  for (const adapter of step.client.responseChain) {
    const hook = adapter.classifyError
    if (!hook) continue
    const original = error
    const context: ErrorContext = {
      ...base,
      reclassify: (type, explanation, options = {}) => {
        const retryAfterMs = options.retryAfterMs ?? original.retryAfterMs
        return new InvokeError(type, `[${adapter.name}] ${explanation} (${original.message.replace(/^\[wildcall\] /, '')})`, {
          status,
          rawResponse: original.rawResponse,
          cause: original,
          ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
        })
      },
    }
    const replaced = runHook(adapter, 'classifyError', hook, original, context)
    // Only an InvokeError may replace the classification: anything else would escape untyped.
    if (isInvokeError(replaced)) {
      error = replaced
      break
    }
  }
  return error
}

/** Adapters in response order: providers, then models, then the default. */
export function responseOrder(chain: Adapter[]): Adapter[] {
  const last = chain[chain.length - 1]
  const rest = chain.slice(0, -1)
  return [...rest.filter((a) => a.kind === 'provider'), ...rest.filter((a) => a.kind !== 'provider'), ...(last ? [last] : [])]
}
