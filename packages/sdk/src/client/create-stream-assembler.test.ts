import { describe, expect, it } from 'vitest'
import type { ChatStreamDelta } from '../types'
import type { StreamEvent } from './stream-run'
import { extractCalls } from '../repair/extract-calls'
import { splitReasoning } from '../repair/split-reasoning'
import { createMarkupPreview } from '../repair/reading/create-markup-preview'
import { assertLinear, sizesBetween } from '../testing/measure-growth'
import { createStreamAssembler, type StreamAssemblerOptions } from './create-stream-assembler'

const delta = (value: ChatStreamDelta, finish: string | null = null) => ({ choices: [{ index: 0, delta: value, finish_reason: finish }] })

/** Each chunk as its own network read (pushed, then flushed), as a stream that trickles in comes. */
function assemble(chunks: unknown[], options: StreamAssemblerOptions = {}) {
  const events: StreamEvent[] = []
  const assembler = createStreamAssembler((event) => events.push(event), { previews: [createMarkupPreview], ...options })
  for (const chunk of chunks) {
    assembler.push(chunk as never)
    assembler.flush()
  }
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

  it("should keep a call's provider fields (Gemini's extra_content) as first sent, never a prototype", () => {
    const signed = { google: { thought_signature: 'c2lnbmF0dXJl' } }
    const { response } = assemble([
      delta({ tool_calls: [JSON.parse(`{"index": 0, "id": "a", "extra_content": ${JSON.stringify(signed)}, "__proto__": {"polluted": true}, "function": {"name": "click", "arguments": "{\\"index\\""}}`)] }),
      delta({ tool_calls: [{ index: 0, extra_content: { google: { thought_signature: 'later' } }, function: { arguments: ': 1}' } }] }),
    ])
    const call = response.choices[0]!.message.tool_calls![0]!
    expect(call).toEqual({ extra_content: signed, id: 'a', type: 'function', index: 0, function: { name: 'click', arguments: '{"index": 1}' } })
    expect(Object.getPrototypeOf(call)).toBe(Object.prototype)
    expect((call as Record<string, unknown>).polluted).toBeUndefined()
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

  it('should find a think marker cut anywhere, after text with other tags and angle brackets', () => {
    const content = 'x < y, <b>bold</b> and a <<think>Maybe {"memory": "draft"} then</seed:thinking>\nSo: {"memory": "real"}'
    const previewsOf = (pieces: string[]) =>
      assemble(pieces.map((piece) => delta({ content: piece }))).events.flatMap((event) => (event.type === 'partial' ? [event.args] : []))
    const cuts = [[...content], ...Array.from({ length: content.length - 1 }, (_, cut) => [content.slice(0, cut + 1), content.slice(cut + 1)])]
    for (const pieces of cuts) {
      const previews = previewsOf(pieces)
      expect(previews, pieces.join('|')).not.toContainEqual({ memory: 'draft' })
      expect(previews.at(-1), pieces.join('|')).toEqual({ memory: 'real' })
    }
  })

  it('should stream every reasoning spelling splitReasoning reads as reasoning, cut anywhere, and preview no draft in it', () => {
    const blocks: Record<string, [string, string]> = {
      'Kimi K3': ['<|open|>think<|sep|>', '<|close|>think<|sep|>'],
      'Gemma 4': ['<|channel>thought\n', '<channel|>'],
      Magistral: ['[THINK]', '[/THINK]'],
      Apertus: ['<|inner_prefix|>', '<|inner_suffix|>'],
      'MiniMax M3': ['<mm:think>', '</mm:think>'],
      'Seed-OSS': ['<seed:think>', '</seed:think>'],
      thought: ['<|begin_of_thought|>', '<|end_of_thought|>'],
      reasoning: ['<reasoning>', '</reasoning>'],
    }
    const reasoning = 'A draft: {"memory": "draft"} [1] < 2, then <b>no</b>.'
    const answer = 'So, a[0] < b:\n{"memory": "real"}'
    for (const [family, [open, close]] of Object.entries(blocks)) {
      const content = `${open}${reasoning}${close}${answer}`
      const cuts = [[...content], ...Array.from({ length: content.length - 1 }, (_, cut) => [content.slice(0, cut + 1), content.slice(cut + 1)])]
      for (const pieces of cuts) {
        const label = `${family}: ${pieces.join('|')}`
        // Prompt mode splits the text into text and reasoning events.
        const split = assemble(pieces.map((piece) => delta({ content: piece })), { reasoningInText: true }).events
        const joined = (type: string) => split.flatMap((event) => (event.type === type ? [(event as { delta: string }).delta] : [])).join('')
        expect(splitReasoning(content).reasoning).toBe(reasoning)
        // Gemma's newline after `<|channel>thought` is text of the block, as sent.
        expect(joined('reasoning'), label).toBe(open.endsWith('\n') ? `\n${reasoning}` : reasoning)
        expect(joined('text'), label).toBe(answer)
        // Native mode shows the content as sent, and previews only the call after the reasoning.
        const partials = assemble(pieces.map((piece) => delta({ content: piece }))).events.flatMap((event) => (event.type === 'partial' ? [event.args] : []))
        expect(partials, label).not.toContainEqual({ memory: 'draft' })
        expect(partials.at(-1), label).toEqual({ memory: 'real' })
      }
    }
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

  it('should know a call ended in bytes no preview was due for yet, and one cut inside them', () => {
    const text = JSON.stringify({ memory: 'word '.repeat(200), action: { done: {} } })
    for (const cut of [text.length, text.length - 1]) {
      const assembler = createStreamAssembler(() => {})
      assembler.push(delta({ tool_calls: [{ index: 0, id: 'c', function: { name: 'AgentOutput', arguments: text.slice(0, -5) } }] }) as never)
      assembler.flush()
      // The rest, in one read too small to make another preview due.
      assembler.push(delta({ tool_calls: [{ index: 0, function: { arguments: text.slice(-5, cut) } }] }) as never)
      assembler.flush()
      expect(assembler.endsInsideCall(), `cut at ${cut}`).toBe(cut < text.length)
      expect(assembler.finish().choices[0]!.message.tool_calls![0]!.function.arguments).toBe(text.slice(0, cut))
    }
  })

  describe('markup written into content', () => {
    const reflection = {
      evaluation_previous_goal: 'Typed "kettle" into the search box; results <b>opened</b>.',
      memory: 'Searching the shop.\nStep 2 of 3.',
      next_goal: 'Open the cart and check the total price',
    }
    const action = { click_element_by_index: { index: 3 } }
    const actionText = JSON.stringify(action)
    const markups: Record<string, string> = {
      'Qwen3-Coder': `I will open the cart.\n<tool_call>\n<function=AgentOutput>\n${Object.entries(reflection).map(([key, value]) => `<parameter=${key}>\n${value}\n</parameter>\n`).join('')}<parameter=action>\n${actionText}\n</parameter>\n</function>\n</tool_call>`,
      'MiniMax M2': `<minimax:tool_call>\n<invoke name="AgentOutput">\n${Object.entries(reflection).map(([key, value]) => `<parameter name="${key}">${value}</parameter>\n`).join('')}<parameter name="action">${actionText}</parameter>\n</invoke>\n</minimax:tool_call>`,
      // Formats nobody listed for the preview read the same way: DeepSeek's DSML, a `name` attribute with others.
      'DeepSeek DSML': `<｜DSML｜function_calls>\n<｜DSML｜invoke name="AgentOutput">\n${Object.entries(reflection).map(([key, value]) => `<｜DSML｜parameter name="${key}" string="true">${value}</｜DSML｜parameter>\n`).join('')}<｜DSML｜parameter name="action" string="false">${actionText}</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>`,
      'GLM 4.5': `<tool_call>AgentOutput\n${Object.entries(reflection).map(([key, value]) => `<arg_key>${key}</arg_key>\n<arg_value>${value}</arg_value>\n`).join('')}<arg_key>action</arg_key>\n<arg_value>${actionText}</arg_value>\n</tool_call>`,
    }

    /** Cuts `text` into 1–9 character pieces, a different sequence for every seed. */
    function randomPieces(text: string, seed: number): string[] {
      const pieces: string[] = []
      let state = seed
      for (let offset = 0; offset < text.length; ) {
        state = (state * 1_103_515_245 + 12_345) % 2_147_483_648
        const size = 1 + (state % 9)
        pieces.push(text.slice(offset, offset + size))
        offset += size
      }
      return pieces
    }
    const partialsOf = (pieces: string[]) =>
      assemble(pieces.map((piece) => delta({ content: piece }))).events.filter((event): event is Extract<StreamEvent, { type: 'partial' }> => event.type === 'partial')

    it.each(Object.entries(markups))('should preview %s markup as it streams in random pieces', (_family, content) => {
      for (let seed = 1; seed <= 25; seed++) {
        const partials = partialsOf(randomPieces(content, seed))
        for (const event of partials) {
          expect(event).toMatchObject({ index: 0, name: 'AgentOutput' })
          const args = event.args as Record<string, unknown>
          // Only ever a prefix of each value: no half-written closing tag leaks into the text.
          for (const key of Object.keys(reflection) as (keyof typeof reflection)[]) {
            if (args[key] !== undefined) expect(reflection[key].startsWith(args[key] as string), `${key}: ${String(args[key])}`).toBe(true)
          }
          expect(Object.keys(args).every((key) => key in reflection || key === 'action')).toBe(true)
        }
        // Some reflection field shows cut off, before its whole text arrived.
        const growing = partials.filter((event) => Object.entries(reflection).some(([key, value]) => {
          const shown = (event.args as Record<string, unknown>)[key]
          return typeof shown === 'string' && shown !== '' && shown !== value
        }))
        expect(growing.length, `seed ${seed}`).toBeGreaterThan(0)
        expect(partials.at(-1)!.args).toEqual({ ...reflection, action })
      }
      // The last preview is what the repair reads from the whole text.
      expect(extractCalls(content).calls.map((call) => [call.name, call.args])).toEqual([['AgentOutput', { ...reflection, action }]])
    })

    it('should scan the deltas of one read together: the same text events, response and last preview, one preview per read', () => {
      const content = markups['Qwen3-Coder']!
      const pieces = randomPieces(content, 3).map((piece) => delta({ content: piece }))
      const perRead = assemble(pieces)
      const run = (reads: number[]) => {
        const events: StreamEvent[] = []
        const assembler = createStreamAssembler((event) => events.push(event), { previews: [createMarkupPreview] })
        pieces.forEach((piece, index) => {
          assembler.push(piece as never)
          if (reads.includes(index)) assembler.flush()
        })
        return { response: assembler.finish(), events }
      }
      const texts = (events: StreamEvent[]) => events.filter((event) => event.type === 'text')
      const partials = (events: StreamEvent[]) => events.filter((event): event is Extract<StreamEvent, { type: 'partial' }> => event.type === 'partial')
      // Three reads: cut inside the memory value, and inside the action's JSON.
      const cuts = [pieces.findIndex((_, index) => pieces.slice(0, index + 1).map((piece) => piece.choices[0]!.delta.content).join('').includes('Searching')), Math.floor(pieces.length * 0.9)]
      for (const reads of [[], cuts]) {
        const { response, events } = run(reads)
        expect(response).toEqual(perRead.response)
        expect(texts(events)).toEqual(texts(perRead.events))
        expect(partials(events).at(-1)).toEqual(partials(perRead.events).at(-1))
        expect(partials(events).length).toBeLessThanOrEqual(reads.length + 1)
      }
      expect(partials(perRead.events).length).toBeGreaterThan(3)
    })

    it('should read a marker split anywhere across two pieces', () => {
      const content = markups['Qwen3-Coder']!
      for (const marker of ['<parameter=next_goal>', '</parameter>', '<function=AgentOutput>']) {
        const at = content.indexOf(marker)
        for (let cut = at + 1; cut < at + marker.length; cut++) {
          const partials = partialsOf([content.slice(0, cut), content.slice(cut)])
          expect(partials.at(-1)!.args).toEqual({ ...reflection, action })
          expect(partials.at(-1)!.name).toBe('AgentOutput')
        }
      }
      const early = partialsOf(['<function=AgentOutput>\n<param', 'eter=next_goal>\nOpen the cart and</para', 'meter>'])
      expect(early.map((event) => event.args)).toEqual([{ next_goal: 'Open the cart and' }])
    })

    it('should show the open parameter growing and JSON in it parsed partially', () => {
      const partials = partialsOf(['<function=AgentOutput>\n<parameter=memory>\nSearching the ', 'shop', ' for kettles\n</parameter>\n<parameter=action>\n{"click_element_by_index": {"ind', 'ex": 3}}'])
      expect(partials.map((event) => event.args)).toEqual([
        { memory: 'Searching the ' },
        { memory: 'Searching the shop for kettles', action: { click_element_by_index: {} } },
        { memory: 'Searching the shop for kettles', action },
      ])
    })

    it('should re-read a long markup value a linear number of times, and scan a flood of tags in linear time', () => {
      const memory = 'word '.repeat(2_000)
      const content = `<tool_call>\n<function=AgentOutput>\n<parameter=memory>\n${memory}\n</parameter>\n<parameter=action>\n${actionText}\n</parameter>\n</function>\n</tool_call>`
      const partials = partialsOf(content.match(/[\s\S]{1,3}/g)!)
      expect(partials.length).toBeLessThan(80)
      expect(partials.length).toBeGreaterThan(10)
      let previous = ''
      for (const event of partials) {
        const shown = (event.args as { memory?: string }).memory ?? ''
        expect(shown.startsWith(previous)).toBe(true)
        previous = shown
      }
      expect(partials.at(-1)!.args).toEqual({ memory, action })
      // Up to 300 kB of named tags on one line, in 1 kB pieces: looking back to the line's start for
      // each took 7 s here (quadratic), the bounded look-back is linear.
      const pieces = (count: number) => '<x=1>'.repeat(count).match(/[\s\S]{1,1000}/g)!
      expect(partialsOf(pieces(60_000))).toEqual([])
      assertLinear((count) => {
        const flood = pieces(count)
        return () => partialsOf(flood)
      }, sizesBetween(6_000, 60_000))
    })

    it('should keep a model\'s __proto__ parameter an own key, closed or still open', () => {
      for (const content of ['<function=x>\n<parameter=__proto__>\n{"polluted": true}\n</parameter>\n', '<function=x>\n<parameter=__proto__>\n{"polluted": tr']) {
        const args = partialsOf([content]).at(-1)!.args as Record<string, unknown>
        expect(Object.getPrototypeOf(args)).toBe(Object.prototype)
        expect(Object.hasOwn(args, '__proto__')).toBe(true)
        expect((args as { polluted?: unknown }).polluted).toBeUndefined()
      }
    })

    it('should not merge a second call into the first one\'s preview', () => {
      const content = '<function=AgentOutput>\n<parameter=next_goal>\nA\n</parameter>\n</function>\n<function=other>\n<parameter=next_goal>\nB\n</parameter>\n</function>'
      expect(partialsOf([content]).at(-1)!.args).toEqual({ next_goal: 'A' })
    })

    it('should give no preview for markup mentioned in inline code or written inside a think block', () => {
      const prose = 'To pass the goal, write `<parameter=next_goal>` and close it with `</parameter>`; the `<function=AgentOutput>` tag names the tool. No call here.'
      const thought = '<think>I could write <function=AgentOutput>\n<parameter=next_goal>\nOpen the cart\n</parameter></think>\nI am not sure what to do yet.'
      const open = `<think>Draft:\n${markups['GLM 4.5']}`
      for (let seed = 1; seed <= 10; seed++) {
        for (const content of [prose, thought, open]) expect(partialsOf(randomPieces(content, seed))).toEqual([])
        // Seed-OSS thinks in <seed:think>: its draft call is not previewed, the call after it is.
        const seedPartials = partialsOf(randomPieces(`<seed:think>${markups['Qwen3-Coder']!.replace('Open the cart', 'Draft')}</seed:think>\n${markups['Qwen3-Coder']}`, seed))
        expect(seedPartials.length).toBeGreaterThan(0)
        expect(seedPartials.every((event) => !JSON.stringify(event.args).includes('Draft'))).toBe(true)
        expect(seedPartials.at(-1)!.args).toEqual({ ...reflection, action })
      }
      // A closing </think> that the template opened marks what came before as a draft.
      const drafted = partialsOf(randomPieces(`<parameter=next_goal>draft</parameter></think>\n${markups['MiniMax M2']}`, 3))
      expect(drafted.at(-1)!.args).toEqual({ ...reflection, action })
    })

    it('should never preview markup in content once real tool_calls deltas arrived', () => {
      const { events } = assemble([
        delta({ tool_calls: [{ index: 0, id: 'c', function: { name: 'AgentOutput', arguments: '{"memory": "real"}' } }] }),
        ...randomPieces(markups['Qwen3-Coder']!, 5).map((piece) => delta({ content: piece })),
      ])
      expect(events.filter((event) => event.type === 'partial').map((event) => (event as { args: unknown }).args)).toEqual([{ memory: 'real' }])
    })
  })
})
