import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { findFieldChanges, refusedConstraint } from './client/adapt-to-rejected-field'
import { createStreamAssembler } from './client/create-stream-assembler'
import { classifyHttpError } from './errors/classify-http'
import { kimiK3Reader, minimaxM3Reader } from './readers'
import { InvokeError, createMacroTool, defineTool, parseRetryAfter, repairToolCall } from './index'
import { assertLinear, sizesBetween } from './testing/measure-growth'
import type { ChatRequest, ChatResponseMessage, ChatStreamChunk } from './types'
import type { ToolSet } from './tool/types'

// A model, or a server in front of it, controls every byte of a response: every call must finish in
// time linear in what it sent. Each case builds a crafted worst-case answer of about `size`
// characters and goes through a public entry point, at three sizes from 10 kB to 100 kB; the fitted
// slope of log(time) against log(size) must stay below 1.5 (1 when linear, 2 when quadratic: see
// testing/measure-growth). The inputs are those that once took seconds (issue 16), the attack
// strings recheck reports for the patterns that `scripts/check-regex.mjs` lets through as bounded,
// and floods of each reader's own openers.
const SIZES = sizesBetween(10_000, 100_000)

/** `unit` repeated to about `size` characters, between `head` and `tail`. */
const fill = (size: number, unit: string, head = '', tail = '') => head + unit.repeat(Math.max(1, Math.floor((size - head.length - tail.length) / unit.length))) + tail

const click = defineTool({ description: 'Click', inputSchema: z.object({ index: z.number().int() }) })
const scroll = defineTool({ description: 'Scroll', inputSchema: z.object({ down: z.boolean(), num_pages: z.number().optional() }) })
const tools: ToolSet = { click, scroll }
const macro: ToolSet = { AgentOutput: createMacroTool({ click, scroll }) }

/** Repairs a message against plain tools and against the macro tool: a call or a typed error, never a hang. */
function repair(message: ChatResponseMessage): () => void {
  return () => {
    for (const [toolSet, options] of [[tools, {}], [macro, { toolChoiceName: 'AgentOutput' }]] as const) {
      try {
        repairToolCall(message, toolSet, options)
      } catch (error) {
        expect(error).toMatchObject({ name: 'InvokeError' })
      }
    }
  }
}
const content = (text: string): ChatResponseMessage => ({ role: 'assistant', content: text })
const native = (name: string, args: string): ChatResponseMessage => ({ role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name, arguments: args } }] })

function expectLinear(build: (size: number) => () => unknown, sizes = SIZES) {
  assertLinear(build, sizes, { what: expect.getState().currentTestName })
}

type Case = [string, (size: number) => ChatResponseMessage]
const text = (make: (size: number) => string) => (size: number) => content(make(size))

