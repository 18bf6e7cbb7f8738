import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createClient, defineTool, type Adapter, type ChatMessage, type ChatResponse, type ChatToolCall } from '@wildcall/sdk'
import { checkHistory, startScriptedServer, streamedReply, toolCallResponse, type CheckHistoryOptions, type RecordedRequest, type ScriptedServer } from '@wildcall/sdk/testing'
import { deepseekAdapter } from '../packages/adapter-deepseek/src/index'
import { geminiAdapter } from '../packages/adapter-gemini/src/index'
import { kimiAdapter } from '../packages/adapter-kimi/src/index'
import { minimaxAdapter } from '../packages/adapter-minimax/src/index'
import { openrouterAdapter } from '../packages/adapter-openrouter/src/index'

// A three-step conversation per family, against a server that refuses a history the way that
// family's API does: every step's request must carry what the family needs echoed from the earlier
// answers, exactly as the server sent it.

interface Family {
  name: string
  model: string
  adapters: Adapter[]
  /** The answer of step `n` (1-based): a tool call plus the family's provider fields. */
  answer(n: number, call: { name: string; args: unknown }): ChatResponse
  /** What the history must carry, checked by `checkHistory`. */
  required: CheckHistoryOptions
  /** The family's field in the assistant turn of step `n`, as the request echoes it. */
  echoed(turn: ChatMessage): unknown
  expected(n: number): unknown
}

const withMessage = (n: number, call: { name: string; args: unknown }, message: Record<string, unknown>) =>
  toolCallResponse([{ id: `call_${n}`, name: call.name, args: call.args }], undefined, { message })

const families: Family[] = [
  {
    name: 'DeepSeek (thinking)',
    model: 'deepseek-chat',
    adapters: [deepseekAdapter({ thinking: true })],
    answer: (n, call) => withMessage(n, call, { reasoning_content: `DeepSeek reasoning ${n}` }),
    required: { messageFields: ['reasoning_content'] },
    echoed: (turn) => turn.reasoning_content,
    expected: (n) => `DeepSeek reasoning ${n}`,
  },
  {
    name: 'Kimi (thinking)',
    model: 'kimi-k2.5',
    adapters: [kimiAdapter({ thinking: true })],
    answer: (n, call) => withMessage(n, call, { reasoning_content: `Kimi reasoning ${n}` }),
    required: { messageFields: ['reasoning_content'] },
    echoed: (turn) => turn.reasoning_content,
    expected: (n) => `Kimi reasoning ${n}`,
  },
  {
    name: 'Gemini 3 (thought signature)',
    model: 'gemini-3-flash-preview',
    adapters: [geminiAdapter()],
    answer: (n, call) => {
      const response = withMessage(n, call, {})
      response.choices[0]!.message.tool_calls![0]!.extra_content = { google: { thought_signature: `sig-${n}` } }
      return response
    },
    required: { toolCallFields: ['extra_content'] },
    echoed: (turn) => (turn.tool_calls![0] as ChatToolCall & { extra_content?: { google?: { thought_signature?: string } } }).extra_content?.google?.thought_signature,
    expected: (n) => `sig-${n}`,
  },
  {
    name: 'OpenRouter (reasoning_details)',
    model: 'anthropic/claude-sonnet-4.5',
    // OpenRouter matches its own host; here it serves from 127.0.0.1.
    adapters: [{ ...openrouterAdapter(), match: { hosts: ['127.0.0.1'] } }],
    answer: (n, call) => withMessage(n, call, { reasoning: `thought ${n}`, reasoning_details: [{ type: 'reasoning.text', index: 0, text: `thought ${n}`, signature: `or-sig-${n}`, format: 'anthropic-claude-v1' }] }),
    required: { messageFields: ['reasoning_details'] },
    echoed: (turn) => turn.reasoning_details,
    expected: (n) => [{ type: 'reasoning.text', index: 0, text: `thought ${n}`, signature: `or-sig-${n}`, format: 'anthropic-claude-v1' }],
  },
  {
    name: 'MiniMax M2 (interleaved thinking)',
    model: 'MiniMax-M2',
    adapters: [minimaxAdapter()],
    answer: (n, call) => withMessage(n, call, { content: `<think>MiniMax thinks ${n}</think>\n\nOn it.` }),
    required: {},
    echoed: (turn) => turn.content,
    expected: (n) => `<think>MiniMax thinks ${n}</think>\n\nOn it.`,
  },
]

