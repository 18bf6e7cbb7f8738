import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMacroTool } from '../macro/create-macro-tool'
import { defineTool } from '../tool/define-tool'
import type { ToolSet } from '../tool/types'
import { assertLinear, sizesBetween } from '../testing/measure-growth'
import { matchName } from './match-tool-name'
import { repairToolCall } from './repair-tool-call'
import { shapeMacroInput } from './shape-macro-input'
import { envelopeInput } from './unwrap'

// Formats the field guide does not list (other families, agent frameworks, prose), read by the
// general mechanisms: envelope keys recognised by their shape, element trees, a known name written
// just before unnamed JSON. Each must come back as the one action it spells.
const actions = {
  scroll: defineTool({ description: 'Scroll', inputSchema: z.object({ down: z.boolean(), num_pages: z.number().default(1) }) }),
  input_text: defineTool({ description: 'Type', inputSchema: z.object({ index: z.number().int(), text: z.string() }) }),
  done: defineTool({ description: 'Finish', inputSchema: z.object({ text: z.string() }) }),
}
const macro = { AgentOutput: createMacroTool(actions) }
const SCROLL = { scroll: { down: true, num_pages: 1 } }

const cases: Array<[string, string]> = [
  ['internlm', '<|action_start|><|plugin|>{"name": "scroll", "parameters": {"down": true}}<|action_end|>'],
  ['functiongemma', '<start_function_call>call:scroll{down:true}<end_function_call>'],
  ['react', 'Thought: I need to scroll.\nAction: scroll\nAction Input: {"down": true}'],
  ['firefunction', 'functools[{"name": "scroll", "arguments": {"down": true}}]'],
  ['claude-old-xml', '<function_calls><invoke><tool_name>scroll</tool_name><parameters><down>true</down></parameters></invoke></function_calls>'],
  ['command-r', 'Action: ```json\n[{"tool_name": "scroll", "parameters": {"down": true}}]\n```'],
  ['phi4', '<|tool_call|>[{"name": "scroll", "arguments": {"down": true}}]<|/tool_call|>'],
  ['nemotron', '<TOOLCALL>[{"name": "scroll", "arguments": {"down": true}}]</TOOLCALL>'],
  ['seed', '<seed:tool_call><function=scroll><parameter=down>true</parameter></function></seed:tool_call>'],
  ['jamba', '<tool_calls>[{"name": "scroll", "arguments": {"down": true}}]</tool_calls>'],
  ['langchain-tool', '{"tool": "scroll", "tool_input": {"down": true}}'],
  ['langchain-action', '```json\n{"action": "scroll", "action_input": {"down": true}}\n```'],
  ['function_name', '{"function_name": "scroll", "function_arguments": {"down": true}}'],
  ['recipient', '{"recipient_name": "functions.scroll", "parameters": {"down": true}}'],
  ['command', '{"command": "scroll", "args": {"down": true}}'],
  ['yaml-ish-fn', 'scroll(down=true, num_pages=2)'],
  ['js-call', 'scroll({"down": true})'],
  ['toolcall-tag-args-string', '<tool_call>{"name": "scroll", "arguments": "{\\"down\\": true}"}</tool_call>'],
  ['xml-params-typed', '<tool_call><name>scroll</name><arguments><down>true</down></arguments></tool_call>'],
  ['json-in-xml-arg', '<invoke name="input_text"><parameter name="index">4</parameter><parameter name="text">hi "there"</parameter></invoke>'],
  ['minimax-ns', '<minimax:tool_call>\n<invoke name="scroll">\n<parameter name="down">true</parameter>\n</invoke>\n</minimax:tool_call>'],
  ['bare-python-list-of-dicts', "[{'name': 'scroll', 'arguments': {'down': True}}]"],
  ['gpt-oss-stripped', 'commentary to=functions.scroll json{"down":true}<|call|>'],
  ['kimi-spaced', '<|tool_calls_section_begin|> <|tool_call_begin|> functions.scroll:0 <|tool_call_argument_begin|> {"down": true} <|tool_call_end|> <|tool_calls_section_end|>'],
  ['hermes-thinking', '<think>maybe {"name":"done","arguments":{"text":"no"}}</think>\n<tool_call>\n{"name": "scroll", "arguments": {"down": true}}\n</tool_call>'],
  ['action-key-nested', '{"name": "AgentOutput", "arguments": {"action": [{"scroll": {"down": "true"}}]}}'],
  ['html-escaped', '&lt;tool_call&gt;{"name": "scroll", "arguments": {"down": true}}&lt;/tool_call&gt;'],
  ['markdown-bold', '**Action:** `scroll` with `{"down": true}`'],
  ['llama-python-tag', '<|python_tag|>scroll.call(down=True)'],
  ['llama-eom', '{"type": "function", "name": "scroll", "parameters": {"down": true}}<|eom_id|>'],
  ['deepseek-v31', '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>scroll<｜tool▁sep｜>{"down": true}<｜tool▁call▁end｜><｜tool▁calls▁end｜>'],
  ['glm', '<tool_call>scroll\n<arg_key>down</arg_key>\n<arg_value>true</arg_value>\n</tool_call>'],
  ['mistral-compact', '[TOOL_CALLS]scroll[ARGS]{"down": true}'],
  ['gemma4', '<|tool_call|>call:scroll{down:<|"|>true<|"|>}<|/tool_call|>'],
  ['tool_code', '```tool_code\nprint(default_api.scroll(down=True))\n```'],
  ['bracket-name-args', '[scroll] {"down": true}'],
  ['name colon json', 'scroll: {"down": true}'],
]
const expected: Record<string, unknown> = {
  'yaml-ish-fn': { scroll: { down: true, num_pages: 2 } },
  'json-in-xml-arg': { input_text: { index: 4, text: 'hi "there"' } },
}

