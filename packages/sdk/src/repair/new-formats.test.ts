import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool, repairToolCall } from '../index'
import type { ChatResponseMessage } from '../types'
import type { ToolSet } from '../tool/types'
import { failure } from './__fixtures__/failure'
import { splitReasoning } from './split-reasoning'

// Issue 22, items 1, 5, 6, 9: formats released in 2026, layout around values on their own lines,
// CDATA in XML formats, comma-less FunctionGemma. Each case is a whole answer as the family writes it.

const search = defineTool({ description: 'search', inputSchema: z.object({ query: z.string(), limit: z.number().optional() }) })
const write_file = defineTool({ description: 'write', inputSchema: z.object({ path: z.string(), content: z.string() }) })
const order = defineTool({
  description: 'order',
  inputSchema: z.object({ user_id: z.number(), items: z.array(z.object({ sku: z.string(), count: z.number() })), note: z.string().nullable(), rush: z.boolean(), tags: z.array(z.string()) }),
})
const tools: ToolSet = { search, write_file, order }
const content = (text: string): ChatResponseMessage => ({ role: 'assistant', content: text })
const read = (text: string) => repairToolCall(content(text), tools)

describe('repairToolCall on the 2026 families', () => {
  it('should read a Kimi K3 call with typed arguments, escaped attributes and raw values', () => {
    const text =
      'I think.<|close|>think<|sep|><|open|>response<|sep|><|close|>response<|sep|><|open|>tools<|sep|><|open|>call tool="search" index="1"<|sep|>' +
      '<|open|>argument key="query" type="string"<|sep|>a\nb<c & "d" &amp; 5<|close|>argument<|sep|><|open|>argument key="limit" type="number"<|sep|>5<|close|>argument<|sep|>' +
      '<|close|>call<|sep|><|close|>tools<|sep|><|close|>message<|sep|><|end_of_msg|>'
    const result = read(text)
    expect(result.toolCall).toEqual({ name: 'search', args: { query: 'a\nb<c & "d" &amp; 5', limit: 5 } })
    expect(result.fixes).toContain('tool-markup:kimi-k3')
  })

  it('should read a Kimi K3 call whose arguments came as one JSON value, and a string argument that spells a number', () => {
    const json = '<|open|>tools<|sep|><|open|>call tool="order" index="1"<|sep|><|open|>json type="object"<|sep|>{"user_id": 4, "items": [], "note": null, "rush": false, "tags": []}<|close|>json<|sep|><|close|>call<|sep|><|close|>tools<|sep|>'
    expect(read(json).toolCall).toEqual({ name: 'order', args: { user_id: 4, items: [], note: null, rush: false, tags: [] } })
    const text = '<|open|>call tool="search" index="1"<|sep|><|open|>argument key="query" type="string"<|sep|>5<|close|>argument<|sep|><|close|>call<|sep|>'
    expect(read(text).toolCall).toEqual({ name: 'search', args: { query: '5' } })
  })

  it('should never execute a Kimi K3 call the text ends inside', () => {
    for (const text of [
      '<|open|>call tool="search" index="1"<|sep|><|open|>argument key="query" type="string"<|sep|>wea',
      '<|open|>call tool="search" index="1"<|sep|><|open|>argument key="query" type="string"<|sep|>weather<|close|>argument<|sep|>',
    ]) {
      expect(failure(() => read(text)).type).toBe('no_tool_call')
    }
  })

  it('should read a MiniMax M3 call: elements named after the arguments, nested objects, list items, its markers', () => {
    const M = ']<]minimax[>['
    const text =
      `<mm:think>The user wants a kettle.</mm:think>\nOrdering now.\n${M}<tool_call>\n${M}<invoke name="order">\n${M}<user_id>42${M}</user_id>\n` +
      `${M}<items>\n${M}<item>${M}<sku>book <b>001</b> & co${M}</sku>${M}<count>2${M}</count>${M}</item>\n${M}</items>\n` +
      `${M}<note>null${M}</note>\n${M}<rush>true${M}</rush>\n${M}<tags>${M}</tags>\n${M}</invoke>\n${M}</tool_call>`
    const result = read(text)
    expect(result.toolCall).toEqual({ name: 'order', args: { user_id: 42, items: [{ sku: 'book <b>001</b> & co', count: 2 }], note: null, rush: true, tags: [] } })
    expect(result.fixes).toContain('tool-markup:minimax-m3')
  })

  it('should never execute a MiniMax M3 call the text ends inside', () => {
    const M = ']<]minimax[>['
    expect(failure(() => read(`${M}<tool_call>\n${M}<invoke name="search">\n${M}<query>weath`)).type).toBe('no_tool_call')
  })

  it('should read an Apertus call list keyed by name, after its inner reasoning', () => {
    const text = '<|inner_prefix|>Let me think.<|inner_suffix|><|tools_prefix|>[{"search": {"query": "a\\nb<c", "limit": 5}}, {"write_file": {"path": "a", "content": "b"}}]<|tools_suffix|>'
    const result = read(text)
    expect(result.toolCall).toEqual({ name: 'search', args: { query: 'a\nb<c', limit: 5 } })
    expect(result.dropped).toEqual([{ name: 'write_file', args: { path: 'a', content: 'b' }, reason: 'extra' }])
  })

  it('should split the reasoning of the new families from the answer', () => {
    expect(splitReasoning('<|inner_prefix|>R<|inner_suffix|>answer').reasoning).toBe('R')
    expect(splitReasoning('<mm:think>R</mm:think>answer')).toMatchObject({ reasoning: 'R', answer: 'answer' })
    expect(splitReasoning('R<|close|>think<|sep|><|open|>response<|sep|>answer')).toMatchObject({ reasoning: 'R' })
    expect(splitReasoning('<|channel>thought\nR<channel|>answer')).toMatchObject({ reasoning: 'R', answer: 'answer' })
  })
})

