import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool as ListedTool } from '@modelcontextprotocol/sdk/types.js'
import { createClient, createMacroTool, isInvokeError, type InvokeError } from '@wildcall/sdk'
import { sseChunks, startScriptedServer, toolCallResponse, type ScriptedServer } from '@wildcall/sdk/testing'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { McpToolError, mcpTools } from './index'

// A real MCP server (the SDK's low-level `Server`, so the test controls paging and raw JSON
// Schemas) connected to a real `Client` over the SDK's in-process transport pair.
interface ServerTool {
  tool: ListedTool
  run: (args: Record<string, unknown>, signal: AbortSignal) => Promise<CallToolResult> | CallToolResult
}

interface RunningServer {
  client: Client
  /** The cursor of every tools/list request, in order. */
  listCursors: Array<string | undefined>
  calls: Array<{ name: string; args: unknown }>
  close(): Promise<void>
}

async function startMcpServer(tools: ServerTool[], options: { pageSize?: number } = {}): Promise<RunningServer> {
  const server = new Server({ name: 'test-server', version: '1.0.0' }, { capabilities: { tools: {} } })
  const listCursors: Array<string | undefined> = []
  const calls: RunningServer['calls'] = []
  const pageSize = options.pageSize ?? tools.length
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    const cursor = request.params?.cursor
    listCursors.push(cursor)
    const start = cursor === undefined ? 0 : Number(cursor.replace('page-', ''))
    const end = start + pageSize
    return { tools: tools.slice(start, end).map((entry) => entry.tool), ...(end < tools.length ? { nextCursor: `page-${end}` } : {}) }
  })
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const entry = tools.find((candidate) => candidate.tool.name === request.params.name)
    if (!entry) return { content: [{ type: 'text', text: `no tool ${request.params.name}` }], isError: true }
    calls.push({ name: request.params.name, args: request.params.arguments })
    return entry.run(request.params.arguments ?? {}, extra.signal)
  })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: 'wildcall-test', version: '1.0.0' })
  await client.connect(clientSide)
  return {
    client,
    listCursors,
    calls,
    close: async () => {
      await client.close()
      await server.close()
    },
  }
}

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] })

const weather: ServerTool = {
  tool: {
    name: 'get_weather',
    description: 'Current weather for a city',
    inputSchema: { type: 'object', properties: { city: { type: 'string' }, units: { type: 'string', enum: ['celsius', 'fahrenheit'], default: 'celsius' } }, required: ['city'] },
  },
  run: ({ city, units }) => text(`${String(city)}: 21 degrees ${String(units)}`),
}

// A schema with `$ref`/`$defs`, as servers generated from OpenAPI or pydantic write them.
const createEvent: ServerTool = {
  tool: {
    name: 'calendar.create_event',
    description: 'Create a calendar event',
    inputSchema: {
      type: 'object',
      properties: { title: { type: 'string' }, when: { $ref: '#/$defs/Slot' } },
      required: ['title', 'when'],
      $defs: { Slot: { type: 'object', properties: { day: { type: 'string', format: 'date' }, hours: { type: 'integer', minimum: 1, maximum: 8 } }, required: ['day', 'hours'] } },
    },
  },
  run: (args) => ({ content: [{ type: 'text', text: 'created' }], structuredContent: { id: 'evt_1', ...args } }),
}

const failing: ServerTool = {
  tool: { name: 'delete_repo', description: 'Delete a repository', inputSchema: { type: 'object', properties: { repo: { type: 'string' } }, required: ['repo'] } },
  run: ({ repo }) => ({ content: [{ type: 'text', text: `permission denied for ${String(repo)}` }], isError: true }),
}

const crashing: ServerTool = {
  tool: { name: 'crash', description: 'Throws on the server', inputSchema: { type: 'object', properties: {} } },
  run: () => {
    throw new Error('disk on fire')
  },
}

let model: ScriptedServer
beforeAll(async () => {
  model = await startScriptedServer({ script: [] })
})
afterAll(() => model.close())

const servers: RunningServer[] = []
async function connect(tools: ServerTool[], options?: { pageSize?: number }) {
  const running = await startMcpServer(tools, options)
  servers.push(running)
  return running
}
afterEach(async () => {
  for (const running of servers.splice(0)) await running.close()
})

