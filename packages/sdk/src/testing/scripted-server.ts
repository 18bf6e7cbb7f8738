import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ChatRequest, ChatResponse, ChatToolCall } from '../types'

/** One scripted answer of the {@link startScriptedServer} server. */
export interface ScriptedReply {
  /** HTTP status. Default 200. */
  status?: number
  headers?: Record<string, string>
  /** A JSON body (serialised) or a raw string (sent as is). */
  body?: unknown
  /** Wait this long before answering. */
  delayMs?: number
  /** Destroy the connection instead of answering (a connection reset). */
  reset?: boolean
  /** Send the headers, then destroy the connection after this many bytes of `body`. */
  resetAfterBytes?: number
  /**
   * Stream an SSE body: each entry is written as is (include `data: …\n\n` yourself, or use
   * {@link sseChunks}); `{ text, delayMs }` waits before writing.
   */
  chunks?: Array<string | { text: string; delayMs?: number }>
}

/** What the server recorded of one request. */
export interface RecordedRequest {
  method: string
  path: string
  headers: IncomingMessage['headers']
  /** The parsed JSON body, or the raw text when it was not JSON. */
  body: ChatRequest
  rawBody: string
}

export interface ScriptedServerOptions {
  /** Replies in order (the last one repeats when the script runs out), or a function of the request. */
  script: ScriptedReply[] | ((request: RecordedRequest, index: number) => ScriptedReply | Promise<ScriptedReply>)
  /** Port on 127.0.0.1. Default: a free one. */
  port?: number
}

/** A running scripted server. */
export interface ScriptedServer {
  /** The base URL to give `createClient`, e.g. `http://127.0.0.1:41234/v1`. */
  url: string
  /** Every request received, in order. */
  requests: RecordedRequest[]
  /** Replaces the script (and forgets recorded requests). */
  setScript(script: ScriptedServerOptions['script']): void
  close(): Promise<void>
}

/**
 * Starts an OpenAI-compatible HTTP server on 127.0.0.1 that replays scripted replies. It is not a
 * model: it answers what the script says, for tests, demos and adapter authors. CORS is open so
 * browser pages can call it.
 *
 * @example
 * ```ts
 * const server = await startScriptedServer({ script: [{ body: toolCallResponse('done', { text: 'hi' }) }] })
 * const client = createClient({ baseURL: server.url, model: 'gpt-4.1-mini' })
 * await client.invoke(messages, tools)
 * await server.close()
 * ```
 */
