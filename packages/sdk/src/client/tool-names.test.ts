import { afterAll, beforeAll, beforeEach, describe, expect, it, vi, type Mock } from 'vitest'
import { z } from 'zod'
import { isInvokeError } from '../errors/invoke-error'
import { createMacroTool } from '../macro/create-macro-tool'
import { repairToolCall } from '../repair/repair-tool-call'
import { contentResponse, startScriptedServer, streamedReply, toolCallResponse, type ScriptedReply, type ScriptedServer } from '../testing'
import { defineTool } from '../tool/define-tool'
import type { ChatMessage, ChatResponse } from '../types'
import type { InvokeResult } from './invoke-result'
import { createClient } from './create-client'

// Names real tool sets carry (MCP servers, inference engines' parser tests) that the OpenAI API refuses.
const OWN = 'Calendar.create_event'
const WIRE = 'Calendar_create_event'
const LONG = `mcp__google_workspace__${'calendar_events_insert_with_attendees_'.repeat(2)}`
const args = { title: 'review', day: '2026-12-02' }

let server: ScriptedServer
let created: Mock<(input: { title: string; day: string }) => Promise<{ id: string; title: string; day: string }>>

function makeTools() {
  created = vi.fn(async (input: { title: string; day: string }) => ({ id: 'evt_1', ...input }))
  return {
    [OWN]: defineTool({ description: 'Create a calendar event', inputSchema: z.object({ title: z.string(), day: z.string() }), execute: created }),
    'api.tools.search': defineTool({ description: 'Search', inputSchema: z.object({ query: z.string() }), execute: async () => 'found' }),
    [LONG]: defineTool({ description: 'Insert an event', inputSchema: z.object({ title: z.string() }), execute: async () => 'inserted' }),
    done: defineTool({ description: 'Finish', inputSchema: z.object({ text: z.string() }), execute: async ({ text }) => text }),
  }
}

const history: ChatMessage[] = [{ role: 'user', content: 'book the review' }]
const client = () => createClient({ baseURL: server.url, model: 'gpt-4.1-mini', retry: 0 })
// One scripted answer for both invoke() (whole) and stream() (as SSE chunks).
const answer = (response: ChatResponse) => server.setScript((request) => (request.body.stream ? streamedReply(response) : { body: response }))
const sentNames = (index: number) => server.requests[index]!.body.tools!.map((tool) => tool.function.name)

beforeAll(async () => {
  server = await startScriptedServer({ script: [] as ScriptedReply[] })
})
afterAll(() => server.close())
beforeEach(() => server.setScript([]))

const modes = [
  ['invoke', (messages: ChatMessage[], tools: ReturnType<typeof makeTools>, options = {}) => client().invoke(messages, tools, options)],
  ['stream', (messages: ChatMessage[], tools: ReturnType<typeof makeTools>, options = {}) => client().stream(messages, tools, options).result],
] as const

describe.each(modes)('client.%s with tool names the OpenAI API refuses', (mode, run) => {
  it('should send wire names, map the call back to the own name, execute once, and send the history under wire names again', async () => {
    const tools = makeTools()
    answer(toolCallResponse(WIRE, args))
    const result: InvokeResult = await run(history, tools, { toolChoiceName: OWN })

    const [first] = server.requests
    expect(sentNames(0)).toEqual([WIRE, 'api_tools_search', expect.stringMatching(/^mcp__google_workspace__calendar_events_insert_with_\w+$/), 'done'])
    expect(sentNames(0)[2]).toHaveLength(64)
    expect(first!.body.tool_choice).toEqual({ type: 'function', function: { name: WIRE } })
    expect(result.toolCall).toMatchObject({ name: OWN, args })
    expect(result.toolResult).toEqual({ id: 'evt_1', ...args })
    expect(created).toHaveBeenCalledTimes(1)
    expect(created.mock.calls[0]![0]).toEqual(args)
    // The wire name is what was sent: reading it back is no repair.
    expect(result.fixes).toEqual([])
    expect(result.messages[0]!.tool_calls![0]!.function.name).toBe(OWN)
    expect(result.messages[1]).toEqual({ role: 'tool', tool_call_id: result.toolCall.id, content: JSON.stringify({ id: 'evt_1', ...args }) })

    // Next step: the caller's history holds the own name; the request carries the wire name.
    const messages = [...history, ...result.messages]
    answer(toolCallResponse('done', { text: 'booked' }))
    const next = await run(messages, tools)
    expect(next.toolCall.name).toBe('done')
    const sent = server.requests[0]!.body.messages
    expect(sent[1]!.tool_calls![0]!.function.name).toBe(WIRE)
    expect(sent[1]!.tool_calls![0]!.id).toBe(result.toolCall.id)
    expect(sent[2]).toEqual(result.messages[1])
    // The caller's messages are never modified.
    expect(messages[1]!.tool_calls![0]!.function.name).toBe(OWN)
    expect(created).toHaveBeenCalledTimes(1)
  })

  it('should take a call written as text under the own name', async () => {
    const tools = makeTools()
    answer(contentResponse(`<tool_call>\n{"name": "${OWN}", "arguments": ${JSON.stringify(args)}}\n</tool_call>`))
    const result = await run(history, tools)
    expect(result.toolCall).toMatchObject({ name: OWN, args })
    expect(result.messages[0]!.tool_calls![0]!.function.name).toBe(OWN)
    expect(result.fixes).not.toContain('normalized-tool-name')
    expect(created).toHaveBeenCalledTimes(1)
  })

  it('should take a call written as text under the wire name, and a long name under its shortened one', async () => {
    const tools = makeTools()
    answer(contentResponse(`<function=${WIRE}>\n<parameter=title>\nreview\n</parameter>\n<parameter=day>\n2026-12-02\n</parameter>\n</function>`))
    const result = await run(history, tools)
    expect(result.toolCall).toMatchObject({ name: OWN, args })
    expect(created).toHaveBeenCalledTimes(1)

    const shortened = sentNames(0)[2]!
    answer(toolCallResponse(shortened, { title: 'x' }))
    const long = await run(history, tools)
    expect(long.toolCall.name).toBe(LONG)
    expect(long.toolResult).toBe('inserted')
  })

  it('should resend a failed answer under the wire name when it reasks, and execute only the valid call', async () => {
    const tools = makeTools()
    const replies = [toolCallResponse(WIRE, { title: 'review' }), toolCallResponse(WIRE, args)]
    server.setScript((request, index) => (request.body.stream ? streamedReply(replies[index]!) : { body: replies[index]! }))
    const retrying = createClient({ baseURL: server.url, model: 'gpt-4.1-mini', retry: { limit: 1, baseDelayMs: 1, jitter: false } })
    const result = await (mode === 'invoke' ? retrying.invoke(history, tools) : retrying.stream(history, tools).result)
    expect(result.toolCall).toMatchObject({ name: OWN, args })
    expect(result.attempts).toBe(2)
    const resent = server.requests[1]!.body.messages
    expect(resent[1]!.tool_calls![0]!.function.name).toBe(WIRE)
    expect(server.requests[1]!.body.tools!.map((tool) => tool.function.name)[0]).toBe(WIRE)
    expect(created).toHaveBeenCalledTimes(1)
  })

  it('should take a native call under the own name too', async () => {
    const tools = makeTools()
    answer(toolCallResponse('api.tools.search', { query: 'q' }))
    const result = await run(history, tools)
    expect(result.toolCall).toMatchObject({ name: 'api.tools.search', args: { query: 'q' } })
    expect(result.toolResult).toBe('found')
  })
})

