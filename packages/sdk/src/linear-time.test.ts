import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createStreamAssembler } from './client/create-stream-assembler'
import { classifyHttpError } from './errors/classify-http'
import { createMacroTool, defineTool, parseRetryAfter, repairToolCall } from './index'
import { scalingRatio } from './repair/__fixtures__/scaling-ratio'
import type { ChatResponseMessage, ChatStreamChunk, StreamEvent, ToolSet } from './types'

// A model, or a server in front of it, controls every byte of a response: every call must finish in
// time linear in what it sent. Each case builds a crafted worst-case answer of about `size`
// characters and goes through a public entry point; 100 kB must cost at most ~12× what 10 kB costs
// (10× when linear, 100× when quadratic), measured in one run as a ratio.
const SMALL = 10_000
const LARGE = 100_000
const LIMIT = 12

/** `unit` repeated to about `size` characters, between `head` and `tail`. */
const fill = (size: number, unit: string, head = '', tail = '') => head + unit.repeat(Math.max(1, Math.floor((size - head.length - tail.length) / unit.length))) + tail

const click = defineTool({ description: 'Click', inputSchema: z.object({ index: z.number().int() }) })
const scroll = defineTool({ description: 'Scroll', inputSchema: z.object({ down: z.boolean(), num_pages: z.number().optional() }) })
const tools: ToolSet = { click, scroll }
const macro: ToolSet = { AgentOutput: createMacroTool({ click, scroll }) }

/** Repairs `content` (or a native call) against plain tools and against the macro tool; success or a typed error, never a hang. */
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

function expectLinear(build: (size: number) => () => unknown) {
  const ratio = scalingRatio(build(LARGE), build(SMALL))
  expect(ratio).toBeLessThan(LIMIT)
}

// The inputs that once took seconds (issue 16), each by the path that reached it.
describe('repairToolCall on crafted worst cases', () => {
  it.each<[string, (size: number) => ChatResponseMessage]>([
    ['a YAML key line whose spaces end at a \\u2028', (size) => content(fill(size, ' ', 'name: click\nindex:', '\u2028x'))],
    ['a YAML key line whose spaces end at a \\r', (size) => content(fill(size, ' ', 'name: click\nindex:', '\rx'))],
    ['a number field of zeros ending in a letter', (size) => native('click', fill(size, '0', '{"index":"', 'x"}'))],
    ['key=value lines of a known tool ending in a run of tabs', (size) => content(fill(size, `click index=1${'\t'.repeat(4_000)}y\n`))],
  ])('should stay linear on %s', (_name, message) => expectLinear((size) => repair(message(size))))

  it('should stay linear on a key=value line within its cap', () => {
    // The cap on key=value text (4 kB) makes many lines linear overall; the run inside one line must be too.
    const line = (tabs: number) => repair(content(`click index=1${'\t'.repeat(tabs)}y`))
    expect(scalingRatio(line(4_000), line(400), 20)).toBeLessThan(LIMIT)
  })
})

describe('classifyHttpError on crafted worst cases', () => {
  const html = (text: string) => () => classifyHttpError(502, undefined, text, undefined)
  const json = (status: number, message: string) => () => classifyHttpError(status, undefined, JSON.stringify({ error: { message } }), { error: { message } })

  it.each<[string, (size: number) => () => unknown]>([
    ['an HTML page of unclosed <h1', (size) => html(fill(size, '<h1', '<html>'))],
    ['an HTML page of unclosed <a', (size) => html(fill(size, '<a', '<html>'))],
    ['an HTML page of <style<', (size) => html(fill(size, '<style<', '<html>'))],
    ['an HTML page of <title>', (size) => html(fill(size, '<title>', '<html>'))],
    ['an HTML page of unclosed <script', (size) => html(fill(size, '<script ', '<html>'))],
    ['a 400 whose message repeats rviolatd', (size) => json(400, fill(size, 'rviolatd'))],
    ['a 429 whose message is a run of spaces between two durations', (size) => json(429, fill(size, ' ', 'try again in 1s', '2s'))],
  ])('should stay linear on %s', (_name, build) => expectLinear(build))
})

describe('parseRetryAfter on crafted worst cases', () => {
  const message = (size: number) => () => parseRetryAfter(undefined, fill(size, ' ', 'try again in 1s', '2s'))

  it('should stay linear on a run of spaces between two durations', () => {
    expectLinear(message)
    // Only the first 20 kB of a message are read: inside that window it must be linear too.
    expect(scalingRatio(message(20_000), message(2_000), 20)).toBeLessThan(LIMIT)
  })
})

describe('stream previews on crafted worst cases', () => {
  const preview = (args: string) => () => {
    const events: StreamEvent[] = []
    const assembler = createStreamAssembler((event) => events.push(event))
    assembler.push({ choices: [{ index: 0, delta: { role: 'assistant', tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'click', arguments: args } }] } }] } as ChatStreamChunk)
    assembler.finish()
  }

  it('should stay linear on an unclosed number of signs', () => {
    expectLinear((size) => preview(fill(size, '+', '{"index": -', '1')))
  })
})
