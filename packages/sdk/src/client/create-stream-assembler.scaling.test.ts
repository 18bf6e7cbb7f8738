import { describe, it } from 'vitest'
import type { ChatStreamDelta } from '../types'
import { assertLinear, sizesBetween } from '../testing/measure-growth'
import { createStreamAssembler } from './create-stream-assembler'

const PIECE = 7

/** Prose of about `size` characters: sentences, braces and tag-like text a scanner must look at. */
function prose(size: number): string {
  const sentence = 'The kettle costs 12 € in {the shop}; compare `<parameter=price>` with <b>the list</b>.\n'
  return sentence.repeat(Math.ceil(size / sentence.length)).slice(0, size)
}

type Field = 'content' | 'reasoning_content' | 'arguments'
/** What a server streams: each text cut into deltas of a few characters, in order. */
type Script = [Field, string][]

/**
 * A run that streams the script through a fresh assembler and finishes it. Chunks are made as they
 * are pushed, as a server's would be parsed, so the input held alive is only the script's text.
 */
function run(script: (size: number) => Script, size: number): () => unknown {
  const parts = script(size)
  return () => {
    let events = 0
    const assembler = createStreamAssembler(() => events++)
    for (const [field, text] of parts) {
      if (field === 'arguments') assembler.push({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'AgentOutput', arguments: '' } }] } }] })
      for (let offset = 0; offset < text.length; offset += PIECE) {
        const piece = text.slice(offset, offset + PIECE)
        const delta = field === 'arguments' ? { tool_calls: [{ index: 0, function: { arguments: piece } }] } : { [field]: piece }
        assembler.push({ choices: [{ index: 0, delta, finish_reason: null }] })
        // Each delta its own read: the slowest way a stream comes, every piece scanned on its own.
        assembler.flush()
      }
    }
    return [assembler.finish(), events]
  }
}

const action = '{"click_element_by_index": {"index": 3}}'
const scenarios: Record<string, (size: number) => Script> = {
  'prose in content': (size) => [['content', prose(size)]],
  'a think block in content, then a JSON call': (size) => [['content', `<think>${prose(size / 2)}</think>{"memory": "${'a'.repeat(size / 2)}", "action": ${action}}`]],
  'a JSON call in content with a long field': (size) => [['content', `Here it is: {"memory": "${'word '.repeat(size / 5)}", "action": ${action}}`]],
  'a markup call in content with a long parameter': (size) => [['content', `<tool_call>\n<function=AgentOutput>\n<parameter=memory>\n${prose(size)}\n</parameter>\n<parameter=action>\n${action}\n</parameter>\n</function>`]],
  'GLM key elements, many short ones': (size) => [['content', `AgentOutput\n${'<arg_key>k</arg_key><arg_value>v</arg_value>'.repeat(size / 44)}`]],
  reasoning: (size) => [['reasoning_content', prose(size)], ['content', `{"action": ${action}}`]],
  'tool-call arguments': (size) => [['arguments', `{"memory": "${'word \\n \\u00e9 '.repeat(size / 16)}", "list": [${'1, '.repeat(size / 30)}2], "action": ${action}}`]],
}

describe('createStreamAssembler', () => {
  // Each delta's scans (think markers, markup tags, the start of a JSON call, the preview readers)
  // read only the new text: time grows as the stream's length (the fitted exponent measured about
  // 0.9–1.2 on a loaded 2-core machine: the 1 MB run also pays for collections and cache misses the
  // 100 kB one never meets), a quadratic scan's as its square (2). See testing/measure-growth.
  it.each(Object.entries(scenarios))('should assemble %s in time linear in its length', (name, build) => {
    assertLinear((size) => run(build, size), sizesBetween(100_000, 1_000_000), { what: `streaming ${name}` })
  })
})