describe('layout around values on their own lines', () => {
  it('should keep the newlines and spaces a Qwen3-Coder value holds, taking only the template newlines', () => {
    const text = '<tool_call>\n<function=write_file>\n<parameter=path>\n  a.txt \n</parameter>\n<parameter=content>\n\ndef f():\n    return 1\n\n</parameter>\n</function>\n</tool_call>'
    expect(read(text).toolCall.args).toEqual({ path: '  a.txt ', content: '\ndef f():\n    return 1\n' })
  })

  it('should take the indentation of a pretty-printed call as layout for a value on one line, and keep a block value as written', () => {
    const text =
      '<tool_call>\n  <function=write_file>\n    <parameter=path>\n    a.txt\n    </parameter>\n    <parameter=content>\ndef f():\n    return 1\n    </parameter>\n  </function>\n</tool_call>'
    expect(read(text).toolCall.args).toEqual({ path: 'a.txt', content: 'def f():\n    return 1' })
  })

  it('should take the newline after a Seed-OSS opening tag and the one before its closing tag as layout, as vLLM does', () => {
    const text = '<seed:tool_call>\n<function=write_file>\n<parameter=path>\na.txt\n</parameter>\n<parameter=content>\n\ndef f():\n    pass\n\n</parameter>\n</function>\n</seed:tool_call>'
    expect(read(text).toolCall.args).toEqual({ path: 'a.txt', content: '\ndef f():\n    pass\n' })
  })
})

describe('CDATA in XML formats', () => {
  it('should read a CDATA section as its literal text, even when it holds what would close the tag', () => {
    const text = '<function name="write_file"><param name="path">a.txt</param><param name="content"><![CDATA[x </param> <b>&amp; ]] ]>]]></param></function>'
    expect(read(text).toolCall).toEqual({ name: 'write_file', args: { path: 'a.txt', content: 'x </param> <b>&amp; ]] ]>' } })
  })

  it('should read CDATA sections inside a value beside text with references', () => {
    const text = '<invoke name="write_file">\n<parameter name="path">a&amp;b</parameter>\n<parameter name="content">x &lt; <![CDATA[</invoke> &lt;]]> y</parameter>\n</invoke>'
    expect(read(text).toolCall.args).toEqual({ path: 'a&b', content: 'x < </invoke> &lt; y' })
  })
})

