// Imports in the order that bundles smallest: module order moves the gzip size (node scripts/check-size.mjs).
import { InvokeError } from '../errors/invoke-error'
import { runHook } from '../adapters/run-hook'
import { withRetry } from '../retry/with-retry'
import { isRecord } from '../util/is-record'
import { previewsOf } from './combine-previews'
import { wireNames } from '../tool/wire-names'
import { ensureInvokeError, runAttempt } from './invoke'
import { prepareStep } from './prepare-step'
import { classifyError, limited, transportError, type SentRequest } from './send-request'
import { eventBodyOf, parseResponseBody } from './read-body'
import { redact } from './redact'
import { createUtf8Decoder } from '../text/utf8-decoder'
import { emitDone, emitRetry } from './step-events'
import { createParser, type EventSourceMessage } from 'eventsource-parser'
import { createStreamAssembler, type StreamAssembler, type StreamAssemblerOptions } from './create-stream-assembler'
import type { Adapter } from '../adapters/types'
import type { ChatMessage, ChatResponse, ChatStreamChunk } from '../types'
import type { InvokeResult } from './invoke-result'
import type { StreamEvent, StreamRun } from './stream-run'
import type { ToolSet } from '../tool/types'
import type { RequestLink } from './link-request'
import type { ClientState, InvokeOptions, StepState } from './client-state'


const noop = () => {}

/**
 * Runs one step as a stream. The request carries `stream: true` and
 * `stream_options: { include_usage: true }`; the response is assembled into one chat-completions
 * response and then completed exactly like `invoke` (finish classification, `fixResponse`, repair,
 * validation, execution). A failure before or during the stream retries the whole request within
 * `maxRetries`, yielding a `reset` event first. With `timeoutMs`, each attempt must get its response
 * headers within `timeoutMs`, and then the stream may fall silent for at most `timeoutMs` between two
 * chunks (an idle timeout: a long answer that keeps coming never times out).
 *
 * @example
 * ```ts
 * const run = client.stream(messages, { AgentOutput }, { toolChoiceName: 'AgentOutput' })
 * for await (const event of run) if (event.type === 'partial') render(event.args)
 * const { toolCall, toolResult } = await run.result
 * ```
 */
export function streamStep(client: ClientState, messages: ChatMessage[], tools: ToolSet, options?: InvokeOptions): StreamRun {
  const channel = createChannel<StreamEvent>()
  let signal: AbortSignal | undefined
  let step: StepState | undefined
  const result = (async () => {
    let done
    try {
      const current = (step = prepareStep(client, messages, tools, options, true))
      signal = current.options.signal
      done = await withRetry((attempt) => streamAttempt(current, attempt, channel.push), client.retry, {
        ...(signal ? { signal } : {}),
        deadlineAt: current.deadlineAt,
        onRetry: (info) => {
          emitRetry(current, info)
          channel.push({ type: 'reset', attempt: info.attempt, error: info.error })
        },
      })
    } catch (error) {
      const thrown = ensureInvokeError(error, signal)
      emitDone(client, step, undefined, thrown)
      throw thrown
    }
    emitDone(client, step, done)
    return done
  })()
  result.then(() => channel.close(), (error: unknown) => channel.close(error))
  // Marks `result` handled: a caller who only iterates learns of the failure from the loop.
  result.catch(noop)
  return { result, [Symbol.asyncIterator]: channel.iterate }
}

function streamAttempt(step: StepState, attempt: number, emit: (event: StreamEvent) => void): Promise<InvokeResult> {
  return runAttempt(step, attempt, (sent) => readStream(step, sent, emit))
}

/** Stream events written out whole: SSE, or JSON lines of chunks. Undefined for anything else. */
export function readEventText(step: StepState, response: Response, text: string): ChatResponse | undefined {
  const received: EventSourceMessage[] = []
  const body = eventBodyOf(text)
  if (!body) return undefined
  if (body === 'sse') {
    const parser = createParser({ onEvent: (message) => received.push(message) })
    parser.feed(`${text}\n\n`)
  } else for (const data of body) received.push({ data, event: undefined, id: undefined })
  if (received.length === 0) return undefined
  const assembler = createStreamAssembler(noop)
  const fixers = step.client.responseChain.filter((adapter) => adapter.fixChunk)
  for (const message of received) if (handleEvent(step, response, assembler, fixers, message, true)) break
  step.fixes.push('stream-body')
  return assembler.finish()
}

/**
 * Reads an ok response into one assembled chat-completions response. A body that starts like JSON
 * (a server that ignored `stream: true`) is parsed as `invoke` would; anything else is SSE.
 */
