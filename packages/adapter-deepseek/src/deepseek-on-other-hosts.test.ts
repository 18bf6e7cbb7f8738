import { createClient, type ChatMessage, type ChatResponse, type ClientConfig } from '@wildcall/sdk'
import { startScriptedServer, streamedReply, toolCallResponse, type RecordedRequest, type ScriptedReply, type ScriptedServer } from '@wildcall/sdk/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool } from '@wildcall/sdk'
import { deepseekAdapter } from './deepseek-adapter'

// DeepSeek models served by others, over a real HTTP server: what is DeepSeek's API's own stays there.
const modes = ['invoke', 'stream'] as const
type Mode = (typeof modes)[number]
const tools = { click: defineTool({ description: 'Click an element', inputSchema: z.object({ index: z.number().int() }), execute: ({ index }) => `clicked ${index}` }) }
const user: ChatMessage = { role: 'user', content: 'Search for wildcall.' }
const refusal = (message: string): ScriptedReply => ({ status: 400, body: { error: { message, type: 'invalid_request_error' } } })
const assistantTurns = (request: RecordedRequest) => (request.body.messages ?? []).filter((message) => message.role === 'assistant')

function endpoint(refuse: (request: RecordedRequest) => ScriptedReply | undefined) {
  return (request: RecordedRequest, index: number): ScriptedReply => {
    const refused = refuse(request)
    if (refused) return refused
    const response: ChatResponse = toolCallResponse([{ id: `call_${index}`, name: 'click', args: { index } }], undefined, { message: { reasoning_content: `Thinking about step ${index}.` } })
    return request.body.stream ? streamedReply(response) : { body: response }
  }
}

let server: ScriptedServer
beforeAll(async () => {
  server = await startScriptedServer({ script: [] })
})
afterAll(() => server.close())

const makeClient = (config: Partial<ClientConfig>) => createClient({ baseURL: server.url, model: 'acme-1', maxRetries: 0, ...config })
const step = (client: ReturnType<typeof makeClient>, mode: Mode, messages: ChatMessage[], options = {}) =>
  mode === 'invoke' ? client.invoke(messages, tools, options) : client.stream(messages, tools, options).result

describe.each(modes)('deepseekAdapter on other hosts (%s)', (mode) => {
  it("should strip a reasoning field the DeepSeek adapter echoes when the host refuses it (Groq's wording)", async () => {
    const groq = "'messages.1' : for 'role:assistant' the following must be satisfied[('messages.1' : property 'reasoning_content' is unsupported)]"
    server.setScript(endpoint((request) => (assistantTurns(request).some((turn) => 'reasoning_content' in turn) ? refusal(groq) : undefined)))
    const client = makeClient({ model: 'deepseek-r1-distill-llama-70b', adapters: [deepseekAdapter()] })
    const first = await step(client, mode, [user])
    const second = await step(client, mode, [user, ...first.messages])
    expect(second.fixes).toContain('stripped-message-field:reasoning_content')
    expect(server.requests).toHaveLength(3)
    expect(client.profile.messageFields).toEqual({ reasoning_content: 'strip' })
  })

  it('should keep the named tool_choice of DeepSeek-V3.2 on a vLLM-like local server', async () => {
    // vLLM without --enable-auto-tool-choice: a named choice works, none does not.
    server.setScript(endpoint((request) => (typeof request.body.tool_choice !== 'object' ? refusal('"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set') : undefined)))
    const client = makeClient({ model: 'DeepSeek-V3.2', adapters: [deepseekAdapter()] })
    const result = await step(client, mode, [user], { toolChoiceName: 'click' })
    expect(result.toolCall.name).toBe('click')
    expect(server.requests).toHaveLength(1)
    expect(server.requests[0]!.body.tool_choice).toEqual({ type: 'function', function: { name: 'click' } })
  })

})
