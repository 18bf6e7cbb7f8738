import { afterAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMacroTool, defineTool, isInvokeError, type Adapter, type ChatMessage, type ChatResponse } from '../index'
import { checkHistory, contentResponse, toolCallResponse } from '../testing'
import { modes, startAnswerServer } from './__fixtures__/answer-server'

let refusals: string[][] = []
// Every history received is checked as a strict server would, and refused if bad.
const { server, script: setReplies, run } = await startAnswerServer((request) => {
  const problems = checkHistory(request.body.messages)
  if (problems.length === 0) return undefined
  refusals.push(problems)
  return { status: 400, body: { error: { message: problems.join('; '), type: 'invalid_request_error' } } }
})
afterAll(() => server.close())

function script(...replies: ChatResponse[]) {
  refusals = []
  setReplies(...replies)
}

const user: ChatMessage = { role: 'user', content: 'Search for wildcall.' }

function makeTools(log: string[] = []) {
  return {
    click: defineTool({
      description: 'Click an element',
      inputSchema: z.object({ index: z.number().int() }),
      execute: ({ index }, { toolCallId }) => {
        log.push(`click ${index} ${toolCallId}`)
        return `clicked ${index}`
      },
    }),
    read: defineTool({ description: 'Read the page', inputSchema: z.object({}), execute: () => ({ title: 'Home', links: 3 }) }),
    done: defineTool({ description: 'Finish', inputSchema: z.object({ text: z.string() }) }),
  }
}

describe.each(modes)('result.messages (%s)', (mode) => {
  it('should give the assistant turn with exactly the executed call and the tool message answering its id', async () => {
    script(toolCallResponse('click', { index: '3' }, { message: { content: 'The search box is element 3.' } }))
    const log: string[] = []
    const result = await run(mode, {}, [user], makeTools(log))
    expect(result.toolCall.id).toMatch(/^call_\d+$/)
    expect(result.messages).toEqual([
      {
        role: 'assistant',
        content: 'The search box is element 3.',
        // The validated arguments (the model's "3" coerced to 3), not the model's text.
        tool_calls: [{ id: result.toolCall.id, type: 'function', function: { name: 'click', arguments: '{"index":3}' } }],
      },
      { role: 'tool', tool_call_id: result.toolCall.id, content: 'clicked 3' },
    ])
    expect(log).toEqual([`click 3 ${result.toolCall.id}`])
  })

  it('should give a call repaired out of the text an id, the same one everywhere, and keep only the prose before it', async () => {
    script(contentResponse('<think>Element 3 it is.</think>I will click the search box.\n```json\n{"name": "click", "arguments": {"index": 3}}\n```'))
    const log: string[] = []
    const result = await run(mode, {}, [user], makeTools(log))
    const id = result.toolCall.id
    expect(typeof id).toBe('string')
    expect(id.length).toBeGreaterThan(8)
    expect(log).toEqual([`click 3 ${id}`])
    expect(result.messages[0]).toEqual({ role: 'assistant', content: 'I will click the search box.', tool_calls: [{ id, type: 'function', function: { name: 'click', arguments: '{"index":3}' } }] })
    expect(result.messages[1]).toEqual({ role: 'tool', tool_call_id: id, content: 'clicked 3' })
  })

  it('should render outputs: objects as JSON, a tool without execute as empty, a tool\'s own toModelOutput', async () => {
    script(toolCallResponse('read', {}))
    expect((await run(mode, {}, [user], makeTools())).messages[1]!.content).toBe('{"title":"Home","links":3}')
    script(toolCallResponse('done', { text: 'ok' }))
    expect((await run(mode, {}, [user], makeTools())).messages[1]!.content).toBe('')
    const tools = { read: defineTool({ inputSchema: z.object({}), execute: () => ({ title: 'Home' }), toModelOutput: (page) => `Page "${page.title}"` }) }
    script(toolCallResponse('read', {}))
    expect((await run(mode, {}, [user], tools)).messages[1]!.content).toBe('Page "Home"')
  })

  it('should show the model what the macro tool\'s action returned, as that action renders it', async () => {
    const AgentOutput = createMacroTool({
      click: defineTool({ inputSchema: z.object({ index: z.number() }), execute: ({ index }) => ({ clicked: index }), toModelOutput: (out) => `clicked #${out.clicked}` }),
      done: defineTool({ inputSchema: z.object({ text: z.string() }), execute: ({ text }) => text }),
    })
    script(toolCallResponse('AgentOutput', { memory: 'm', action: { click: { index: 2 } } }))
    const result = await run(mode, {}, [user], { AgentOutput }, { toolChoiceName: 'AgentOutput' })
    expect(result.toolCall.name).toBe('AgentOutput')
    expect(result.toolResult.action).toEqual({ name: 'click', input: { index: 2 } })
    expect(result.messages[1]!.content).toBe('clicked #2')
  })

  it('should copy exactly the provider fields the adapters declare in echoFields', async () => {
    const echo: Adapter = { name: 'acme', match: { models: ['acme'] }, echoFields: { message: ['reasoning_content'], toolCall: ['extra_content'] } }
    const signature = { google: { thought_signature: 'sig-1' } }
    const reply = toolCallResponse([{ id: 'call_x', name: 'click', args: { index: 1 } }], undefined, { message: { reasoning_content: 'Think first.', provider_debug: 'x' } })
    reply.choices[0]!.message.tool_calls![0]!.extra_content = signature
    script(reply)
    const result = await run(mode, { adapters: [echo] }, [user], makeTools())
    expect(result.messages[0]).toEqual({
      role: 'assistant',
      content: null,
      reasoning_content: 'Think first.',
      tool_calls: [{ id: 'call_x', type: 'function', function: { name: 'click', arguments: '{"index":1}' }, extra_content: signature }],
    })
    // Without the declaration only the reasoning is carried (what goes back is decided per request).
    const plain = await run(mode, {}, [user], makeTools())
    expect(plain.messages[0]).toMatchObject({ reasoning_content: 'Think first.' })
    expect(plain.messages[0]).not.toHaveProperty('provider_debug')
    expect(plain.messages[0]!.tool_calls![0]).not.toHaveProperty('extra_content')
  })

  it('should hold a three-step conversation with messages.push(...result.messages) alone, never touching the array otherwise', async () => {
    script(
      contentResponse('{"name": "click", "arguments": {"index": 1}}'),
      toolCallResponse('read', {}),
      toolCallResponse('done', { text: 'finished' }),
    )
    const messages: ChatMessage[] = [user]
    const names: string[] = []
    for (let step = 0; step < 3; step++) {
      const before = messages.length
      const result = await run(mode, {}, messages, makeTools())
      expect(messages).toHaveLength(before)
      names.push(result.toolCall.name)
      messages.push(...result.messages)
    }
    expect(names).toEqual(['click', 'read', 'done'])
    expect(refusals).toEqual([])
    expect(checkHistory(messages)).toEqual([])
    expect(server.requests.map((request) => request.body.messages.length)).toEqual([1, 3, 5])
    expect(server.requests[2]!.body.messages).toEqual(messages.slice(0, 5))
  })
})

