import { createClient, type ChatMessage, type ChatResponse, type ClientConfig, type InvokeOptions, type ToolSet } from '../../index'
import { startScriptedServer, streamedReply, type RecordedRequest, type ScriptedReply, type ScriptedServer } from '../../testing'

/** `invoke` and `stream`: every loop test runs in both. */
export const modes = ['invoke', 'stream'] as const
export type Mode = (typeof modes)[number]

/**
 * A scripted server for the agent-loop tests: replies in order (the last repeats), a whole chat
 * response streamed when the request asks for a stream, and an optional check of each request that
 * may refuse it (as a strict server refuses a bad history).
 */
export async function startAnswerServer(check?: (request: RecordedRequest) => ScriptedReply | undefined) {
  let replies: Array<ChatResponse | ScriptedReply> = []
  const answer = (request: RecordedRequest, index: number): ScriptedReply => {
    const refused = check?.(request)
    if (refused) return refused
    const next = replies[Math.min(index, replies.length - 1)]!
    const response = 'choices' in next ? (next as ChatResponse) : (next as ScriptedReply).status === undefined && isResponse((next as ScriptedReply).body) ? ((next as ScriptedReply).body as ChatResponse) : undefined
    if (!response) return next as ScriptedReply
    return request.body.stream ? streamedReply(response) : { ...(next as ScriptedReply), body: response }
  }
  const server: ScriptedServer = await startScriptedServer({ script: answer })
  return {
    server,
    /** Sets the replies (chat responses, or whole scripted replies such as an HTTP error) and forgets recorded requests. */
    script(...next: Array<ChatResponse | ScriptedReply>) {
      replies = next
      server.setScript(answer)
    },
    /** One step in the given mode against this server. */
    run<Tools extends ToolSet>(mode: Mode, config: Partial<ClientConfig>, messages: ChatMessage[], tools: Tools, options: InvokeOptions<Extract<keyof Tools, string>> = {}) {
      const client = createClient({ baseURL: server.url, model: 'acme-1', retry: { limit: 2, baseDelayMs: 1, jitter: false }, ...config })
      return mode === 'invoke' ? client.invoke(messages, tools, options) : client.stream(messages, tools, options).result
    },
  }
}

function isResponse(body: unknown): boolean {
  return typeof body === 'object' && body !== null && Array.isArray((body as { choices?: unknown }).choices)
}
