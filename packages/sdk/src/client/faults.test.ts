import { getEventListeners } from 'node:events'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { createServer as createNetServer } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { ClientConfig } from './config'
import { createClient } from './create-client'
import { defineTool } from '../tool/define-tool'
import { isInvokeError, type InvokeError } from '../errors/invoke-error'
import { sseChunks, toolCallResponse } from '../testing/scripted-server'
import type { ChatMessage } from '../types'
import type { InvokeResult } from './invoke-result'
import type { InvokeOptions } from './client-state'

// A fault-injection run against real servers on 127.0.0.1, for invoke() and stream() alike: every
// call ends in its result or a typed error within a bounded time, the server is hit at most once
// per allowed attempt, the tool runs at most once per call, and nothing is left running.

interface ServerContext {
  /** 1-based number of this request. */
  hit: number
  /** Runs `run` after `ms`, unless the server closed first (no timer outlives the test). */
  later(ms: number, run: () => void): void
  /** Calls `run` every `ms` until the response closes or the server does. */
  every(ms: number, run: () => void): void
  /** Whether the request asked for a stream. */
  stream: boolean
}
type Handler = (request: IncomingMessage, response: ServerResponse, context: ServerContext) => void

interface FaultServer {
  url: string
  readonly hits: number
  close(): Promise<void>
}

const servers = new Set<FaultServer>()

/** A node:http server on 127.0.0.1 that hands each request (body read) to `handle`. */
async function startFaultServer(handle: Handler): Promise<FaultServer> {
  const sockets = new Set<Socket>()
  const timers = new Set<ReturnType<typeof setTimeout>>()
  let hits = 0
  const server = createServer((request, response) => {
    const hit = ++hits
    const parts: Buffer[] = []
    request.on('data', (part: Buffer) => parts.push(part))
    request.on('end', () => {
      const stream = Buffer.concat(parts).toString('utf8').includes('"stream":true')
      const later = (ms: number, run: () => void) => {
        const timer = setTimeout(() => {
          timers.delete(timer)
          run()
        }, ms)
        timers.add(timer)
      }
      const every = (ms: number, run: () => void) => {
        const timer = setInterval(() => (response.destroyed || response.writableEnded ? stop() : run()), ms)
        const stop = () => {
          clearInterval(timer)
          timers.delete(timer)
        }
        timers.add(timer)
        response.on('close', stop)
      }
      handle(request, response, { hit, later, every, stream })
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const fault: FaultServer = {
    url: `http://127.0.0.1:${port}/v1`,
    get hits() {
      return hits
    },
    close() {
      servers.delete(fault)
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
      for (const socket of sockets) socket.destroy()
      return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())))
    },
  }
  servers.add(fault)
  return fault
}

const messages: ChatMessage[] = [{ role: 'user', content: 'Say ok.' }]
let executions = 0
// Called when the tool starts waiting for its abort.
let onToolWait: (() => void) | undefined
const tools = {
  done: defineTool({
    description: 'Finish with a text',
    inputSchema: z.object({ text: z.string() }),
    execute: async ({ text }, { signal }) => {
      executions++
      if (text === 'wait for abort') {
        setTimeout(() => onToolWait?.(), 10)
        await new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true }))
      }
      return text
    },
  }),
}

const args = { text: 'ok' }
const wholeBody = (text = 'ok') => JSON.stringify(toolCallResponse('done', { text }))
const streamEvents = (text = 'ok', finish: string | null = 'tool_calls') => {
  const json = JSON.stringify({ text })
  return sseChunks([
    { choices: [{ index: 0, delta: { role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'done', arguments: json.slice(0, 5) } }] }, finish_reason: null }] },
    { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: json.slice(5) } }] }, finish_reason: null }] },
    { choices: [{ index: 0, delta: {}, finish_reason: finish }] },
  ])
}