describe('repairToolCall on crafted worst cases', () => {
  const readers: Array<[string, Case[]]> = [
    [
      'the YAML reader',
      [
        ['a key line whose spaces end at a \\u2028', text((size) => fill(size, ' ', 'name: click\nindex:', '\u2028x'))],
        ['a key line whose spaces end at a \\r', text((size) => fill(size, ' ', 'name: click\nindex:', '\rx'))],
        ['a block scalar of many lines', text((size) => fill(size, '  x\n', 'name: click\nindex: |\n'))],
        ['keys nested one space deeper each', text((size) => fill(size, ' k:\n', 'click:\n'))],
      ],
    ],
    [
      'the key=value reader',
      [
        ['lines of a known tool ending in a run of tabs', text((size) => fill(size, `click index=1${'\t'.repeat(4_000)}y\n`))],
        ['a TOML table of many lines', text((size) => fill(size, 'index = 1\n', '[click]\n'))],
        ['a command line of many pairs', text((size) => fill(size, ' index=1', 'click'))],
      ],
    ],
    [
      'the pythonic reader',
      [
        ['a flood of unclosed calls', text((size) => fill(size, 'click('))],
        ['nested parentheses', text((size) => fill(size, '(', 'click(index='))],
        ['a string that never closes', text((size) => fill(size, '\\"', 'click(index="'))],
        ['a list of calls never closed', text((size) => fill(size, 'click(index=1), ', '['))],
        ['a bare value that runs to the end', text((size) => fill(size, 'a ', '[scroll(down=True, num_pages='))],
        ['a flood of calls with arithmetic never closed', text((size) => fill(size, 'scroll(num_pages=1 + '))],
        ['arithmetic nested deep', text((size) => fill(size, '(', '[scroll(down=True, num_pages='))],
        ['strings that never close before a `)`', text((size) => fill(size, 'click(index="x) '))],
        ['unclosed strings before `, NAME(`', text((size) => fill(size, 'click(index="x), ', '['))],
        ['a JSON list of call strings, the last of no declared tool', text((size) => fill(size, '"click(index=1)", ', '[', '"other(x=1)"]'))],
        ['a list of calls of a known tool no reading takes', text((size) => fill(size, 'click(index=a b), ', '['))],
        ['unreadable calls whose parentheses never close', text((size) => fill(size, 'click(index=a b= ', '['))],
        ['an unreadable call whose quotes never close', text((size) => fill(size, 'click(index=a "', '['))],
        ['a JSON list of name/arguments pairs', text((size) => fill(size, '["click", {"index": 1}], ', '[', '1]'))],
      ],
    ],
    [
      'the XML and markup readers',
      [
        ['a flood of <tool_call>', text((size) => fill(size, '<tool_call>'))],
        ['a flood of function and parameter tags', text((size) => fill(size, '<function=click><parameter=index>'))],
        ['an element whose attributes run into tabs', text((size) => fill(size, '\t', '<A\t', '\u0000'))],
        ['elements cut at their attribute cap', text((size) => fill(size, `<A\t${'\t'.repeat(396)}\u0000`))],
        ['a tag whose attributes run into spaces', text((size) => fill(size, ' ', '<a', 'x'))],
        ['tags of a known tool full of dashes', text((size) => fill(size, `<click ${'-'.repeat(480)}/>`))],
        ['a flood of <arg_key>', text((size) => fill(size, '<arg_key>index</arg_key><arg_value>'))],
        ['a flood of <think>', text((size) => fill(size, '<think>'))],
        ['<think> markers inside a call value that never closes', text((size) => fill(size, '</think><think>', '<tool_call>\n<function=click>\n<parameter=index>\n'))],
        ['call openers inside a parameter value that never closes', text((size) => fill(size, '<function=f><invoke name="f"><tool_call>', '<tool_call>\n<function=click>\n<parameter=index>\n'))],
        ['call openers inside parameter values, each closed', text((size) => fill(size, '<parameter=index><function=f></parameter>', '<function=click>'))],
        ['a flood of harmony analysis headers with no end', text((size) => fill(size, '<|channel|>analysis<|message|>x'))],
        ['a flood of to=self headers without a message', text((size) => fill(size, ' to=self'))],
        ['analysis calls with recipients, a final message at the end', text((size) => fill(size, ' to=functions.click<|channel|>analysis<|message|>{"index": 1}', '', '<|channel|>final<|message|>ok'))],
        ['a < before a run of spaces', text((size) => fill(size, ' ', '<', '!'))],
      ],
    ],
    [
      'the Gemma reader',
      [
        ['a flood of call:click{', text((size) => fill(size, 'call:click{'))],
        ['string tokens that never close', text((size) => fill(size, '<|"|>', '<start_function_call>call:click{index:'))],
        ['nested braces', text((size) => fill(size, '{', 'call:click{index:'))],
      ],
    ],
    [
      'the special-token readers',
      [
        ['a flood of [TOOL_CALLS]', text((size) => fill(size, '[TOOL_CALLS]click[ARGS]'))],
        ['a flood of [TOOL_CALLS] lists short of their ]', text((size) => fill(size, '[TOOL_CALLS][{"index": 1}'))],
        ['one long [TOOL_CALLS] list short of its ]', text((size) => fill(size, '{"name": "click", "arguments": {"index": 1}}, ', '[TOOL_CALLS][', '{}'))],
        ['a flood of >>>python code messages', text((size) => fill(size, '>>>python\nx = 1\n'))],
        ['a flood of <|tool_call_begin|>', text((size) => fill(size, '<|tool_call_begin|>'))],
        ['a flood of <[', text((size) => fill(size, '<['))],
        ['a flood of <n', text((size) => fill(size, '<n'))],
        ['▁-spelled tokens at their cap', text((size) => fill(size, `<${'a'.repeat(39)}▁${'b'.repeat(45)}`))],
        ['a fence with a run of tabs', text((size) => fill(size, '\t', '~~~', 'j'))],
        ['labelled action lines', text((size) => fill(size, '- Action: !\n'))],
      ],
    ],
    [
      'the Kimi K3 and MiniMax M3 readers',
      [
        ['a flood of K3 call openers', text((size) => fill(size, '<|open|>call tool="click" index="1"<|sep|>'))],
        ['a K3 call of many arguments never closed', text((size) => fill(size, '<|open|>argument key="index" type="number"<|sep|>1', '<|open|>call tool="click" index="1"<|sep|>'))],
        ['K3 openers without their <|sep|>', text((size) => fill(size, '<|open|>call tool="click" '))],
        ['a flood of M3 invokes', text((size) => fill(size, ']<]minimax[>[<invoke name="click">'))],
        ['M3 elements nested ever deeper', text((size) => fill(size, ']<]minimax[>[<a>', ']<]minimax[>[<invoke name="click">'))],
        ['M3 markers with no tag', text((size) => fill(size, ']<]minimax[>[', ']<]minimax[>[<invoke name="click">'))],
        ['CDATA openers that never close', text((size) => fill(size, '<![CDATA[<parameter=a>', '<function=click>'))],
        ['comma-less Gemma strings', text((size) => fill(size, 'a:<escape>x<escape>', 'call:click{'))],
      ],
    ],
    [
      'the JSON scan',
      [
        ['a flood of {', text((size) => fill(size, '{'))],
        ['a flood of {"a":', text((size) => fill(size, '{"a":'))],
        ['a flood of [', text((size) => fill(size, '['))],
        ['a flood of quotes', text((size) => fill(size, '"'))],
        ['a string of backslashes', text((size) => fill(size, '\\\\', '{"name": "click", "arguments": {"index": "'))],
        ['a flood of [ short only of its closers', text((size) => fill(size, '[', '', '1'))],
        ['a flood of members short only of their closers', text((size) => fill(size, '[{"a": "b", "c": ', '', '1'))],
        ['a flood of closers shutting openers above their own', text((size) => fill(size, '{"a": [1}', '[', '1'))],
      ],
    ],
    [
      'calls shown to the user',
      [
        ['a flood of final-channel headers', text((size) => fill(size, 'assistantfinal', '', '{"index": 1}'))],
        ['a flood of stripped analysis calls before a final message', text((size) => fill(size, 'assistantanalysis to=functions.click json{"index": 1}', '', 'assistantfinalok'))],
        ['a flood of stripped recipients running into a word', text((size) => fill(size, 'assistant to=functions.clickanalysi', '', 'assistantfinalok'))],
        ['calls each after a recipient all', text((size) => fill(size, '>>>all {"index": 1} '))],
        ['a run of you before a call', text((size) => fill(size, 'you ', '', '{"index": 1}'))],
        ['calls each after a sentence', text((size) => fill(size, 'You could. Then {"index": 1}. '))],
        ['calls of two tools each after prose on its tool', text((size) => fill(size, 'The click tool clicks an element: {"name": "click", "arguments": {"index": 1}}\nThe scroll tool scrolls the page: {"name": "scroll", "arguments": {"down": true}}\n'))],
        ['a run of layout between two calls', text((size) => fill(size, '<a>```x=y', '[click(index=1)]', '[scroll(down=True)]'))],
      ],
    ],
    [
      'the reflection of the macro tool',
      [
        ['a labelled line ending in a run of tabs', text((size) => fill(size, '\t', 'A\tA', '\n'))],
        ['a label after a line of spaces', text((size) => fill(size, ' ', 'x\n', '!\nMemory: m\n{"action": {"click": {"index": 1}}}'))],
      ],
    ],
    [
      'coercion',
      [
        ['a number field of zeros ending in a letter', (size) => native('click', fill(size, '0', '{"index":"', 'x"}'))],
        ['a boolean field of spaces', (size) => native('scroll', fill(size, ' ', '{"down":"', 'x"}'))],
        ['arguments encoded as a string of openers', (size) => native('click', JSON.stringify(fill(size, '{"index": ')))],
      ],
    ],
  ]

  for (const [reader, cases] of readers) {
    describe(reader, () => {
      it.each(cases)('should stay linear on %s', (_name, message) => expectLinear((size) => repair(message(size))))
    })
  }

  it('should stay linear on a key=value line within its cap', () => {
    // The cap on key=value text (4 kB) makes many lines linear overall; the run inside one line must be too.
    expectLinear((tabs) => repair(content(`click index=1${'\t'.repeat(tabs)}y`)), sizesBetween(400, 4_000))
  })
})

