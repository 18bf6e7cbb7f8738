import { afterAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createClient, createMacroTool, defineTool, type ChatMessage } from '../index'
import { checkHistory, contentResponse, toolCallResponse } from '../testing'
import { modes, startAnswerServer } from './__fixtures__/answer-server'

const { server, script, run } = await startAnswerServer()
afterAll(() => server.close())

const tools = {
  click: defineTool({ description: 'Click', inputSchema: z.object({ index: z.number().int().min(0) }), execute: ({ index }) => `clicked ${index}` }),
  done: defineTool({ description: 'Finish', inputSchema: z.object({ text: z.string() }), execute: ({ text }) => text }),
}

const history = (): ChatMessage[] => [
  { role: 'system', content: 'Call one tool per step.' },
  { role: 'user', content: 'Click the first result.' },
]

describe.each(modes)('reask (%s)', (mode) => {
  it('should send the failed call back with a tool message naming the failing field, then succeed', async () => {
    script(toolCallResponse([{ id: 'call_bad', name: 'click', args: { index: -2 } }]), toolCallResponse('click', { index: 0 }))
    const messages = history()
    const result = await run(mode, {}, messages, tools)
    expect(result.toolResult).toBe('clicked 0')
    expect(server.requests).toHaveLength(2)
    const [first, second] = server.requests.map((request) => request.body.messages)
    expect(first).toEqual(messages)
    expect(second!.slice(0, 2)).toEqual(messages)
    expect(second![2]).toEqual({ role: 'assistant', content: null, tool_calls: [{ id: 'call_bad', type: 'function', function: { name: 'click', arguments: '{"index":-2}' } }] })
    expect(second![3]).toMatchObject({ role: 'tool', tool_call_id: 'call_bad' })
    const feedback = second![3]!.content as string
    expect(feedback).toContain('click.index')
    expect(feedback).toContain('-2')
    expect(feedback).toMatch(/Call exactly one of the tools click, done/)
    expect(second).toHaveLength(4)
    expect(checkHistory(second)).toEqual([])
    // The caller's history is neither changed nor grown; the result's history has only the good call.
    expect(messages).toEqual(history())
    expect(result.messages[0]!.tool_calls![0]!.function.arguments).toBe('{"index":0}')
    expect(result.rawRequest.messages).toHaveLength(4)
  })

  it('should say no call was found and which tool to call, after the model\'s text', async () => {
    script(contentResponse('The first result is about cats.'), toolCallResponse('done', { text: 'cats' }))
    const result = await run(mode, {}, history(), tools, { toolChoiceName: 'done' })
    expect(result.toolCall.name).toBe('done')
    const sent = server.requests[1]!.body.messages
    expect(sent.slice(2)).toEqual([
      { role: 'assistant', content: 'The first result is about cats.' },
      { role: 'user', content: expect.stringContaining('no tool call') },
    ])
    expect(sent[3]!.content).toContain('Call the tool done')
  })

  it('should keep only the last failure: a second reask replaces the first instead of piling up', async () => {
    script(contentResponse('Hmm.'), contentResponse('Still thinking.'), toolCallResponse('done', { text: 'ok' }))
    await run(mode, {}, history(), tools)
    const lengths = server.requests.map((request) => request.body.messages.length)
    expect(lengths).toEqual([2, 4, 4])
    expect(server.requests[2]!.body.messages[2]).toEqual({ role: 'assistant', content: 'Still thinking.' })
  })

  it('should name the macro action\'s field that failed', async () => {
    const AgentOutput = createMacroTool(tools)
    script(toolCallResponse('AgentOutput', { memory: 'm', action: { click: { index: 'first' } } }), toolCallResponse('AgentOutput', { action: { click: { index: 1 } } }))
    const result = await run(mode, {}, history(), { AgentOutput }, { toolChoiceName: 'AgentOutput' })
    expect(result.toolResult.action).toEqual({ name: 'click', input: { index: 1 } })
    const feedback = server.requests[1]!.body.messages[3]!.content as string
    expect(feedback).toContain('AgentOutput.action.click.index')
    expect(feedback).toContain('Call the tool AgentOutput')
  })

  it('should resend byte-identical requests with reask: false (client or call)', async () => {
    script(contentResponse('No.'), contentResponse('No.'), toolCallResponse('done', { text: 'ok' }))
    await run(mode, { reask: false }, history(), tools)
    const bodies = server.requests.map((request) => request.rawBody)
    expect(bodies).toHaveLength(3)
    expect(new Set(bodies).size).toBe(1)

    script(contentResponse('No.'), toolCallResponse('done', { text: 'ok' }))
    await run(mode, { reask: true }, history(), tools, { reask: false })
    expect(server.requests[1]!.rawBody).toBe(server.requests[0]!.rawBody)
  })
})

describe('reask option', () => {
  it('should be checked by createClient', () => {
    expect(() => createClient({ baseURL: 'http://127.0.0.1:1/v1', model: 'x', reask: 'yes' as never })).toThrow(/"reask" must be true or false/)
  })
})