const INPUT_TEXT = { input_text: { index: 3, text: 'hi' } }
const read = (content: string, tools: ToolSet = macro, toolChoiceName: string | undefined = 'AgentOutput') =>
  repairToolCall({ role: 'assistant', content }, tools, toolChoiceName ? { toolChoiceName } : {})
const escapeError = (run: () => unknown) => {
  try {
    run()
  } catch (error) {
    return error as { type: string; message: string }
  }
  throw new Error('expected the repair to fail')
}

// JSON shapes recognised by the role of their parts, not by a list of key names.
describe('repairToolCall on JSON shapes read by role', () => {
  it.each([
    ['name/value pairs as arguments', '{"name": "input_text", "arguments": [{"name": "index", "value": 3}, {"name": "text", "value": "hi"}]}', INPUT_TEXT, 'argument-pairs'],
    ['key/value pairs as arguments', '{"name": "input_text", "arguments": [{"key": "index", "value": "3"}, {"key": "text", "value": "hi"}]}', INPUT_TEXT, 'argument-pairs'],
    ['arg_key/arg_value pairs', '{"name": "input_text", "parameters": [{"arg_key": "text", "arg_value": "hi"}, {"arg_key": "index", "arg_value": 3}]}', INPUT_TEXT, 'argument-pairs'],
    ['Anthropic content blocks written as text', '[{"type":"text","text":"Scrolling"},{"type":"tool_use","id":"t","name":"scroll","input":{"down":true}}]', SCROLL, 'unwrapped-envelope'],
    ['a Bedrock Converse toolUse', '{"toolUse": {"toolUseId": "x", "name": "scroll", "input": {"down": true}}}', SCROLL, 'unwrapped-envelope'],
    ['a Cohere v2 tool_plan beside tool_calls', '{"tool_plan": "I will scroll", "tool_calls": [{"name": "scroll", "parameters": {"down": true}}]}', SCROLL, 'unwrapped-envelope'],
    ['a flat object whose type is the action', '{"type":"input_text","index":3,"text":"hi"}', INPUT_TEXT, 'flattened-action'],
    ['a flat object whose action_type is the action', '{"action_type":"input_text","index":3,"text":"hi"}', INPUT_TEXT, 'flattened-action'],
    ['a flat object whose name is the action', '{"name": "input_text", "index": 3, "text": "hi"}', INPUT_TEXT, 'flattened-action'],
    ['kwargs as the argument object', '{"name": "scroll", "kwargs": {"down": true}}', SCROLL, 'unwrapped-envelope'],
    ['an argument object under a key of any name', '{"tool_name": "input_text", "tool_args": {"index": 3, "text": "hi"}}', INPUT_TEXT, 'unwrapped-envelope'],
    ['an answer with every quote backslash-escaped', '{\\"name\\": \\"scroll\\", \\"arguments\\": {\\"down\\": true}}', SCROLL, 'double-encoded-arguments'],
    ['a call stringified three times', JSON.stringify(JSON.stringify(JSON.stringify({ name: 'scroll', arguments: { down: true } }))), SCROLL, 'double-encoded-arguments'],
    ['key=value arguments', '{"name": "scroll", "arguments": "down=true"}', SCROLL, 'argument-pairs'],
    ['key: value arguments with a quoted value', '{"name": "input_text", "arguments": "index: 3, text: \\"hi\\""}', INPUT_TEXT, 'argument-pairs'],
    ['space-separated key=value arguments', '{"name": "input_text", "arguments": "index=3 text=hi"}', INPUT_TEXT, 'argument-pairs'],
    ['a whole chat message echoed as text', '{"role": "assistant", "content": [{"type": "text", "text": "ok"}, {"type": "tool_use", "id": "t", "name": "scroll", "input": {"down": true}}]}', SCROLL, 'unwrapped-envelope'],
    ['a whole OpenAI response echoed as text', '{"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": [{"id": "c", "type": "function", "function": {"name": "input_text", "arguments": "{\\"index\\": 3, \\"text\\": \\"hi\\"}"}}]}}]}', INPUT_TEXT, 'unwrapped-envelope'],
    ['a whole Gemini response echoed as text', '{"candidates": [{"content": {"parts": [{"text": "ok"}, {"functionCall": {"name": "scroll", "args": {"down": true}}}]}}]}', SCROLL, 'unwrapped-envelope'],
  ])('should read %s', (_name, content, action, fix) => {
    const { toolCall, fixes } = read(content)
    expect((toolCall.args as { action: unknown }).action).toEqual(action)
    expect(fixes).toContain(fix)
  })

  it('should keep the id of a Bedrock toolUse and of an Anthropic tool_use block', () => {
    expect(read('{"toolUse": {"toolUseId": "tooluse_1", "name": "scroll", "input": {"down": true}}}').toolCall.id).toBe('tooluse_1')
    expect(read('[{"type":"text","text":"ok"},{"type":"tool_use","id":"toolu_2","name":"scroll","input":{"down":true}}]').toolCall.id).toBe('toolu_2')
  })

  it('should read key=value arguments of a plain tool in a native call', () => {
    const tools = { input_text: actions.input_text }
    const message = { role: 'assistant' as const, content: null, tool_calls: [{ id: 'c', type: 'function' as const, function: { name: 'input_text', arguments: 'index=3, text="hi there"' } }] }
    const { toolCall, fixes } = repairToolCall(message, tools)
    expect(toolCall).toEqual({ id: 'c', name: 'input_text', args: { index: 3, text: 'hi there' } })
    expect(fixes).toEqual(expect.arrayContaining(['argument-pairs', 'coerced:integer']))
  })

  it('should skip the text blocks of a content-block list, even where one would fit the tool', () => {
    const tools = { done: actions.done }
    const content = '[{"type":"text","text":"I will finish"},{"type":"tool_use","id":"t","name":"done","input":{"text":"real"}}]'
    const { toolCall, dropped } = read(content, tools, 'done')
    expect(toolCall.args).toEqual({ text: 'real' })
    expect(dropped).toEqual([])
  })

  it.each([
    ['a "type" that names no action ("function")', '{"type":"function","foo":1}'],
    ['a "type" that names an unknown action', '{"type":"click","index":3}'],
    ['an action_type that names an unknown action', '{"action_type":"input","index":3,"text":"hi"}'],
    ['a list of content blocks without a call', '[{"type":"text","text":"scroll"},{"type":"text","text":"done"}]'],
    ['prose beside a list that holds no call', '{"tool_plan": "I will scroll", "tool_calls": []}'],
    ['nested data holding a known name without arguments', '{"page": {"title": "Results", "links": [{"name": "done"}, {"name": "scroll"}]}}'],
  ])('should not invent an action from %s', (_name, content) => {
    expect(escapeError(() => read(content)).type).toBe('no_tool_call')
  })

  it.each([
    ['name/value pairs with a key the action does not have', '{"name": "scroll", "arguments": [{"name": "down", "value": true}, {"name": "speed", "value": 2}]}'],
    ['key=value text with a key the action does not have', '{"name": "scroll", "arguments": "down=true speed=2"}'],
    ['prose as arguments', '{"name": "done", "arguments": "I am finished here"}'],
    ['a name/value pair list with a repeated key', '{"name": "done", "arguments": [{"name": "text", "value": "a"}, {"name": "text", "value": "b"}]}'],
  ])('should keep the error for %s', (_name, content) => {
    // `speed` would be stripped by the schema and the call would pass: pairs are read only when every key is known.
    const error = escapeError(() => read(content))
    expect(error.type).toBe('invalid_tool_args')
  })

  it('should not run an unclosed call whose quotes were escaped', () => {
    const error = escapeError(() => read('{\\"name\\": \\"done\\", \\"arguments\\": {\\"text\\": \\"hel'))
    expect(error.type).toBe('no_tool_call')
    expect(error.message).toContain('never closed')
  })

  it('should keep a field of the tool that holds a call-shaped value as that field', () => {
    const step = z.object({ name: z.string(), input: z.record(z.string(), z.unknown()) })
    const tools = { plan: defineTool({ inputSchema: z.object({ step }) }), scroll: actions.scroll }
    const content = '{"step": {"name": "scroll", "input": {"down": true}}}'
    expect(read(content, tools, 'plan').toolCall).toEqual({ name: 'plan', args: { step: { name: 'scroll', input: { down: true } } } })
    const message = { role: 'assistant' as const, content: null, tool_calls: [{ id: 'c', type: 'function' as const, function: { name: 'plan', arguments: content } }] }
    expect(repairToolCall(message, tools).toolCall.name).toBe('plan')
  })

  it('should keep an object field beside the name as that field, not as the whole input', () => {
    const move = defineTool({ inputSchema: z.object({ position: z.object({ x: z.number(), y: z.number() }) }) })
    const position = { x: 1, y: 2 }
    expect(read('{"name": "move", "position": {"x": 1, "y": 2}}', { move, done: actions.done }, undefined).toolCall).toEqual({ name: 'move', args: { position } })
    const agent = { AgentOutput: createMacroTool({ move, done: actions.done }) }
    for (const content of ['{"action": "move", "position": {"x": 1, "y": 2}}', '{"memory": "m", "action": [{"name": "move", "position": {"x": 1, "y": 2}}]}']) {
      expect((read(content, agent).toolCall.args as { action: unknown }).action).toEqual({ move: { position } })
    }
  })

  it('should not take a "type" field of the named tool for the name of another tool', () => {
    const tools = {
      create: defineTool({ inputSchema: z.object({ type: z.string(), path: z.string() }) }),
      file: defineTool({ inputSchema: z.object({ path: z.string() }) }),
    }
    expect(read('{"type": "file", "path": "a.txt"}', tools, 'create').toolCall).toEqual({ name: 'create', args: { type: 'file', path: 'a.txt' } })
  })

  it('should keep an argument whose key ends in _id as an argument', () => {
    const tools = {
      get_order: defineTool({ inputSchema: z.object({ order_id: z.string() }) }),
      cancel_order: defineTool({ inputSchema: z.object({ order_id: z.string() }) }),
    }
    expect(read('{"name": "get_order", "order_id": "A1"}', tools, undefined).toolCall).toEqual({ name: 'get_order', args: { order_id: 'A1' } })
  })

  it('should not let a pair or a key=value named __proto__ reach a prototype', () => {
    const tools = { input_text: actions.input_text }
    for (const args of ['[{"name": "__proto__", "value": {"polluted": "yes"}}, {"name": "index", "value": 3}]', '"__proto__=yes index=3 text=a"']) {
      expect(() => read(`{"name": "input_text", "arguments": ${args}}`, tools, 'input_text')).toThrow()
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})

describe('repairToolCall on formats beyond the field guide', () => {
  it.each(cases)('should read %s', (name, text) => {
    const { toolCall } = repairToolCall({ role: 'assistant', content: text }, macro, { toolChoiceName: 'AgentOutput' })
    expect((toolCall.args as { action: unknown }).action).toEqual(expected[name] ?? SCROLL)
  })

  it.each([
    ['a kebab-case name', '{"name": "input-text", "arguments": {"index": 3, "text": "a"}}'],
    ['a camelCase name', '{"name": "inputText", "arguments": {"index": 3, "text": "a"}}'],
    ['an HTML-escaped answer', '<tool_call>{&quot;name&quot;: &quot;input_text&quot;, &quot;arguments&quot;: {&quot;index&quot;: 3, &quot;text&quot;: &quot;a&quot;}}</tool_call>'],
    ['an action element with attributes', '<input_text index="3" text="a"/>'],
    ['an action element with attributes and a closer', 'Sure. <input_text index="3" text="a"></input_text>'],
  ])('should read %s', (_name, content) => {
    const { toolCall } = repairToolCall({ role: 'assistant', content }, macro, { toolChoiceName: 'AgentOutput' })
    expect((toolCall.args as { action: unknown }).action).toEqual({ input_text: { index: 3, text: 'a' } })
  })

  it('should lift reflection grouped under a key of its own (browser-use current_state)', () => {
    const content = '{"current_state": {"evaluation_previous_goal": "ok", "memory": "m", "next_goal": "n"}, "action": [{"done": {"text": "x"}}]}'
    const { toolCall, fixes } = repairToolCall({ role: 'assistant', content }, macro, { toolChoiceName: 'AgentOutput' })
    expect(toolCall.args).toEqual({ evaluation_previous_goal: 'ok', memory: 'm', next_goal: 'n', action: { done: { text: 'x' } } })
    expect(fixes).toContain('moved-reflection')
  })

  it('should stay linear on a flood of unclosed action tags', () => {
    const flood = (count: number) => '<scroll '.repeat(count)
    const run = (content: string) => () => expect(() => repairToolCall({ role: 'assistant', content }, macro, { toolChoiceName: 'AgentOutput' })).toThrow()
    assertLinear((count) => run(flood(count)), sizesBetween(20_000, 200_000))
  })

  it('should not let a YAML key named __proto__ reach a prototype', () => {
    const { toolCall } = read('__proto__:\n  polluted: yes\naction:\n  scroll:\n    down: true\n    __proto__:\n      polluted: yes')
    expect((toolCall.args as { action: unknown }).action).toEqual(SCROLL)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('should stay linear on YAML-like lines and on deep indentation', () => {
    const run = (content: string) => () => expect(() => read(content)).toThrow()
    const lines = (count: number) => 'note: the page lists products\n- item: price 3\n  scroll: x\n'.repeat(count)
    // Nesting far deeper than the reader descends, repeated.
    const stairs = (count: number) => Array.from({ length: count }, (_, line) => `${' '.repeat(line % 200)}key${line}:`).join('\n')
    assertLinear((count) => run(lines(count)), sizesBetween(5_000, 50_000))
    assertLinear((count) => run(stairs(count)), sizesBetween(5_000, 50_000))
  })
})

// Second round of general mechanisms: action names spelled loosely wherever an action is named, the
// action under a key of the model's own, a call written as text where an action or arguments were
// due, labelled lines (`✿FUNCTION✿:`/`✿ARGS✿:`, `Action Input: key=value`), an argument object
// beside the name inside a flat record, and reflection written as labelled prose.
describe('repairToolCall, second round', () => {
  const actionOf = (content: string, tools: ToolSet = macro) => (read(content, tools).toolCall.args as { action: unknown }).action
  const native = (name: string, args: string) => ({ role: 'assistant' as const, content: null, tool_calls: [{ id: 'c', type: 'function' as const, function: { name, arguments: args } }] })

  describe('action names spelled loosely', () => {
    it.each([
      ['a capitalised key of action', '{"action": {"Scroll": {"down": true}}}', SCROLL],
      ['a kebab-case key of action', '{"action": {"input-text": {"index": 3, "text": "hi"}}}', INPUT_TEXT],
      ['a camelCase key of action', '{"action": {"inputText": {"index": 3, "text": "hi"}}}', INPUT_TEXT],
      ['a namespaced key of action', '{"action": {"functions.scroll": {"down": true}}}', SCROLL],
      ['a key of an action list', '{"actions": [{"INPUT_TEXT": {"index": 3, "text": "hi"}}]}', INPUT_TEXT],
      ['an action key without the shell', '{"memory": "m", "Input Text": {"index": 3, "text": "hi"}}', INPUT_TEXT],
      ['a discriminator', '{"action": {"type": "Input Text", "index": 3, "text": "hi"}}', INPUT_TEXT],
      ['the name of an envelope in action', '{"action": {"name": "input-text", "arguments": {"index": 3, "text": "hi"}}}', INPUT_TEXT],
      ['a bare action name beside its fields', '{"action": "Scroll", "down": true}', SCROLL],
    ])('should read %s', (_name, content, action) => {
      const { toolCall, fixes } = read(content)
      expect((toolCall.args as { action: unknown }).action).toEqual(action)
      expect(fixes).toContain('normalized-tool-name')
    })

    it('should read a loosely spelled tool name used as the key of its input', () => {
      const tools = { scroll: actions.scroll, done: actions.done }
      const { toolCall, fixes } = read('{"Scroll": {"down": true}}', tools, undefined)
      expect(toolCall).toEqual({ name: 'scroll', args: { down: true, num_pages: 1 } })
      expect(fixes).toEqual(expect.arrayContaining(['tool-name-as-key', 'normalized-tool-name']))
    })

    it('should match no action when a spelling fits two of them', () => {
      const click = defineTool({ inputSchema: z.object({ index: z.number() }) })
      const tools = { AgentOutput: createMacroTool({ click_element: click, clickElement: click, done: actions.done }) }
      const error = escapeError(() => read('{"action": {"click-element": {"index": 3}}}', tools))
      expect(error.type).toBe('invalid_tool_args')
      expect(error.message).toContain('unknown action "click-element"')
      // Each exact spelling still names its own action.
      expect(actionOf('{"action": {"clickElement": {"index": 3}}}', tools)).toEqual({ clickElement: { index: 3 } })
    })
  })

  describe('the action under a key of the model’s own', () => {
    it.each([
      ['next_action', '{"next_action": {"scroll": {"down": true}}}'],
      ['a key of any name beside the reflection', '{"next_goal": "g", "step": {"scroll": {"down": true}}}'],
      ['a list under a key of any name', '{"plan": [{"scroll": {"down": true}}, {"done": {"text": "x"}}]}'],
      ['a loosely spelled action under a key of any name', '{"todo": {"Scroll": {"down": true}}}'],
    ])('should read the action under %s', (_name, content) => {
      expect(actionOf(content)).toEqual(SCROLL)
    })

    it('should keep the reflection and report moved-action, the rest of a list dropped', () => {
      const { toolCall, fixes, dropped } = read('{"memory": "m", "plan": [{"scroll": {"down": true}}, {"done": {"text": "x"}}]}')
      expect(toolCall.args).toEqual({ memory: 'm', action: SCROLL })
      expect(fixes).toContain('moved-action')
      expect(dropped).toEqual([{ args: { done: { text: 'x' } }, reason: 'extra' }])
    })

    it.each([
      ['two keys that each hold an action', '{"step": {"scroll": {"down": true}}, "then": {"done": {"text": "x"}}}'],
      ['a key whose value names no action', '{"next_goal": "g", "notes": {"page": "long"}}'],
      ['a key whose value names an action among other keys', '{"next_goal": "g", "state": {"scroll": {"down": true}, "url": "https://x"}}'],
    ])('should not guess an action from %s', (_name, content) => {
      expect(['no_tool_call', 'invalid_tool_args']).toContain(escapeError(() => read(content)).type)
      expect(escapeError(() => read(content)).message).not.toContain('AgentOutput.action.')
    })
  })

  describe('a call written as text where an action or arguments were due', () => {
    it.each([
      ['a pythonic call', '{"next_goal": "g", "action": "scroll(down=True)"}', { next_goal: 'g', action: SCROLL }, 'tool-markup:pythonic'],
      ['Hermes markup', '{"memory": "m", "action": "<tool_call>{\\"name\\": \\"input_text\\", \\"arguments\\": {\\"index\\": 3, \\"text\\": \\"hi\\"}}</tool_call>"}', { memory: 'm', action: INPUT_TEXT }, 'tool-markup:hermes'],
      ['JSON after prose', '{"next_goal": "g", "action": "I will scroll: {\\"scroll\\": {\\"down\\": true}}"}', { next_goal: 'g', action: SCROLL }, 'content-json'],
    ])('should read %s in the action slot, keeping the reflection', (_name, content, args, fix) => {
      const { toolCall, fixes } = read(content)
      expect(toolCall.args).toEqual(args)
      expect(fixes).toContain(fix)
    })

    it('should read a call written as the whole arguments of a native call', () => {
      expect(repairToolCall(native('AgentOutput', 'scroll(down=True)'), macro).toolCall.args).toEqual({ action: SCROLL })
      const tools = { input_text: actions.input_text, done: actions.done }
      expect(repairToolCall(native('input_text', 'input_text(index=3, text="hi")'), tools).toolCall).toEqual({ id: 'c', name: 'input_text', args: { index: 3, text: 'hi' } })
    })

    it('should not switch tools when the arguments spell a call of another tool', () => {
      const tools = { scroll: actions.scroll, done: actions.done }
      expect(escapeError(() => repairToolCall(native('done', 'scroll(down=True)'), tools)).type).toBe('invalid_tool_args')
    })

    it('should keep the error for a call string naming an unknown action', () => {
      const error = escapeError(() => read('{"next_goal": "g", "action": "click(index=3)"}'))
      expect(error.type).toBe('invalid_tool_args')
      expect(error.message).toContain('unknown action "click"')
    })

    it('should read text as a call only once, not text inside that call again', () => {
      const error = escapeError(() => repairToolCall(native('AgentOutput', `AgentOutput(action="scroll(down=True)")`), macro))
      expect(error.type).toBe('invalid_tool_args')
    })
  })

  describe('a name line followed by an arguments line', () => {
    it.each([
      ['Qwen-Agent', '✿FUNCTION✿: scroll\n✿ARGS✿: {"down": true}', SCROLL],
      ['Qwen-Agent with a result line', '✿FUNCTION✿: input_text\n✿ARGS✿: {"index": 3, "text": "hi"}\n✿RESULT✿: typed', INPUT_TEXT],
      ['ReAct with key=value input', 'Thought: go\nAction: scroll\nAction Input: down=true', SCROLL],
      ['bold labels with key=value input', '**Action:** input_text\n**Action Input:** index=3, text="hi"', INPUT_TEXT],
      ['a heading label and an Arguments line', '### Tool: scroll\nArguments: {"down": true}', SCROLL],
    ])('should read %s', (_name, content, action) => {
      const { toolCall, fixes } = read(content)
      expect((toolCall.args as { action: unknown }).action).toEqual(action)
      expect(fixes).toContain('tool-markup:react')
    })

    it.each([
      ['prose naming an action', 'Next step: scroll down'],
      ['an arguments line that does not follow the name', '✿FUNCTION✿: scroll\nI should go further down.\n✿ARGS✿: down=true'],
      ['key=value input with a key the action does not have', 'Thought: go\nAction: scroll\nAction Input: speed=fast'],
      ['a wrapped label naming an unknown tool', '✿FUNCTION✿: search\n✿ARGS✿: {"down": true}'],
    ])('should not turn %s into a call', (_name, content) => {
      expect(escapeError(() => read(content)).type).toBe('no_tool_call')
    })
  })

  describe('an argument object beside the name in a flat record', () => {
    it('should read a JSON-RPC request as the call it names', () => {
      const { toolCall, fixes } = read('{"jsonrpc": "2.0", "id": 1, "method": "scroll", "params": {"down": true}}')
      expect((toolCall.args as { action: unknown }).action).toEqual(SCROLL)
      expect(fixes).toEqual(expect.arrayContaining(['flattened-action', 'unwrapped-envelope']))
      const tools = { scroll: actions.scroll, done: actions.done }
      expect(read('{"jsonrpc": "2.0", "id": 1, "method": "scroll", "params": {"down": true}}', tools, undefined).toolCall).toEqual({ name: 'scroll', args: { down: true, num_pages: 1 } })
    })

    it('should read the argument object of a flat record in the action slot', () => {
      expect(actionOf('{"action": {"type": "input_text", "id": 7, "payload": {"index": 3, "text": "hi"}}}')).toEqual(INPUT_TEXT)
    })

    it('should keep an object that is a field of the action as that field', () => {
      const move = defineTool({ inputSchema: z.object({ position: z.object({ x: z.number(), y: z.number() }) }) })
      const tools = { AgentOutput: createMacroTool({ move, done: actions.done }) }
      expect(actionOf('{"action": {"type": "move", "id": 1, "position": {"x": 1, "y": 2}}}', tools)).toEqual({ move: { position: { x: 1, y: 2 } } })
    })

    it('should not take an object holding a key the action does not have', () => {
      const error = escapeError(() => read('{"jsonrpc": "2.0", "method": "scroll", "params": {"down": true, "speed": 2}}'))
      expect(error.type).toBe('invalid_tool_args')
    })
  })

  describe('reflection written as labelled prose before the call', () => {
    it.each([
      ['ReAct', 'Evaluation: ok\nMemory: m\nNext goal: g\nAction: {"scroll": {"down": true}}', { evaluation_previous_goal: 'ok', memory: 'm', next_goal: 'g', action: SCROLL }],
      ['markdown labels before markup', '**Memory:** m\n- Next goal: g\n<tool_call>{"name": "scroll", "arguments": {"down": true}}</tool_call>', { memory: 'm', next_goal: 'g', action: SCROLL }],
      ['snake-case labels before JSON', 'next_goal: g\n```json\n{"action": {"scroll": {"down": true}}}\n```', { next_goal: 'g', action: SCROLL }],
    ])('should lift the reflection of %s', (_name, content, args) => {
      const { toolCall, fixes } = read(content)
      expect(toolCall.args).toEqual(args)
      expect(fixes).toContain('moved-reflection')
    })

    it('should never overwrite reflection the JSON carries', () => {
      expect(read('Memory: from the prose\n{"memory": "from the JSON", "action": {"scroll": {"down": true}}}').toolCall.args).toEqual({ memory: 'from the JSON', action: SCROLL })
    })

    it('should take only labels that are a reflection key or the first words of exactly one', () => {
      expect(read('Next step: scroll\nGoal: g\nAction: {"scroll": {"down": true}}').toolCall.args).toEqual({ action: SCROLL })
      const reflection = z.object({ next_goal: z.string().optional(), next_step: z.string().optional() })
      const tools = { AgentOutput: createMacroTool(actions, { reflection }) }
      expect(read('Next: g\nNext step: s\nAction: {"scroll": {"down": true}}', tools).toolCall.args).toEqual({ next_step: 's', action: SCROLL })
    })

    it('should stay linear on a flood of labelled lines, with and without a call after them', () => {
      const lines = '**Memory:** m\n✿FUNCTION✿: scroll\nNote:' + ' x'.repeat(40) + '\n'
      const flood = (count: number) => lines.repeat(count)
      const fails = (content: string) => () => expect(() => read(content)).toThrow()
      const reads = (content: string) => () => expect(actionOf(content)).toEqual(SCROLL)
      assertLinear((count) => fails(flood(count)), sizesBetween(2_000, 20_000))
      const call = 'Action: {"scroll": {"down": true}}'
      assertLinear((count) => reads(flood(count) + call), sizesBetween(2_000, 20_000))
    })

    it('should leave a plain tool’s input alone', () => {
      const tools = { scroll: actions.scroll, done: actions.done }
      expect(read('Memory: m\nAction: scroll\nAction Input: {"down": true}', tools, undefined).toolCall.args).toEqual({ down: true, num_pages: 1 })
    })
  })
})

// Model text that made a pattern backtrack: a name that `\w+__` split in exponentially many ways,
// and long runs of spaces that two touching `[ \t]*` (or a trailing `[ \t]+$`) split quadratically.
describe('repairToolCall on adversarial runs', () => {
  const plain = { scroll: actions.scroll, input_text: actions.input_text }
  const spaces = (count: number) => ' '.repeat(count)
  // 200 characters: about 2^66 ways to split it into `word__` segments.
  const underscoreName = (length: number) => ('1__'.repeat(Math.ceil(length / 3)) + '1').slice(0, length - 1) + '1'

  it('should match a name of `1__` repeats in linear time', () => {
    const known = new Set(['scroll'])
    expect(matchName(underscoreName(200), known)).toBeUndefined()
    const many = (length: number) => () => {
      for (let round = 0; round < 2_000; round++) matchName(underscoreName(length), known)
    }
    assertLinear(many, sizesBetween(20, 200))
  })

  it('should reject a `1__` name in a native call or under a discriminator key in time linear in its length', () => {
    const native = (name: string) => ({ role: 'assistant' as const, content: null, tool_calls: [{ id: 'c', type: 'function' as const, function: { name, arguments: '{}' } }] })
    expect(() => repairToolCall(native(underscoreName(200)), plain)).toThrow(/unknown tool/)
    expect(() => read(`{"memory": "m", "type": "${underscoreName(200)}"}`)).toThrow()
    assertLinear((length) => {
      const message = native(underscoreName(length))
      return () => expect(() => repairToolCall(message, plain)).toThrow(/unknown tool/)
    }, sizesBetween(100, 1_000))
    assertLinear((length) => {
      const content = `{"memory": "m", "type": "${underscoreName(length)}"}`
      return () => expect(() => read(content)).toThrow()
    }, sizesBetween(100, 1_000))
  })

  it('should still cut exactly the namespaces it cut before', () => {
    const known = new Set(['scroll', 'b-c__d'])
    for (const name of ['functions.scroll', 'default_api:scroll', 'browser.scroll', 'tools__scroll', 'mcp__browser__scroll', 'a.b-c.scroll', 'functions.scroll:0', '"functions.scroll"']) {
      expect(matchName(name, known), name).toBe('scroll')
    }
    // A dash ends a `word__` segment, an empty segment ends the chain, and a digit is no name start.
    expect(matchName('a__b-c__d', known)).toBe('b-c__d')
    for (const name of ['a-b__scroll', 'a.b-c__scroll', '.scroll', 'a..scroll', 'a.1scroll', 'a b.scroll']) expect(matchName(name, known), name).toBeUndefined()
  })

  it.each([
    ['a key=value line after a line of spaces', (count: number) => `x=1\n${spaces(count)}!`],
    ['a command line with a run of spaces before its pairs', (count: number) => `scroll a${spaces(count)}b=1`],
    ['a YAML scalar with a run of spaces inside', (count: number) => `name: a${spaces(count)}b`],
    ['a fence whose info string is a run of spaces', (count: number) => `\`\`\`${spaces(count)}!`],
    ['a `<` before a run of spaces', (count: number) => `<${spaces(count)}!`],
  ])('should stay linear on %s', (_name, content) => {
    const run = (count: number) => () => expect(() => read(content(count), plain, undefined)).toThrow()
    assertLinear(run, sizesBetween(10_000, 100_000))
  })

  it('should stay linear on a line of spaces before labelled reflection and a call', () => {
    const run = (count: number) => () => expect(read(`x\n${spaces(count)}!\nMemory: m\n{"action": {"scroll": {"down": true}}}`).toolCall.args).toEqual({ memory: 'm', action: SCROLL })
    assertLinear(run, sizesBetween(10_000, 100_000))
  })

  it('should still read a fence language, reasoning tags and labels with spaces where they were allowed', () => {
    expect(read('```  json  \n{"action": {"scroll": {"down": true}}}\n```').fixes).toContain('fenced')
    expect(read('< / think >\n{"action": {"scroll": {"down": true}}}').fixes).toContain('stripped-reasoning')
    expect(read('< think >no</ think >{"action": {"scroll": {"down": true}}}').toolCall.args).toEqual({ action: SCROLL })
    expect(read('  ** Memory:** m\n{"action": {"scroll": {"down": true}}}').toolCall.args).toEqual({ memory: 'm', action: SCROLL })
    expect(read('$ `scroll down=true`', { scroll: actions.scroll }, undefined).toolCall.args).toEqual({ down: true, num_pages: 1 })
  })
})

describe('shapeMacroInput with a key named __proto__', () => {
  const info = macro.AgentOutput.macro!
  // Counts every write through Object.prototype's `__proto__` setter while `run` runs.
  const prototypeWrites = (run: () => void) => {
    const setter = Object.getOwnPropertyDescriptor(Object.prototype, '__proto__')!
    let writes = 0
    Object.defineProperty(Object.prototype, '__proto__', {
      ...setter,
      set(value: unknown) {
        writes++
        setter.set!.call(this, value)
      },
    })
    try {
      run()
    } finally {
      Object.defineProperty(Object.prototype, '__proto__', setter)
    }
    return writes
  }

  it('should move an action held under __proto__ as an own value, never through a prototype', () => {
    const fixes: string[] = []
    let result: unknown
    expect(prototypeWrites(() => (result = shapeMacroInput(JSON.parse('{"memory": "m", "__proto__": {"scroll": {"down": true}}}'), info, 'AgentOutput', fixes, [])))).toBe(0)
    expect(result).toEqual({ args: { memory: 'm', action: { scroll: { down: true } } } })
    expect(fixes).toContain('moved-action')
  })

  it('should keep a __proto__ key beside a flattened action name as data', () => {
    let result: { args: { action: { scroll: object } } } | undefined
    const writes = prototypeWrites(() => {
      result = shapeMacroInput(JSON.parse('{"type": "scroll", "__proto__": {"down": true}}'), info, 'AgentOutput', [], []) as typeof result
    })
    expect(writes).toBe(0)
    const input = result!.args.action.scroll
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype)
    expect(Object.keys(input)).toEqual(['down'])
  })

  it('should keep __proto__ as own data in an envelope read by the role of its argument object', () => {
    let input: unknown
    // `__proto__` as the one object beside the name, for a tool that has a field of that name: the record without its name.
    expect(prototypeWrites(() => (input = envelopeInput(JSON.parse('{"name": "x", "__proto__": {"polluted": true}}'), new Set(['__proto__']))))).toBe(0)
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype)
    expect(Object.getOwnPropertyDescriptor(input, '__proto__')?.value).toEqual({ polluted: true })
  })
})