const steps = [
  { name: 'click', args: { index: 4 } },
  { name: 'type', args: { index: 4, text: 'wildcall' } },
  { name: 'done', args: { text: 'Searched.' } },
]

const tools = {
  click: defineTool({ description: 'Click', inputSchema: z.object({ index: z.number().int() }), execute: ({ index }) => `clicked ${index}` }),
  type: defineTool({ description: 'Type', inputSchema: z.object({ index: z.number().int(), text: z.string() }), execute: ({ text }) => `typed ${text}` }),
  done: defineTool({ description: 'Finish', inputSchema: z.object({ text: z.string() }), execute: ({ text }) => text }),
}

let server: ScriptedServer
let family: Family = families[0]!
let refusals: string[] = []

function serve(request: RecordedRequest, index: number) {
  const history = request.body.messages
  const problems = checkHistory(history, family.required)
  // Each earlier step's assistant turn must echo exactly what that step's answer carried.
  const turns = history.filter((message) => message.role === 'assistant')
  turns.forEach((turn, position) => {
    if (JSON.stringify(family.echoed(turn)) !== JSON.stringify(family.expected(position + 1))) problems.push(`assistant turn ${position + 1} does not echo ${JSON.stringify(family.expected(position + 1))}`)
  })
  if (turns.length !== index) problems.push(`expected ${index} assistant turns, got ${turns.length}`)
  if (problems.length > 0) {
    refusals.push(...problems)
    return { status: 400, body: { error: { message: problems.join('; '), type: 'invalid_request_error' } } }
  }
  const answer = family.answer(index + 1, steps[index]!)
  return request.body.stream ? streamedReply(answer) : { body: answer }
}

beforeAll(async () => {
  server = await startScriptedServer({ script: serve })
})
afterAll(() => server.close())

describe.each(families)('a three-step conversation with $name', (current) => {
  it.each(['invoke', 'stream'] as const)('should echo the fields the family needs on every step (%s)', async (mode) => {
    family = current
    refusals = []
    server.setScript(serve)
    const client = createClient({ baseURL: server.url, model: current.model, adapters: current.adapters, retry: 0 })
    const messages: ChatMessage[] = [{ role: 'user', content: 'Search for wildcall.' }]
    const taken: string[] = []
    for (let step = 0; step < steps.length; step++) {
      const result = mode === 'invoke' ? await client.invoke(messages, tools) : await client.stream(messages, tools).result
      taken.push(result.toolCall.name)
      messages.push(...result.messages)
    }
    expect(refusals).toEqual([])
    expect(taken).toEqual(['click', 'type', 'done'])
    expect(server.requests).toHaveLength(3)
    // The last request carried both earlier turns, each with its own echoed field.
    const sent = server.requests[2]!.body.messages.filter((message) => message.role === 'assistant')
    expect(sent.map(current.echoed)).toEqual([current.expected(1), current.expected(2)])
  })
})

describe('a history written while thinking was off', () => {
  it.each([
    ['DeepSeek', 'deepseek-chat', deepseekAdapter({ thinking: true })],
    ['Kimi', 'kimi-k2.5', kimiAdapter({ thinking: true })],
  ] as const)('should stay valid for %s with thinking on', async (_name, model, adapter) => {
    family = families[0]!
    refusals = []
    // Strict as a thinking-mode API: every tool-calling assistant turn needs reasoning_content.
    server.setScript((request) => {
      const problems = checkHistory(request.body.messages, { messageFields: ['reasoning_content'] })
      return problems.length > 0 ? { status: 400, body: { error: { message: problems.join('; ') } } } : { body: toolCallResponse('done', { text: 'ok' }) }
    })
    const history: ChatMessage[] = [
      { role: 'user', content: 'Search.' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_old', type: 'function', function: { name: 'click', arguments: '{"index":1}' } }] },
      { role: 'tool', tool_call_id: 'call_old', content: 'clicked 1' },
    ]
    const copy = structuredClone(history)
    const client = createClient({ baseURL: server.url, model, adapters: [adapter], retry: 0 })
    const result = await client.invoke(history, tools)
    expect(result.toolCall.name).toBe('done')
    expect(server.requests[0]!.body.messages[1]).toMatchObject({ reasoning_content: '' })
    expect(history).toEqual(copy)
  })
})