describe('classifyHttpError on crafted worst cases', () => {
  const html = (page: string) => () => classifyHttpError(502, undefined, page, undefined)
  const json = (status: number, message: string) => () => classifyHttpError(status, undefined, JSON.stringify({ error: { message } }), { error: { message } })

  it.each<[string, (size: number) => () => unknown]>([
    ['an HTML page of unclosed <h1', (size) => html(fill(size, '<h1', '<html>'))],
    ['an HTML page of unclosed <a', (size) => html(fill(size, '<a', '<html>'))],
    ['an HTML page of <style<', (size) => html(fill(size, '<style<', '<html>'))],
    ['an HTML page of <title>', (size) => html(fill(size, '<title>', '<html>'))],
    ['an HTML page of unclosed <script', (size) => html(fill(size, '<script ', '<html>'))],
    ['a 400 whose message repeats rviolatd', (size) => json(400, fill(size, 'rviolatd'))],
    ['a 400 whose message repeats a prompt word', (size) => json(400, fill(size, 'PROMPT\u0000', '', '.'))],
    ['a 400 whose message repeats prompt exceeds', (size) => json(400, fill(size, 'prompt exceeds '))],
    ['a 404 whose message repeats a model word', (size) => json(404, fill(size, 'I MODEL P', 'U', '.'))],
    ['a 429 whose message is a run of spaces between two durations', (size) => json(429, fill(size, ' ', 'try again in 1s', '2s'))],
    ['a 429 whose message is a run of digits after a limit', (size) => json(429, fill(size, '1', 'limit '))],
    ['a 400 whose message repeats a tools word', (size) => json(400, fill(size, 'tools tool choice requires '))],
    ['a 500 whose message repeats function calling', (size) => json(500, fill(size, 'function calling not '))],
    ['a 400 whose message repeats does not support the', (size) => json(400, fill(size, "doesn't support the tool"))],
  ])('should stay linear on %s', (_name, build) => expectLinear(build))
})