/** Answers as a well-behaved server would, streaming when asked to. */
function answer(response: ServerResponse, stream: boolean, text = 'ok') {
  if (stream) {
    response.writeHead(200, { 'content-type': 'text/event-stream' })
    response.end(streamEvents(text).join(''))
  } else {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(wholeBody(text))
  }
}

type Mode = 'invoke' | 'stream'
interface Outcome {
  result?: InvokeResult
  error?: unknown
  ms: number
  events: number
}

/** Runs one call to its end (iterating a stream's events too) and says how it ended. */
async function run(mode: Mode, config: Partial<ClientConfig> & { baseURL: string }, options: InvokeOptions<keyof typeof tools> = {}): Promise<Outcome> {
  const client = createClient({ model: 'gpt-4.1-mini', retry: { limit: 2, baseDelayMs: 5, jitter: false }, ...config })
  const started = performance.now()
  let events = 0
  try {
    let result: InvokeResult
    if (mode === 'invoke') result = await client.invoke(messages, tools, options)
    else {
      const stream = client.stream(messages, tools, options)
      try {
        for await (const _event of stream) events++
      } catch {
        // The same failure rejects `result`, checked below.
      }
      result = await stream.result
    }
    return { result, ms: performance.now() - started, events }
  } catch (error) {
    return { error, ms: performance.now() - started, events }
  }
}

function expectInvokeError(outcome: Outcome, type: InvokeError['type']): InvokeError {
  expect(outcome.result, 'the call should have failed').toBeUndefined()
  expect(isInvokeError(outcome.error), `not an InvokeError: ${String(outcome.error)}`).toBe(true)
  const error = outcome.error as InvokeError
  expect(error.type, error.message).toBe(type)
  return error
}

async function freePort(): Promise<number> {
  const probe = createNetServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as AddressInfo
  await new Promise((resolve) => probe.close(resolve))
  return port
}

const unhandled: unknown[] = []
const warnings: Error[] = []
const onUnhandled = (reason: unknown) => unhandled.push(reason)
const onWarning = (warning: Error) => warnings.push(warning)
let timersBefore = 0
const countTimers = () => process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length

beforeAll(() => {
  process.on('unhandledRejection', onUnhandled)
  process.on('warning', onWarning)
  timersBefore = countTimers()
})

afterEach(async () => {
  for (const server of [...servers]) await server.close()
})

afterAll(async () => {
  process.off('unhandledRejection', onUnhandled)
  process.off('warning', onWarning)
  expect(unhandled).toEqual([])
  expect(warnings.map((warning) => `${warning.name}: ${warning.message}`)).toEqual([])
  // No timer of the SDK outlives its call (vitest's own may come and go: allow one).
  await new Promise((resolve) => setTimeout(resolve, 50))
  expect(countTimers()).toBeLessThanOrEqual(timersBefore + 1)
})

