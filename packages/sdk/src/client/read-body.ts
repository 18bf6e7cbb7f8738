import { readProviderError } from '../errors/classify-http'
import { InvokeError } from '../errors/invoke-error'
import { isPlainObject } from '../repair/coerce'
import { scanJson } from '../repair/scan-json'
import type { ChatResponse } from '../types'
import { tryParseJson } from '../util/try-parse-json'
import type { StepState } from './client-state'
import { classifyError, readText, type SentRequest } from './send-request'

/**
 * The body of a non-streaming attempt. A server that streams whatever the request said (events
 * as `text/event-stream`, or chunks as JSON lines) is read as the stream it is (`stream-body`), or
 * refused by a core client without streaming.
 */
export async function readWholeBody(step: StepState, sent: SentRequest): Promise<ChatResponse> {
  const { response } = sent
  let text: string
  try {
    text = await readText(step, response, sent.link)
  } finally {
    sent.link.release()
  }
  return parseResponseBody(step, response.status, response.headers, text, (body) => step.client.streaming.readEvents(step, response, body))
}

/**
 * Whether a body is a stream's events written out whole: `'sse'`, or the JSON lines of its chunks
 * (each line a chunk, a delta among them: whole bodies one after another stay a body that is not JSON).
 */
export function eventBodyOf(text: string): 'sse' | string[] | undefined {
  if (/^\s*(?:(?:data|event|id|retry)\s*:|:)/.test(text)) return 'sse'
  const lines = text.split('\n').map((line) => line.trim()).filter((line) => line !== '')
  const chunked = lines.every((line) => line.startsWith('{') && line.endsWith('}') && line.includes('"choices"'))
  return lines.length >= 2 && chunked && lines.some((line) => line.includes('"delta"')) ? lines : undefined
}

/**
 * Parses an ok body: not JSON is `invalid_response`; `{ error }` is the classified error.
 * `readEvents` reads a body that is a stream's events instead (tried only when it is not JSON).
 */
export function parseResponseBody(step: StepState, status: number, headers: Headers, text: string, readEvents?: (text: string) => ChatResponse | undefined): ChatResponse {
  let parsed = tryParseJson(text)
  if (parsed === undefined && readEvents) {
    const events = readEvents(text)
    if (events) return events
  }
  if (parsed === undefined) {
    // A complete body followed by noise (a proxy's banner, a debug line): the body is what counts.
    parsed = readLeadingJson(text)
    if (parsed !== undefined) step.fixes.push('trailing-text')
  }
  if (parsed === undefined) {
    const { message, html } = readProviderError(undefined, text)
    const what = html ? 'an HTML page' : text.trim() === '' ? 'an empty body' : 'a body that is not JSON'
    const shown = message === undefined ? '' : ` ("${message.length > 120 ? `${message.slice(0, 120)}…` : message}")`
    throw new InvokeError('invalid_response', `The server answered HTTP ${status} with ${what}${shown} instead of a chat completion. Check that baseURL points at an OpenAI-compatible API (often ending in /v1), not a web page or a login proxy.`, { status, rawResponse: text })
  }
  parsed = unwrapBody(parsed, step.fixes)
  if (isErrorBody(parsed)) throw classifyError(step, status, headers, text, parsed)
  return parsed as ChatResponse
}

/**
 * The JSON object that starts a body followed by text that is not JSON. A body of several objects
 * (JSON lines: chunks of a stream) is not one answer, so it gets nothing here.
 */
function readLeadingJson(text: string): unknown {
  const start = text.search(/\S/)
  if (text.charCodeAt(start) !== 123 /* { */) return undefined
  const span = scanJson(text).spans.find((candidate) => candidate.start === start)
  if (!span || tryParseJson(text.slice(span.end).trimStart().split('\n', 1)[0]!) !== undefined) return undefined
  return tryParseJson(text.slice(span.start, span.end))
}

/** A gateway's envelope (`{ code: 0, msg: 'ok', data: { choices } }`): the completion one level down. */
function unwrapBody(parsed: unknown, fixes: string[]): unknown {
  if (!isPlainObject(parsed) || 'choices' in parsed) return parsed
  for (const value of Object.values(parsed)) {
    if (isPlainObject(value) && Array.isArray(value.choices) && value.choices.length > 0) {
      fixes.push('unwrapped-body')
      return value
    }
  }
  return parsed
}

/**
 * Whether an ok body is an error report rather than a completion: `{ error: … }` (also wrapped in
 * an array, as Gemini does) or vLLM's `{ object: 'error' }`, with no usable `choices`.
 */
function isErrorBody(parsed: unknown): boolean {
  const candidate = Array.isArray(parsed) ? parsed[0] : parsed
  if (typeof candidate !== 'object' || candidate === null || Array.isArray(candidate)) return false
  const record = candidate as Record<string, unknown>
  if (Array.isArray(record.choices) && record.choices.length > 0) return false
  if (record.error || record.object === 'error') return true
  // No choices at all, but the body says why (`{ code, message }`, a status envelope …).
  if (Array.isArray(record.choices)) return false
  const detail = readProviderError(record, '')
  return detail.message !== undefined || detail.code !== undefined
}