describe('parseRetryAfter on crafted worst cases', () => {
  const message = (size: number) => () => parseRetryAfter(undefined, fill(size, ' ', 'try again in 1s', '2s'))

  it('should stay linear on a run of spaces between two durations', () => {
    expectLinear(message)
    // Only the first 20 kB of a message are read: inside that window it must be linear too.
    expectLinear(message, sizesBetween(2_000, 20_000))
  })

  it('should stay linear on repeated retry words', () => {
    expectLinear((size) => () => parseRetryAfter(undefined, fill(size, 'try again in ')))
  })

  it('should stay linear on repeated "resets in" (a usage window\'s reset)', () => {
    expectLinear((size) => () => parseRetryAfter(undefined, fill(size, 'resets in ')))
    expectLinear((size) => () => parseRetryAfter(undefined, fill(size, ' ', 'Resets in 16', 'days')))
  })
})

describe('findFieldChanges on crafted worst cases', () => {
  const body = { model: 'm', messages: [], max_tokens: 5, parallel_tool_calls: false } as unknown as ChatRequest
  const refuse = (message: string) => () => findFieldChanges(body, new InvokeError('bad_request', 'refused', { status: 400, rawResponse: `Unsupported parameter. ${message}` }))

  it.each<[string, (size: number) => () => unknown]>([
    ['a param key before a run of spaces', (size) => refuse(fill(size, ' ', '"param":', 'x'))],
    ['a loc list before a run of spaces', (size) => refuse(fill(size, ' ', '"loc": [', 'x'))],
    ['use before a run of spaces', (size) => refuse(fill(size, ' ', 'use', 'x'))],
    ['a flood of use words', (size) => refuse(fill(size, 'use max_tokens '))],
  ])('should stay linear on %s', (_name, build) => expectLinear(build))
})