describe('tool names that collide on the wire', () => {
  it('should be a config_error before any request, naming both', async () => {
    let sent = 0
    const fetching = createClient({ baseURL: 'http://127.0.0.1:9/v1', model: 'm', customFetch: async () => (sent++, new Response('{}')) })
    const tool = defineTool({ inputSchema: z.object({}) })
    for (const call of [() => fetching.invoke(history, { 'web.search': tool, web_search: tool }), () => fetching.stream(history, { 'web.search': tool, web_search: tool }).result]) {
      const error = await call().catch((caught: unknown) => caught)
      expect(isInvokeError(error) && error.type).toBe('config_error')
      expect(String(error)).toContain('tools "web.search" and "web_search" are both sent as "web_search"')
    }
    expect(sent).toBe(0)
  })
})

describe('wire names through an injected fetch', () => {
  it('should send and read back the same names as over HTTP', async () => {
    const bodies: Array<{ tools: Array<{ function: { name: string } }> }> = []
    const fetching = createClient({
      baseURL: 'http://127.0.0.1:9/v1',
      model: 'm',
      customFetch: async (_url, init) => {
        bodies.push(JSON.parse(String(init?.body)))
        return new Response(JSON.stringify(toolCallResponse('api_tools_search', { query: 'q' })), { headers: { 'content-type': 'application/json' } })
      },
    })
    const result = await fetching.invoke(history, makeTools())
    expect(bodies[0]!.tools.map((tool) => tool.function.name).slice(0, 2)).toEqual([WIRE, 'api_tools_search'])
    expect(result.toolCall.name).toBe('api.tools.search')
  })
})

describe('createMacroTool with action names the OpenAI API refuses as function names', () => {
  it('should keep them as the keys of the action object, not rename them', async () => {
    const tools = makeTools()
    const AgentOutput = createMacroTool({ [OWN]: tools[OWN], done: tools.done })
    answer(toolCallResponse('AgentOutput', { memory: 'm', action: { [OWN]: args } }))
    const result = await client().invoke(history, { AgentOutput }, { toolChoiceName: 'AgentOutput' })
    const parameters = server.requests[0]!.body.tools![0]!.function.parameters as { properties: { action: { properties: Record<string, unknown> } } }
    expect(Object.keys(parameters.properties.action.properties)).toEqual([OWN, 'done'])
    expect(result.toolCall.args.action).toEqual({ [OWN]: args })
    expect(created).toHaveBeenCalledTimes(1)
  })
})

describe('repairToolCall', () => {
  it('should resolve the own name, the wire name and a loose spelling of both to the tool', () => {
    const tools = makeTools()
    for (const name of [OWN, WIRE, 'calendar-create-event', `functions.${WIRE}`]) {
      const message = { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function' as const, function: { name, arguments: JSON.stringify(args) } }] }
      expect(repairToolCall(message, tools).toolCall.name, name).toBe(OWN)
    }
  })

  it('should resolve a spelling loosely equal to both a tool\'s own name and its wire name to that tool', () => {
    const tools = { 'get weather': defineTool({ inputSchema: z.object({ city: z.string() }) }), done: makeTools().done }
    for (const name of ['getWeather', 'Get-Weather', 'get_weather', 'get weather']) {
      const message = { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function' as const, function: { name, arguments: '{"city": "Oslo"}' } }] }
      expect(repairToolCall(message, tools).toolCall, name).toEqual({ id: 'c', name: 'get weather', args: { city: 'Oslo' } })
    }
  })
})
