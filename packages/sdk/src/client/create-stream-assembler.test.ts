import { describe, expect, it } from 'vitest'
import type { ChatStreamDelta, StreamEvent } from '../types'
import { createStreamAssembler } from './create-stream-assembler'

const delta = (value: ChatStreamDelta, finish: string | null = null) => ({ choices: [{ index: 0, delta: value, finish_reason: finish }] })

function assemble(chunks: unknown[]) {
  const events: StreamEvent[] = []
  const assembler = createStreamAssembler((event) => events.push(event))
  for (const chunk of chunks) assembler.push(chunk as never)
  return { response: assembler.finish(), events }
}

describe('createStreamAssembler', () => {
  it('should start a new call on a new id or name when fragments carry no index', () => {
    const { response } = assemble([
      delta({ tool_calls: [{ id: 'a', function: { name: 'click', arguments: '{"index"' } }] }),
      delta({ tool_calls: [{ function: { arguments: ': 1}' } }] }),
      delta({ tool_calls: [{ id: 'b', function: { name: 'click', arguments: '{"index": 2}' } }] }),
      delta({ tool_calls: [{ function: { name: 'done', arguments: '{}' } }] }),
    ])
    expect(response.choices[0]!.message.tool_calls).toEqual([
      { id: 'a', type: 'function', index: 0, function: { name: 'click', arguments: '{"index": 1}' } },
      { id: 'b', type: 'function', index: 1, function: { name: 'click', arguments: '{"index": 2}' } },
      { type: 'function', index: 2, function: { name: 'done', arguments: '{}' } },
    ])
  })

  it('should keep two calls apart when a server numbers both 0 but gives different ids', () => {
    const { response } = assemble([
      delta({ tool_calls: [{ index: 0, id: 'a', function: { name: 'x', arguments: '{}' } }] }),
      delta({ tool_calls: [{ index: 0, id: 'b', function: { name: 'y', arguments: '{}' } }] }),
    ])
    expect(response.choices[0]!.message.tool_calls?.map((call) => call.function.name)).toEqual(['x', 'y'])
  })

  it('should ignore fragments it cannot use instead of throwing', () => {
    const { response } = assemble([null, 42, 'x', { choices: 'no' }, { choices: [null, { delta: 7 }] }, delta({ tool_calls: 'nope' as never, content: 5 as never })])
    expect(response.choices[0]!.message).toEqual({ role: 'assistant', content: null })
    expect(response.choices[0]!.finish_reason).toBeNull()
  })

  it('should keep both reasoning fields as sent but show the same text once', () => {
    const { response, events } = assemble([delta({ reasoning_content: 'Think', reasoning: 'Think' }), delta({ reasoning: 'ing' })])
    expect(events).toEqual([
      { type: 'reasoning', delta: 'Think' },
      { type: 'reasoning', delta: 'ing' },
    ])
    expect(response.choices[0]!.message).toMatchObject({ reasoning_content: 'Think', reasoning: 'Thinking' })
  })

  it('should preview JSON written into content, and switch away from a draft once </think> shows it was one', () => {
    const content = 'Draft: {"memory": "wrong"} hmm</think>\n```json\n{"memory": "right", "action": {"done": {}}}\n```'
    const { events } = assemble(content.match(/[\s\S]{1,3}/g)!.map((piece) => delta({ content: piece })))
    const previews = events.filter((event) => event.type === 'partial').map((event) => (event as { args: unknown }).args)
    // Only the closing tag says the first object was a draft: from there on, the real one is shown.
    expect(previews).toContainEqual({ memory: 'wrong' })
    expect(previews.at(-1)).toEqual({ memory: 'right', action: { done: {} } })
    expect(previews.slice(previews.findIndex((args) => JSON.stringify(args).includes('right')))).not.toContainEqual({ memory: 'wrong' })
    const opened = assemble(['<thi', 'nk>{"a": "b"}</th', 'ink>{"c": "d"}'].map((piece) => delta({ content: piece }))).events
    expect(opened.filter((event) => event.type === 'partial')).toEqual([{ type: 'partial', args: { c: 'd' }, index: 0 }])
  })

  it('should re-parse a long argument string a linear number of times, not once per chunk', () => {
    const text = JSON.stringify({ memory: 'word '.repeat(2_000), action: { done: {} } })
    const chunks = [delta({ tool_calls: [{ index: 0, id: 'c', function: { name: 'AgentOutput', arguments: '' } }] })]
    for (let offset = 0; offset < text.length; offset += 3) chunks.push(delta({ tool_calls: [{ index: 0, function: { arguments: text.slice(offset, offset + 3) } }] }))
    const { events } = assemble(chunks)
    const partials = events.filter((event) => event.type === 'partial')
    // Every parse of a growing string changes the preview, so this counts the parses: ~3,400 chunks
    // of 10 kB would be ~3,400 parses unthrottled and ~1,250 with a fixed 8-byte step.
    expect(partials.length).toBeLessThan(80)
    expect(partials.length).toBeGreaterThan(10)
    let previous = ''
    for (const event of partials) {
      const memory = (event.args as { memory?: string }).memory ?? ''
      expect(memory.startsWith(previous)).toBe(true)
      previous = memory
    }
    expect(partials.at(-1)!.args).toEqual(JSON.parse(text))
  })
})