const llm = () => createClient({ baseURL: model.url, model: 'gpt-4.1-mini', retry: 0 })
const messages = [{ role: 'user', content: 'go' }]

async function invokeError(run: Promise<unknown>): Promise<InvokeError> {
  try {
    await run
  } catch (error) {
    if (isInvokeError(error)) return error
    throw error
  }
  throw new Error('expected an InvokeError')
}

describe('mcpTools', () => {
  it('should list the tools with their descriptions and send their schemas to the model', async () => {
    const { client } = await connect([weather, createEvent])
    const tools = await mcpTools(client)
    expect(Object.keys(tools)).toEqual(['get_weather', 'calendar_create_event'])
    expect(tools.get_weather!.description).toBe('Current weather for a city')
    expect(tools.calendar_create_event!.mcp.name).toBe('calendar.create_event')

    model.setScript([{ body: toolCallResponse('get_weather', { city: 'Oslo' }) }])
    await llm().invoke(messages, tools)
    const sent = model.requests[0]!.body.tools!
    expect(sent.map((tool) => tool.function.name)).toEqual(['get_weather', 'calendar_create_event'])
    // The `$ref` is inlined for the model: many OpenAI-compatible servers do not follow references.
    expect(sent[1]!.function.parameters).toEqual({
      type: 'object',
      properties: { title: { type: 'string' }, when: { type: 'object', properties: { day: { type: 'string', format: 'date' }, hours: { type: 'integer', minimum: 1, maximum: 8 } }, required: ['day', 'hours'] } },
      required: ['title', 'when'],
    })
  })

  it('should call the server tool with the validated arguments (defaults filled) and return its text', async () => {
    const running = await connect([weather])
    model.setScript([{ body: toolCallResponse('get_weather', { city: 'Oslo' }) }])
    const result = await llm().invoke(messages, await mcpTools(running.client))
    expect(running.calls).toEqual([{ name: 'get_weather', args: { city: 'Oslo', units: 'celsius' } }])
    expect(result.toolResult).toBe('Oslo: 21 degrees celsius')
  })

  it('should repair and coerce through a $ref schema, return structured content, and name the path of a bad field', async () => {
    const running = await connect([createEvent])
    const tools = await mcpTools(running.client)
    model.setScript([{ body: toolCallResponse('calendar_create_event', { title: 'standup', when: '{"day": "2026-12-01", "hours": "2"}' }) }])
    const result = await llm().invoke(messages, tools)
    expect(result.fixes).toEqual(['double-encoded-arguments', 'coerced:integer'])
    expect(result.toolResult).toEqual({ id: 'evt_1', title: 'standup', when: { day: '2026-12-01', hours: 2 } })

    model.setScript([{ body: toolCallResponse('calendar_create_event', { title: 'offsite', when: { day: '2026-12-01', hours: 12 } }) }])
    const error = await invokeError(llm().invoke(messages, tools))
    expect(error.type).toBe('invalid_tool_args')
    expect(error.message).toContain('calendar_create_event.when.hours: expected integer ≥ 1 and ≤ 8, got 12')
    expect(running.calls).toHaveLength(1)
  })

  it('should turn isError: true into a tool_execution_error carrying the server text, and a server exception too', async () => {
    const { client } = await connect([failing, crashing])
    const tools = await mcpTools(client)
    model.setScript([{ body: toolCallResponse('delete_repo', { repo: 'wildcall' }) }])
    const refused = await invokeError(llm().invoke(messages, tools))
    expect(refused.type).toBe('tool_execution_error')
    expect(refused.message).toContain('permission denied for wildcall')
    expect(refused.cause).toBeInstanceOf(McpToolError)
    expect((refused.cause as McpToolError).result.isError).toBe(true)

    model.setScript([{ body: toolCallResponse('crash', {}) }])
    const crashed = await invokeError(llm().invoke(messages, tools))
    expect(crashed.type).toBe('tool_execution_error')
    expect(crashed.message).toContain('disk on fire')
  })

  it('should abort a call in flight with the step signal: the server sees the cancellation and invoke rejects with the caller reason', async () => {
    let started!: () => void
    const running = new Promise<void>((resolve) => (started = resolve))
    let serverSawAbort = false
    const slow: ServerTool = {
      tool: { name: 'slow_scan', description: 'Takes a while', inputSchema: { type: 'object', properties: {} } },
      run: (_args, signal) =>
        new Promise((resolve) => {
          started()
          const timer = setTimeout(() => resolve(text('finished')), 10_000)
          signal.addEventListener('abort', () => {
            serverSawAbort = true
            clearTimeout(timer)
            resolve(text('cancelled'))
          })
        }),
    }
    const { client } = await connect([slow])
    const tools = await mcpTools(client)
    model.setScript([{ body: toolCallResponse('slow_scan', {}) }])
    const controller = new AbortController()
    const reason = new DOMException('user pressed stop', 'AbortError')
    void running.then(() => controller.abort(reason))
    const started_ = Date.now()
    await expect(llm().invoke(messages, tools, { signal: controller.signal })).rejects.toBe(reason)
    expect(Date.now() - started_).toBeLessThan(5_000)
    await expect.poll(() => serverSawAbort).toBe(true)
  })

  it('should fail a call that outlasts timeoutMs as a tool_execution_error, and refuse a bad timeoutMs', async () => {
    const slow: ServerTool = { tool: { name: 'slow', inputSchema: { type: 'object', properties: {} } }, run: () => new Promise((resolve) => setTimeout(() => resolve(text('late')), 2_000)) }
    const { client } = await connect([slow])
    model.setScript([{ body: toolCallResponse('slow', {}) }])
    const error = await invokeError(llm().invoke(messages, await mcpTools(client, { timeoutMs: 50 })))
    expect(error.type).toBe('tool_execution_error')
    expect(error.message).toMatch(/timed out/i)
    expect((await invokeError(mcpTools(client, { timeoutMs: -1 }))).type).toBe('config_error')
  })

  it('should read every page of tools/list', async () => {
    const many = Array.from({ length: 7 }, (_, index): ServerTool => ({ tool: { name: `tool_${index}`, inputSchema: { type: 'object', properties: {} } }, run: () => text(`ran ${index}`) }))
    const running = await connect(many, { pageSize: 3 })
    const tools = await mcpTools(running.client)
    expect(Object.keys(tools)).toEqual(many.map((entry) => entry.tool.name))
    expect(running.listCursors).toEqual([undefined, 'page-3', 'page-6'])
  })

  it('should make names the OpenAI API accepts, unique, with a prefix, and map each back to the server name', async () => {
    const long = `a_very_${'long_'.repeat(20)}tool`
    const named = (name: string): ServerTool => ({ tool: { name, inputSchema: { type: 'object', properties: {} } }, run: () => text(`ran ${name}`) })
    const running = await connect([named('files/read'), named('files.read'), named(`${long}_one`), named(`${long}_two`), named('__proto__')])
    const tools = await mcpTools(running.client, { prefix: 'fs' })
    const names = Object.keys(tools)
    expect(names.slice(0, 2)).toEqual(['fs_files_read', 'fs_files_read_2'])
    expect(names.slice(4)).toEqual(['fs___proto__'])
    for (const name of names) expect(name).toMatch(/^[\w-]{1,64}$/)
    expect(new Set(names).size).toBe(5)
    expect(names.map((name) => tools[name]!.mcp.name)).toEqual(['files/read', 'files.read', `${long}_one`, `${long}_two`, '__proto__'])

    model.setScript([{ body: toolCallResponse('fs_files_read_2', {}) }])
    const result = await llm().invoke(messages, tools)
    expect(result.toolResult).toBe('ran files.read')
    expect(running.calls).toEqual([{ name: 'files.read', args: {} }])
  })

  it('should run a tool keyed by its dotted server name: sent under a wire-safe name, called and recorded under its own', async () => {
    const running = await connect([weather, createEvent])
    const listed = await mcpTools(running.client)
    // Keyed by the names the server uses, as an app that shows them would do.
    const tools = Object.fromEntries(Object.values(listed).map((tool) => [tool.mcp.name, tool]))
    const input = { title: 'review', when: { day: '2026-12-02', hours: 1 } }
    model.setScript([{ body: toolCallResponse('calendar_create_event', input) }, { body: toolCallResponse('get_weather', { city: 'Oslo' }) }])
    const result = await llm().invoke(messages, tools, { toolChoiceName: 'calendar.create_event' })
    expect(model.requests[0]!.body.tools!.map((tool) => tool.function.name)).toEqual(['get_weather', 'calendar_create_event'])
    expect(model.requests[0]!.body.tool_choice).toEqual({ type: 'function', function: { name: 'calendar_create_event' } })
    expect(result.toolCall).toMatchObject({ name: 'calendar.create_event', args: input })
    expect(result.messages[0]!.tool_calls![0]!.function.name).toBe('calendar.create_event')
    expect(result.toolResult).toEqual({ id: 'evt_1', ...input })
    expect(running.calls).toEqual([{ name: 'calendar.create_event', args: input }])

    await llm().invoke([...messages, ...result.messages], tools)
    expect(model.requests[1]!.body.messages[1]!.tool_calls![0]!.function.name).toBe('calendar_create_event')
    expect(running.calls.map((call) => call.name)).toEqual(['calendar.create_event', 'get_weather'])
  })

  it('should keep the tools of two servers apart with a prefix each', async () => {
    const a = await connect([weather])
    const b = await connect([weather])
    const tools = { ...(await mcpTools(a.client, { prefix: 'eu' })), ...(await mcpTools(b.client, { prefix: 'us' })) }
    expect(Object.keys(tools)).toEqual(['eu_get_weather', 'us_get_weather'])
    model.setScript([{ body: toolCallResponse('us_get_weather', { city: 'Boston', units: 'fahrenheit' }) }])
    await llm().invoke(messages, tools)
    expect(a.calls).toEqual([])
    expect(b.calls).toEqual([{ name: 'get_weather', args: { city: 'Boston', units: 'fahrenheit' } }])
  })

  it('should work as the actions of a macro tool, in invoke and in stream', async () => {
    const running = await connect([weather, createEvent])
    const AgentOutput = createMacroTool(await mcpTools(running.client))
    model.setScript([{ body: toolCallResponse('AgentOutput', { memory: 'user is in Oslo', action: { get_weather: 'Oslo' } }) }])
    const result = await llm().invoke(messages, { AgentOutput }, { toolChoiceName: 'AgentOutput' })
    expect(result.toolCall.args).toEqual({ memory: 'user is in Oslo', action: { get_weather: { city: 'Oslo', units: 'celsius' } } })
    expect(result.toolResult).toEqual({ input: result.toolCall.args, action: { name: 'get_weather', input: { city: 'Oslo', units: 'celsius' } }, output: 'Oslo: 21 degrees celsius' })

    const args = JSON.stringify({ action: { calendar_create_event: { title: 'review', when: { day: '2026-12-02', hours: 1 } } } })
    const delta = (content: Record<string, unknown>, finish: string | null = null) => ({ choices: [{ index: 0, delta: content, finish_reason: finish }] })
    model.setScript([
      {
        chunks: sseChunks([
          delta({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_s', type: 'function', function: { name: 'AgentOutput', arguments: args.slice(0, 20) } }] }),
          delta({ tool_calls: [{ index: 0, function: { arguments: args.slice(20) } }] }),
          delta({}, 'tool_calls'),
        ]),
      },
    ])
    const run = llm().stream(messages, { AgentOutput }, { toolChoiceName: 'AgentOutput' })
    for await (const _event of run) {
      // drained: the result is what matters here
    }
    const streamed = await run.result
    expect(streamed.toolResult).toEqual({ input: streamed.toolCall.args, action: { name: 'calendar_create_event', input: { title: 'review', when: { day: '2026-12-02', hours: 1 } } }, output: { id: 'evt_1', title: 'review', when: { day: '2026-12-02', hours: 1 } } })
    expect(running.calls.map((call) => call.name)).toEqual(['get_weather', 'calendar.create_event'])
  })

  it('should refuse something that is not an MCP client with a config_error', async () => {
    const error = await invokeError(mcpTools({} as never))
    expect(error.type).toBe('config_error')
    expect(error.message).toContain('connected MCP client')
  })
})