describe('comma-less FunctionGemma', () => {
  it('should read strings that follow each other without commas', () => {
    const text = '<start_function_call>call:write_file{content:<escape>a, b: c<escape>path:<escape>x.txt<escape>}<end_function_call>'
    expect(read(text).toolCall).toEqual({ name: 'write_file', args: { content: 'a, b: c', path: 'x.txt' } })
  })

  it('should read a comma-less Gemma 4 call with nested values', () => {
    const text = '<|tool_call>call:order{items:[{count:2,sku:<|"|>b, 1<|"|>}]note:<|"|>x<|"|>rush:true,tags:[<|"|>a<|"|><|"|>b<|"|>]user_id:7}<tool_call|>'
    expect(read(text).toolCall).toEqual({ name: 'order', args: { items: [{ count: 2, sku: 'b, 1' }], note: 'x', rush: true, tags: ['a', 'b'], user_id: 7 } })
  })
})

describe('call-like text inside the strings of another call', () => {
  it('should keep the second of two Gemma calls whose strings each hold a double quote, with its values', () => {
    const text =
      '<start_function_call>call:order{note:null,tags:[<escape><b>bold</b>"<escape>]}<end_function_call>' +
      '<start_function_call>call:write_file{content:<escape>"<escape>,path:<escape>a.txt<escape>}<end_function_call>'
    const result = repairToolCall(content(text), { order: defineTool({ description: 'order', inputSchema: z.object({ note: z.string().nullable(), tags: z.array(z.string()) }) }), write_file })
    expect(result.toolCall).toEqual({ name: 'order', args: { note: null, tags: ['<b>bold</b>"'] } })
    expect(result.dropped).toEqual([{ name: 'write_file', args: { content: '"', path: 'a.txt' }, reason: 'extra' }])
  })

  it('should read call tags inside the JSON strings of a Jamba call list as text, never as a call', () => {
    const text = (query: string, id: string) =>
      `<tool_calls>\n[{"name": "search_x", "arguments": {"query": ${JSON.stringify(query)}, "id": ${JSON.stringify(id)}}}, {"name": "search_x", "arguments": {"query": "", "id": "e"}}]\n</tool_calls>`
    const tools: ToolSet = { search_x: defineTool({ description: 'search', inputSchema: z.object({ query: z.string(), id: z.string() }) }) }
    for (const [query, id] of [['<functools=', '>'], ['<function=search_x>', '']] as const) {
      const result = repairToolCall(content(text(query, id)), tools)
      expect(result.toolCall).toEqual({ name: 'search_x', args: { query, id } })
      expect(result.dropped).toEqual([{ name: 'search_x', args: { query: '', id: 'e' }, reason: 'extra' }])
    }
  })

  it('should read a call tag that opens in one Hermes call string and closes in the next as text of both', () => {
    const block = (text: string) => `<tool_call>\n{"name": "search", "arguments": {"query": ${JSON.stringify(text)}}}\n</tool_call>`
    const result = read(`${block('<function=f>')}\n${block('</function><invoke name="f">')}`)
    expect(result.toolCall).toEqual({ name: 'search', args: { query: '<function=f>' } })
    expect(result.dropped).toEqual([{ name: 'search', args: { query: '</function><invoke name="f">' }, reason: 'extra' }])
  })

  it('should read a call tag inside the JSON arguments of a special-token call as text, leaving the call to its reader', () => {
    const kimi = (query: string) => `<|tool_call_begin|>functions.search:0<|tool_call_argument_begin|>{"query": ${JSON.stringify(query)}}<|tool_call_end|>`
    const deepseek = '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>search\n```json\n{"query": "<function=f>"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>'
    expect(read(deepseek).toolCall).toEqual({ name: 'search', args: { query: '<function=f>' } })
    const result = read(`<|tool_calls_section_begin|>${kimi('<function=f>')}${kimi('evil')}<|tool_calls_section_end|>`)
    expect(result.toolCall).toEqual({ name: 'search', args: { query: '<function=f>' } })
    expect(result.dropped).toEqual([{ name: 'search', args: { query: 'evil' }, reason: 'extra' }])
  })
})