describe.each(modes)('a tool that throws (%s)', (mode) => {
  it('should run once, ask the model once, and carry the call and the history to show the model its error', async () => {
    script(toolCallResponse('send_email', { to: 'a@b.c' }), toolCallResponse('done', { text: 'reported' }))
    let sent = 0
    const tools = {
      send_email: defineTool({ inputSchema: z.object({ to: z.string() }), execute: () => {
        sent++
        throw new Error('SMTP said 550 after sending')
      } }),
      done: defineTool({ inputSchema: z.object({ text: z.string() }) }),
    }
    const error = await run(mode, {}, [user], tools).catch((caught: unknown) => caught)
    expect(isInvokeError(error)).toBe(true)
    if (!isInvokeError(error)) return
    expect(error).toMatchObject({ type: 'tool_execution_error', retryable: false, toolCall: { name: 'send_email', args: { to: 'a@b.c' } } })
    expect(sent).toBe(1)
    expect(server.requests).toHaveLength(1)
    expect(error.usage).toMatchObject({ totalTokens: 20 })
    expect(error.messages).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: error.toolCall!.id, type: 'function', function: { name: 'send_email', arguments: '{"to":"a@b.c"}' } }] },
      { role: 'tool', tool_call_id: error.toolCall!.id, content: 'Error: SMTP said 550 after sending' },
    ])
    // The loop shows the model its error and goes on.
    const messages = [user, ...error.messages!]
    const next = await run(mode, {}, messages, tools)
    expect(next.toolCall.name).toBe('done')
    expect(refusals).toEqual([])
  })

  it('should retry the whole step when the tool opted in with retryOnError', async () => {
    script(toolCallResponse('read', {}))
    let calls = 0
    const tools = { read: defineTool({ inputSchema: z.object({}), retryOnError: true, execute: () => {
      if (++calls === 1) throw new Error('page still loading')
      return 'loaded'
    } }) }
    const result = await run(mode, {}, [user], tools)
    expect(result.toolResult).toBe('loaded')
    expect(calls).toBe(2)
    expect(server.requests).toHaveLength(2)
    expect(result.attempts).toBe(2)
    expect(result.attemptDetails[0]!.error).toMatchObject({ type: 'tool_execution_error', retryable: true })
  })

  it('should take a macro tool\'s opt-in from the action that ran', async () => {
    let scrolls = 0
    const AgentOutput = createMacroTool({
      scroll: defineTool({ inputSchema: z.object({ down: z.boolean() }), retryOnError: true, execute: () => {
        if (++scrolls === 1) throw new Error('not yet')
        return 'scrolled'
      } }),
      pay: defineTool({ inputSchema: z.object({ amount: z.number() }), execute: () => {
        throw new Error('card declined')
      } }),
    })
    script(toolCallResponse('AgentOutput', { action: { scroll: { down: true } } }))
    expect((await run(mode, {}, [user], { AgentOutput })).toolResult.output).toBe('scrolled')
    script(toolCallResponse('AgentOutput', { action: { pay: { amount: 5 } } }))
    const error = await run(mode, {}, [user], { AgentOutput }).catch((caught: unknown) => caught)
    expect(error).toMatchObject({ type: 'tool_execution_error', retryable: false })
    expect(server.requests).toHaveLength(1)
  })
})