describe.each<Mode>(['invoke', 'stream'])('%s under faults', (mode) => {
  afterEach(() => {
    executions = 0
  })

  it('should report a refused connection as a retried network_error', async () => {
    const port = await freePort()
    const outcome = await run(mode, { baseURL: `http://127.0.0.1:${port}/v1` })
    const error = expectInvokeError(outcome, 'network_error')
    expect(error.retryable).toBe(true)
    expect(error.message).toMatch(/ECONNREFUSED/)
    expect(error.attempts).toHaveLength(2)
    expect(outcome.ms).toBeLessThan(5_000)
  })

  it('should make a port fetch refuses outright (9: "bad port") a config_error tried once, not a retried network_error', async () => {
    const outcome = await run(mode, { baseURL: 'http://127.0.0.1:9/v1' })
    const error = expectInvokeError(outcome, 'config_error')
    expect(error.retryable).toBe(false)
    expect(error.message).toBe('[wildcall] Fetch refuses the port of http://127.0.0.1:9/v1/chat/completions ("bad port"): fix baseURL, no retry can help.')
    expect(error.attempts).toHaveLength(0)
  })

  it('should report a reset before the headers as network_error, hitting the server once per attempt', async () => {
    const server = await startFaultServer((request) => request.socket.destroy())
    const error = expectInvokeError(await run(mode, { baseURL: server.url }), 'network_error')
    expect(error.retryable).toBe(true)
    expect(server.hits).toBe(3)
    expect(executions).toBe(0)
  })

  it('should report a reset in the middle of the body as network_error and execute nothing', async () => {
    const server = await startFaultServer((request, response, { stream, later }) => {
      response.writeHead(200, { 'content-type': stream ? 'text/event-stream' : 'application/json', ...(stream ? {} : { 'content-length': '400' }) })
      response.write(stream ? streamEvents()[0]! : wholeBody().slice(0, 40))
      later(20, () => request.socket.destroy())
    })
    const outcome = await run(mode, { baseURL: server.url })
    expectInvokeError(outcome, 'network_error')
    expect(server.hits).toBe(3)
    expect(executions).toBe(0)
  })

  it('should give up on a server that never answers after timeoutMs, once per attempt', async () => {
    const server = await startFaultServer(() => {})
    const outcome = await run(mode, { baseURL: server.url, timeoutMs: 150, retry: { limit: 1, baseDelayMs: 5 } })
    const error = expectInvokeError(outcome, 'timeout')
    expect(error.message).toMatch(/timeoutMs \(150 ms\)/)
    expect(server.hits).toBe(2)
    expect(outcome.ms).toBeGreaterThan(290)
    expect(outcome.ms).toBeLessThan(5_000)
  })

  it('should give up on a body that stalls half-way', async () => {
    const server = await startFaultServer((_request, response, { stream }) => {
      response.writeHead(200, { 'content-type': stream ? 'text/event-stream' : 'application/json' })
      response.write(stream ? streamEvents()[0]! : wholeBody().slice(0, 40))
    })
    const outcome = await run(mode, { baseURL: server.url, timeoutMs: 150, retry: 0 })
    expectInvokeError(outcome, 'timeout')
    expect(server.hits).toBe(1)
    expect(executions).toBe(0)
    expect(outcome.ms).toBeLessThan(5_000)
  })

  it('should let a body take longer than timeoutMs in all while no gap between its bytes does', async () => {
    const server = await startFaultServer((_request, response, { stream, every }) => {
      response.writeHead(200, { 'content-type': stream ? 'text/event-stream' : 'application/json' })
      const text = stream ? streamEvents().join('') : wholeBody()
      const size = Math.ceil(text.length / 8)
      let sent = 0
      response.write(text.slice(0, size))
      every(50, () => {
        sent += size
        if (sent + size >= text.length) response.end(text.slice(sent))
        else response.write(text.slice(sent, sent + size))
      })
    })
    const outcome = await run(mode, { baseURL: server.url, timeoutMs: 200, retry: 0 })
    expect(outcome.error).toBeUndefined()
    expect(outcome.result?.toolResult).toBe('ok')
    // Eight pieces 50 ms apart: about 350 ms in all, far beyond timeoutMs.
    expect(outcome.ms).toBeGreaterThan(300)
    expect(server.hits).toBe(1)
  })

  it('should time out a body that falls silent for timeoutMs, counted from its last bytes', async () => {
    const server = await startFaultServer((_request, response, { stream, later }) => {
      response.writeHead(200, { 'content-type': stream ? 'text/event-stream' : 'application/json' })
      const text = stream ? streamEvents().join('') : wholeBody()
      response.write(text.slice(0, 20))
      later(150, () => response.write(text.slice(20, 40)))
      later(900, () => response.end(text.slice(40)))
    })
    const outcome = await run(mode, { baseURL: server.url, timeoutMs: 300, retry: 0 })
    expect(expectInvokeError(outcome, 'timeout').message).toMatch(/timeoutMs \(300 ms\)/)
    // The gap opens after the bytes at 150 ms: it ends near 450 ms, not 300 ms after the request.
    expect(outcome.ms).toBeGreaterThan(400)
    expect(outcome.ms).toBeLessThan(5_000)
    expect(executions).toBe(0)
  })

  it('should end a trickling body at the whole-call deadline, and not retry past it', async () => {
    // One byte every 40 ms: never silent for timeoutMs, so only the deadline can end it.
    const server = await startFaultServer((_request, response, { stream, every }) => {
      response.writeHead(200, { 'content-type': stream ? 'text/event-stream' : 'application/json' })
      const text = stream ? streamEvents().join('') : wholeBody()
      let sent = 0
      every(40, () => response.write(text[sent++ % text.length]!))
    })
    const outcome = await run(mode, { baseURL: server.url, timeoutMs: 300, deadlineMs: 700, retry: { limit: 5, baseDelayMs: 5 } })
    const error = expectInvokeError(outcome, 'timeout')
    expect(error.message).toMatch(/deadlineMs \(700 ms, retries included\)/)
    // timeoutMs is an idle gap, which a trickle never opens: the one attempt runs into the deadline.
    expect(server.hits).toBe(1)
    expect(executions).toBe(0)
    expect(outcome.ms).toBeGreaterThan(650)
    expect(outcome.ms).toBeLessThan(5_000)
  })

  it('should count every retry and backoff against the deadline', async () => {
    const server = await startFaultServer(() => {})
    const outcome = await run(mode, { baseURL: server.url, timeoutMs: 200, deadlineMs: 700, retry: { limit: 10, baseDelayMs: 10, jitter: false } })
    expectInvokeError(outcome, 'timeout')
    // Attempts end at about 200, 410 and 630 ms; the fourth is cut by the deadline at 700 ms.
    expect(server.hits).toBeGreaterThanOrEqual(2)
    expect(server.hits).toBeLessThanOrEqual(4)
    expect(outcome.ms).toBeLessThan(5_000)
  })

  it('should let a call set its own deadline over the client\'s', async () => {
    const server = await startFaultServer(() => {})
    const outcome = await run(mode, { baseURL: server.url, deadlineMs: 60_000 }, { deadlineMs: 200 })
    expect(expectInvokeError(outcome, 'timeout').message).toMatch(/deadlineMs \(200 ms/)
    expect(outcome.ms).toBeLessThan(5_000)
  })

  it('should report a corrupt gzip body as a retried network_error', async () => {
    const server = await startFaultServer((_request, response, { stream }) => {
      response.writeHead(200, { 'content-type': stream ? 'text/event-stream' : 'application/json', 'content-encoding': 'gzip' })
      response.end(Buffer.from('these bytes are not gzip at all'.repeat(8)))
    })
    const error = expectInvokeError(await run(mode, { baseURL: server.url }), 'network_error')
    expect(error.message).toMatch(/Z_DATA_ERROR/)
    expect(server.hits).toBe(3)
  })

  it.each([
    ['an HTML page', '<!doctype html><html><body>Please log in</body></html>', 'text/html'],
    ['an empty body', '', 'application/json'],
  ])('should report a 200 with %s as invalid_response', async (_name, body, type) => {
    const server = await startFaultServer((_request, response) => {
      response.writeHead(200, { 'content-type': type })
      response.end(body)
    })
    const error = expectInvokeError(await run(mode, { baseURL: server.url }), 'invalid_response')
    expect(error.retryable).toBe(true)
    expect(server.hits).toBe(3)
    expect(executions).toBe(0)
  })

  it('should wait as long as Retry-After says, then succeed', async () => {
    const server = await startFaultServer((_request, response, { hit, stream }) => {
      if (hit === 1) {
        response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' })
        response.end(JSON.stringify({ error: { message: 'Rate limit reached', type: 'rate_limit_error' } }))
      } else answer(response, stream)
    })
    const outcome = await run(mode, { baseURL: server.url })
    expect(outcome.result?.toolResult).toBe('ok')
    expect(outcome.ms).toBeGreaterThan(950)
    expect(server.hits).toBe(2)
    expect(executions).toBe(1)
  })

  it('should stop after the allowed attempts when the server keeps answering 503', async () => {
    const server = await startFaultServer((_request, response) => {
      response.writeHead(503, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ error: { message: 'Service Unavailable' } }))
    })
    const error = expectInvokeError(await run(mode, { baseURL: server.url, retry: { limit: 3, baseDelayMs: 5 } }), 'server_error')
    expect(error.attempts).toHaveLength(3)
    expect(server.hits).toBe(4)
  })

  describe('a user abort', () => {
    const reason = new DOMException('The user stopped it', 'AbortError')

    /** Runs a call the caller aborts: before it starts, or when `handler` calls `abort` (the server knows how far the call got). */
    async function abortAt(handler: (abort: () => void) => Handler, when: 'before' | 'server' = 'server') {
      const controller = new AbortController()
      const abort = () => controller.abort(reason)
      const server = await startFaultServer(handler(abort))
      if (when === 'before') abort()
      const outcome = await run(mode, { baseURL: server.url }, { signal: controller.signal })
      expect(outcome.error).toBe(reason)
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0)
      return server
    }

    it('should reject with the caller\'s reason before anything is sent', async () => {
      const server = await abortAt(() => (_request, response, { stream }) => answer(response, stream), 'before')
      expect(server.hits).toBe(0)
    })

    it('should reject with the caller\'s reason while waiting for the headers', async () => {
      const server = await abortAt((abort) => (_request, _response, { later }) => later(20, abort))
      expect(server.hits).toBe(1)
    })

    it('should reject with the caller\'s reason in the middle of the body', async () => {
      await abortAt((abort) => (_request, response, { stream, later }) => {
        response.writeHead(200, { 'content-type': stream ? 'text/event-stream' : 'application/json' })
        response.write(stream ? streamEvents()[0]! : wholeBody().slice(0, 40))
        later(50, abort)
      })
      expect(executions).toBe(0)
    })

    it('should reject with the caller\'s reason during a backoff, without another request', async () => {
      const server = await abortAt((abort) => (_request, response, { later }) => {
        response.writeHead(503, { 'content-type': 'application/json', 'retry-after-ms': '5000' })
        response.end(JSON.stringify({ error: { message: 'busy' } }))
        later(300, abort)
      })
      expect(server.hits).toBe(1)
    })

    it('should reject with the caller\'s reason while the tool runs, which runs once', async () => {
      await abortAt((abort) => {
        onToolWait = abort
        return (_request, response, { stream }) => answer(response, stream, 'wait for abort')
      })
      onToolWait = undefined
      expect(executions).toBe(1)
    })
  })

  it('should run 500 concurrent calls to the end', async () => {
    const server = await startFaultServer((_request, response, { stream }) => answer(response, stream))
    const outcomes = await Promise.all(Array.from({ length: 500 }, () => run(mode, { baseURL: server.url })))
    expect(outcomes.filter((outcome) => outcome.result?.toolResult === 'ok')).toHaveLength(500)
    expect(server.hits).toBe(500)
    expect(executions).toBe(500)
  }, 60_000)

  it('should end each of 500 concurrent calls with 30 % faults in its result or a typed error', async () => {
    // A fixed sequence: the same faults every run.
    let seed = 7
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648
    const faults: Handler[] = [
      (request) => request.socket.destroy(),
      (_request, response) => {
        response.writeHead(503, { 'content-type': 'application/json' })
        response.end('{"error":{"message":"overloaded"}}')
      },
      (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/html' })
        response.end('<html>gateway</html>')
      },
      (request, response, { stream, later }) => {
        response.writeHead(200, { 'content-type': stream ? 'text/event-stream' : 'application/json', ...(stream ? {} : { 'content-length': '400' }) })
        response.write(stream ? streamEvents()[0]! : wholeBody().slice(0, 40))
        later(5, () => (stream ? response.end() : request.socket.destroy()))
      },
    ]
    const server = await startFaultServer((request, response, context) => {
      if (random() < 0.3) faults[Math.floor(random() * faults.length)]!(request, response, context)
      else answer(response, context.stream)
    })
    const limit = 4
    const outcomes = await Promise.all(Array.from({ length: 500 }, () => run(mode, { baseURL: server.url, retry: { limit, baseDelayMs: 5 } })))
    const succeeded = outcomes.filter((outcome) => outcome.result !== undefined)
    for (const outcome of outcomes) {
      if (outcome.result) expect(outcome.result.toolResult).toBe('ok')
      else expect(['network_error', 'server_error', 'invalid_response']).toContain((outcome.error as InvokeError).type)
    }
    // 0.3^5 of the calls may fail every attempt: nearly all succeed.
    expect(succeeded.length).toBeGreaterThan(490)
    expect(server.hits).toBeLessThanOrEqual(500 * (limit + 1))
    expect(server.hits).toBeGreaterThan(500)
    expect(executions).toBe(succeeded.length)
  }, 60_000)
})