export async function startScriptedServer(options: ScriptedServerOptions): Promise<ScriptedServer> {
  let script = options.script
  const requests: RecordedRequest[] = []
  const sockets = new Set<import('node:net').Socket>()
  const server = createServer((request, response) => {
    void handle(request, response)
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })

  async function handle(request: IncomingMessage, response: ServerResponse) {
    response.setHeader('access-control-allow-origin', '*')
    response.setHeader('access-control-allow-headers', '*')
    response.setHeader('access-control-allow-methods', 'POST, GET, OPTIONS')
    response.setHeader('access-control-expose-headers', '*')
    if (request.method === 'OPTIONS') {
      response.writeHead(204).end()
      return
    }
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const rawBody = Buffer.concat(chunks).toString('utf8')
    let body: ChatRequest
    try {
      body = JSON.parse(rawBody) as ChatRequest
    } catch {
      body = rawBody as unknown as ChatRequest
    }
    const recorded: RecordedRequest = { method: request.method ?? 'GET', path: request.url ?? '/', headers: request.headers, body, rawBody }
    const index = requests.push(recorded) - 1
    let reply: ScriptedReply
    try {
      reply = typeof script === 'function' ? await script(recorded, index) : (script[Math.min(index, script.length - 1)] ?? { status: 500, body: { error: { message: 'empty script' } } })
    } catch (error) {
      reply = { status: 500, body: { error: { message: `script threw: ${String(error)}` } } }
    }
    if (reply.delayMs) await wait(reply.delayMs)
    if (reply.reset) {
      request.socket.destroy()
      return
    }
    const isStream = reply.chunks !== undefined
    const headers: Record<string, string> = {
      'content-type': isStream ? 'text/event-stream' : typeof reply.body === 'string' ? guessType(reply.body) : 'application/json',
      ...(isStream ? { 'cache-control': 'no-cache' } : {}),
      ...reply.headers,
    }
    response.writeHead(reply.status ?? 200, headers)
    if (isStream) {
      response.flushHeaders()
      for (const chunk of reply.chunks!) {
        const { text, delayMs } = typeof chunk === 'string' ? { text: chunk, delayMs: 0 } : chunk
        if (delayMs) await wait(delayMs)
        if (response.destroyed) return
        response.write(text)
      }
      response.end()
      return
    }
    const payload = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body)
    if (reply.resetAfterBytes !== undefined) {
      response.flushHeaders()
      response.write(payload.slice(0, reply.resetAfterBytes), () => {
        setTimeout(() => request.socket.destroy(), 10)
      })
      return
    }
    response.end(payload)
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    setScript(next) {
      script = next
      requests.length = 0
    },
    close() {
      for (const socket of sockets) socket.destroy()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}

function guessType(body: string): string {
  return /^\s*</.test(body) ? 'text/html' : /^\s*[[{]/.test(body) ? 'application/json' : 'text/plain'
}

function wait(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

let counter = 0

/** Options of the response builders. */
export interface ResponseOptions {
  finishReason?: string | null
  usage?: ChatResponse['usage']
  /** Extra fields merged into the message (e.g. `reasoning_content`). */
  message?: Record<string, unknown>
}

/**
 * A chat-completions response whose message carries the given tool calls.
 *
 * @example
 * ```ts
 * toolCallResponse('done', { text: 'ok' })
 * toolCallResponse([{ name: 'a', args: {} }, { name: 'b', args: '{"x":1}' }])
 * ```
 */
export function toolCallResponse(
  nameOrCalls: string | Array<{ name: string; args: unknown; id?: string }>,
  args?: unknown,
  options: ResponseOptions = {},
): ChatResponse {
  const calls = typeof nameOrCalls === 'string' ? [{ name: nameOrCalls, args }] : nameOrCalls
  const toolCalls: ChatToolCall[] = calls.map((call, index) => ({
    id: 'id' in call && call.id !== undefined ? call.id : `call_${++counter}`,
    type: 'function',
    index,
    function: { name: call.name, arguments: typeof call.args === 'string' ? call.args : JSON.stringify(call.args ?? {}) },
  }))
  return chatResponse({ role: 'assistant', content: null, tool_calls: toolCalls, ...options.message }, { finishReason: 'tool_calls', ...options })
}

/**
 * A chat-completions response whose message has only text content (a model writing its call as text).
 *
 * @example
 * ```ts
 * contentResponse('<tool_call>{"name":"done","arguments":{"text":"ok"}}</tool_call>')
 * ```
 */
export function contentResponse(content: string | null, options: ResponseOptions = {}): ChatResponse {
  return chatResponse({ role: 'assistant', content, ...options.message }, { finishReason: 'stop', ...options })
}

function chatResponse(message: Record<string, unknown>, options: ResponseOptions): ChatResponse {
  return {
    id: `chatcmpl-${++counter}`,
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'scripted',
    choices: [{ index: 0, message, finish_reason: options.finishReason === undefined ? 'stop' : options.finishReason }],
    usage: options.usage ?? { prompt_tokens: 12, completion_tokens: 8, total_tokens: 20 },
  }
}

/**
 * Turns objects into SSE `data:` lines, ending with `data: [DONE]` unless `done` is false.
 *
 * @example
 * ```ts
 * { chunks: sseChunks([{ choices: [{ delta: { content: 'hi' } }] }]) }
 * ```
 */
export function sseChunks(events: unknown[], options: { done?: boolean } = {}): string[] {
  const out = events.map((event) => `data: ${typeof event === 'string' ? event : JSON.stringify(event)}\n\n`)
  if (options.done !== false) out.push('data: [DONE]\n\n')
  return out
}