describe('refusedConstraint on crafted worst cases', () => {
  const body = { model: 'm', messages: [], response_format: { type: 'json_schema' } } as unknown as ChatRequest
  const refuse = (message: string) => () => refusedConstraint(body, new InvokeError('bad_request', 'refused', { status: 400, rawResponse: message }))

  it.each<[string, (size: number) => () => unknown]>([
    ['a run of word characters', (size) => refuse(fill(size, 'a'))],
    ['a flood of near misses', (size) => refuse(fill(size, 'response_forma schem gramma '))],
  ])('should stay linear on %s', (_name, build) => expectLinear(build))
})

describe('stream previews on crafted worst cases', () => {
  const preview = (delta: object) => () => {
    const assembler = createStreamAssembler(() => {})
    assembler.push({ choices: [{ index: 0, delta: { role: 'assistant', ...delta } }] } as ChatStreamChunk)
    assembler.finish()
  }
  const args = (text: string) => preview({ tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'click', arguments: text } }] })

  it.each<[string, (size: number) => () => unknown]>([
    ['an unclosed number of signs', (size) => args(fill(size, '+', '{"index": -', '1'))],
    ['an unclosed string of backslashes', (size) => args(fill(size, '\\\\', '{"index": "'))],
    ['a flood of [', (size) => args(fill(size, '['))],
    ['content of parameter tags', (size) => preview({ content: fill(size, '<parameter=index>1', '<tool_call>\n<function=click>\n') })],
  ])('should stay linear on %s', (_name, build) => expectLinear(build))

  // Marked markup in content, in 16-character deltas through the Kimi K3 and MiniMax M3 previews.
  const marked = (text: string) => () => {
    const assembler = createStreamAssembler(() => {}, { previews: [kimiK3Reader.preview!, minimaxM3Reader.preview!] })
    for (let offset = 0; offset < text.length; offset += 16) {
      assembler.push({ choices: [{ index: 0, delta: { content: text.slice(offset, offset + 16) } }] } as ChatStreamChunk)
      assembler.flush()
    }
    assembler.finish()
  }
  const M = ']<]minimax[>['
  it.each<[string, (size: number) => () => unknown]>([
    ['a Kimi K3 value that never closes', (size) => marked(fill(size, 'word ', '<|open|>call tool="click" index="1"<|sep|><|open|>argument key="q" type="string"<|sep|>'))],
    ['a flood of Kimi K3 arguments', (size) => marked(fill(size, '<|open|>argument key="q" type="number"<|sep|>1<|close|>argument<|sep|>', '<|open|>call tool="click" index="1"<|sep|>'))],
    ['a flood of Kimi K3 markers that open nothing', (size) => marked(fill(size, '<|open|>', '<|open|>call tool="click" index="1"<|sep|><|open|>argument key="q" type="string"<|sep|>'))],
    ['a MiniMax M3 value that never closes', (size) => marked(fill(size, 'word ', `${M}<invoke name="click">\n${M}<q>`))],
    ['a flood of MiniMax M3 items', (size) => marked(fill(size, `${M}<item>a${M}</item>`, `${M}<invoke name="click">\n${M}<q>`))],
  ])('should stay linear on %s', (_name, build) => expectLinear(build))
})