describe('stream cut off', () => {
  it('should retry a stream that closes inside the arguments with no finish reason, never executing the cut call', async () => {
    const server = await startFaultServer((_request, response, { hit }) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      response.end(hit === 1 ? streamEvents()[0] : streamEvents().join(''))
    })
    const client = createClient({ baseURL: server.url, model: 'gpt-4.1-mini', retry: { limit: 2, baseDelayMs: 5 } })
    const stream = client.stream(messages, tools)
    const seen: string[] = []
    for await (const event of stream) seen.push(event.type)
    const result = await stream.result
    expect(result.toolResult).toBe('ok')
    expect(seen).toContain('reset')
    expect(server.hits).toBe(2)
    expect(executions).toBe(1)
    executions = 0
  })

  it('should call the cut network_error, not output_truncated, and name what happened', async () => {
    const server = await startFaultServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      response.end(streamEvents()[0])
    })
    const outcome = await run('stream', { baseURL: server.url, retry: 0 })
    const error = expectInvokeError(outcome, 'network_error')
    expect(error.retryable).toBe(true)
    expect(error.message).toMatch(/closed inside a tool call's arguments/)
    expect(executions).toBe(0)
  })

  it('should still call a length finish output_truncated, never retried', async () => {
    const server = await startFaultServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      response.end([streamEvents()[0], ...sseChunks([{ choices: [{ index: 0, delta: {}, finish_reason: 'length' }] }])].join(''))
    })
    const outcome = await run('stream', { baseURL: server.url })
    expect(expectInvokeError(outcome, 'output_truncated').retryable).toBe(false)
    expect(server.hits).toBe(1)
    expect(executions).toBe(0)
  })

  it('should read a stream that has every argument but ends without [DONE] or a finish reason', async () => {
    const server = await startFaultServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      response.end(streamEvents().slice(0, 2).join(''))
    })
    const outcome = await run('stream', { baseURL: server.url, retry: 0 })
    expect(outcome.result?.toolCall.args).toEqual(args)
    executions = 0
  })
})

describe('one signal for many calls', () => {
  it('should leave no abort listener behind on a signal reused for 5,000 calls', async () => {
    const server = await startFaultServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(wholeBody())
    })
    const client = createClient({ baseURL: server.url, model: 'gpt-4.1-mini' })
    const controller = new AbortController()
    let most = 0
    for (let call = 0; call < 5_000; call++) {
      const pending = client.invoke(messages, tools, { signal: controller.signal })
      most = Math.max(most, getEventListeners(controller.signal, 'abort').length)
      await pending
      if (call % 500 === 0) expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0)
    }
    // One listener per call in flight (the link of its request), gone when the call ends.
    expect(most).toBeLessThanOrEqual(1)
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0)
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([])
    expect(server.hits).toBe(5_000)
    expect(executions).toBe(5_000)
    executions = 0
  }, 120_000)
})