async function readStream(step: StepState, sent: SentRequest, emit: (event: StreamEvent) => void): Promise<ChatResponse> {
  const { client } = step
  const { response, link } = sent
  const options = { previews: (client.previews ??= previewsOf(client.readers)), reasoningInText: step.prompt, toOwn: wireNames(step.tools) }
  const assembler = createStreamAssembler(emit, options)
  const fixers = client.responseChain.filter((adapter) => adapter.fixChunk)
  const body = response.body
  if (!body) {
    link.release()
    return parseResponseBody(step, response.status, response.headers, '')
  }
  const reader = body.getReader()
  const decode = createUtf8Decoder()
  let mode: 'sniff' | 'sse' | 'json' = 'sniff'
  // The body while it may be JSON: all of it when it is.
  let jsonText = ''
  let events = 0
  let done = false
  // Whether a secret came in the text so far, and the end of that text a secret may start in: an
  // event whose data holds one is handled after the read its last character came in, so events are
  // searched for secrets only from then on, and a clean stream is searched once per read.
  const { secrets } = client
  let leaked = false
  let carried = ''
  // Events are handled as the parser finds them; none after [DONE].
  const parser = createParser({
    onEvent: (message) => {
      if (done) return
      events++
      done = handleEvent(step, response, assembler, fixers, message, leaked)
    },
  })

  // The request's link stops on the caller's abort, the idle gap (`timeoutMs` between two reads: a
  // stream that keeps coming is never cut) and the whole call's deadline (which a trickling stream
  // cannot outrun). Cancelling resolves the pending read at once and closes the connection, whatever
  // the fetch does with its signal (no signal is made for it here).
  // Nothing can stop a request without a signal, deadline or idle limit: nothing to wait for.
  const stoppable = limited(step)
  if (stoppable) link.onStop(() => reader.cancel().catch(noop))
  let finished = false
  try {
    while (!done) {
      let chunk: ReadableStreamReadResult<Uint8Array>
      try {
        chunk = await reader.read()
      } catch (cause) {
        throw streamError(step, cause, link)
      }
      if (stoppable) {
        if (link.stopped()) throw streamError(step, undefined, link)
        link.touch()
      }
      const text = decode(chunk.value)
      if (!leaked && secrets.length > 0) {
        const window = carried + text
        leaked = redact(window, secrets) !== window
        carried = window.slice(1 - secrets[0]!.length)
      }
      if (mode === 'sse') parser.feed(text)
      else {
        jsonText += text
        // The first character that is not blank tells the body apart.
        if (mode === 'sniff' && jsonText.trimStart()) {
          mode = /^\s*[{[<]/.test(jsonText) ? 'json' : 'sse'
          if (mode === 'sse') parser.feed(jsonText)
        }
      }
      // Some servers close without the blank line that ends the last event: end it for them.
      if (chunk.done && mode === 'sse') parser.feed('\n\n')
      // The content of this read's events, scanned for a call in one piece.
      assembler.flush()
      if (chunk.done) break
    }
    finished = true
  } finally {
    link.release()
    // Stopped early ([DONE] with the connection still open, an error event, a failure): let it go.
    if (!finished || done) reader.cancel().catch(noop)
    else reader.releaseLock()
  }
  if (mode === 'json') {
    // A server that ignored `stream: true` (or sent its chunks as JSON lines): read as invoke would.
    const parsed = parseResponseBody(step, response.status, response.headers, redact(jsonText, client.secrets), (body) => readEventText(step, response, body))
    emitWhole(parsed, emit, options)
    return parsed
  }
  if (events === 0) {
    throw new InvokeError('invalid_response', 'The stream ended without a single event. Check that baseURL points at an OpenAI-compatible API that supports streaming.', { status: response.status })
  }
  // Closed inside a call's arguments with neither a finish reason nor [DONE]: the connection was
  // cut, not the model (that would say "length"). Nothing is executed; another try may get it whole.
  if (!done && assembler.endsInsideCall()) {
    throw new InvokeError('network_error', `The stream from ${client.url} closed inside a tool call's arguments with no finish_reason or [DONE]: the connection was cut. Nothing was executed; retrying usually helps.`, { status: response.status })
  }
  return assembler.finish()
}

/** What a failed read of the stream was: the caller's abort, a timeout, or a connection that broke. */
function streamError(step: StepState, cause: unknown, link: RequestLink): unknown {
  return transportError(step, cause, link, (detail) => `The stream from ${step.client.url} broke off: ${detail}. Retrying usually helps.`)
}

/**
 * Handles one SSE event (its data redacted when `secret`: a secret came in the stream); returns
 * true at `[DONE]`. Throws the classified error of an error event.
 */
function handleEvent(step: StepState, response: Response, assembler: StreamAssembler, fixers: Adapter[], message: EventSourceMessage, secret: boolean): boolean {
  const data = secret ? redact(message.data, step.client.secrets) : message.data
  // JSON.parse skips blanks itself: only data that does not open an object may be [DONE] or blank.
  if (data.charCodeAt(0) !== 123) {
    const trimmed = data.trim()
    if (trimmed === '[DONE]') return true
    if (trimmed === '' && message.event !== 'error') return false
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(data)
  } catch (cause) {
    if (message.event === 'error') throw classifyError(step, response.status, response.headers, data, { error: { message: data } })
    throw new InvokeError('invalid_response', `The stream sent an event that is not JSON (${data.trim().slice(0, 120)}…).`, { cause, status: response.status, rawResponse: data })
  }
  // OpenRouter reports a failure mid-stream as a chunk with `error` (and finish_reason "error").
  if (message.event === 'error' || (isRecord(parsed) && (parsed.error || parsed.object === 'error'))) {
    throw classifyError(step, response.status, response.headers, data, parsed)
  }
  if (!isRecord(parsed)) return false
  let chunk = parsed as ChatStreamChunk
  for (const adapter of fixers) {
    const hook = adapter.fixChunk!
    chunk = runHook(adapter, 'fixChunk', hook, chunk, step.context) ?? chunk
  }
  assembler.push(chunk)
  return false
}

/** A server that ignored `stream: true`: show its whole answer as one burst of events. */
function emitWhole(response: ChatResponse, emit: (event: StreamEvent) => void, options: StreamAssemblerOptions) {
  const message = Array.isArray(response.choices) ? response.choices[0]?.message : undefined
  if (typeof message !== 'object' || message === null) return
  const assembler = createStreamAssembler(emit, options)
  const toolCalls = Array.isArray(message.tool_calls) ? message.tool_calls.map((call, index) => ({ ...call, index })) : undefined
  assembler.push({ choices: [{ index: 0, delta: { ...message, tool_calls: toolCalls } }] } as ChatStreamChunk)
  assembler.finish()
}

interface Channel<T> {
  push(value: T): void
  /** Ends the iteration, with `error` thrown from the loop when given. */
  close(error?: unknown): void
  iterate(): AsyncIterator<T>
}

/**
 * A one-consumer queue: values pushed before anyone iterates are kept; a consumer that stops
 * (break) drops the rest. A value pushed while the consumer waits is handed to it directly: no
 * async function and no extra promise per event.
 */
function createChannel<T>(): Channel<T> {
  const queue: T[] = []
  let head = 0
  let closed = false
  let failure: { error: unknown } | undefined
  let detached = false
  let iterated = false
  // The consumer's pending `next()` calls, oldest first (one, with `for await`); the end settles
  // them with the promise `end` makes (a failure rejects them).
  const waiting: Array<(result: IteratorResult<T> | Promise<IteratorResult<T>>) => void> = []
  const DONE: IteratorResult<T> = { done: true, value: undefined }
  const end = (): Promise<IteratorResult<T>> => {
    detached = true
    return failure ? Promise.reject(failure.error) : Promise.resolve(DONE)
  }
  return {
    push(value) {
      if (closed || detached) return
      if (waiting.length > 0) waiting.shift()!({ done: false, value })
      else queue.push(value)
    },
    close(error) {
      if (closed) return
      closed = true
      if (error !== undefined) failure = { error }
      for (const resolve of waiting.splice(0)) resolve(end())
    },
    iterate() {
      if (iterated) throw new InvokeError('config_error', 'A stream run can be iterated only once. Keep the events you need, or await run.result.', { retryable: false })
      iterated = true
      return {
        next() {
          if (detached) return Promise.resolve(DONE)
          if (head < queue.length) {
            const value = queue[head]!
            // Shifting would make draining a long buffer quadratic: move a cursor, compact now and then.
            if (++head >= 1024 && head * 2 >= queue.length) {
              queue.splice(0, head)
              head = 0
            }
            return Promise.resolve({ done: false, value })
          }
          return closed ? end() : new Promise((resolve) => waiting.push(resolve))
        },
        return() {
          detached = true
          queue.length = head = 0
          for (const resolve of waiting.splice(0)) resolve(DONE)
          return Promise.resolve(DONE)
        },
      }
    },
  }
}
