import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMacroTool } from '../macro/create-macro-tool'
import { defineTool } from '../tool/define-tool'
import { repairToolCall } from './repair-tool-call'

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
    const time = (count: number) => {
      const content = '<scroll '.repeat(count)
      let best = Infinity
      for (let round = 0; round < 3; round++) {
        const started = performance.now()
        expect(() => repairToolCall({ role: 'assistant', content }, macro, { toolChoiceName: 'AgentOutput' })).toThrow()
        best = Math.min(best, performance.now() - started)
      }
      return Math.max(best, 1)
    }
    // Ten times the input: about ten times the work when linear, a hundred when quadratic.
    expect(time(100_000) / time(10_000)).toBeLessThan(30)
  })

  it('should unwrap a list of calls under a key of any name (multi_tool_use)', () => {
    const content = '{"tool_uses": [{"recipient_name": "functions.scroll", "parameters": {"down": true}}]}'
    const { toolCall } = repairToolCall({ role: 'assistant', content }, macro, { toolChoiceName: 'AgentOutput' })
    expect((toolCall.args as { action: unknown }).action).toEqual(SCROLL)
  })

  it('should never turn a word in the prose into the action that reflection-only JSON left out', () => {
    const waiting = { wait: defineTool({ description: 'Wait', inputSchema: z.object({ seconds: z.number().default(1) }) }), done: actions.done }
    const tools = { AgentOutput: createMacroTool(waiting) }
    const content = 'Let me wait. {"memory": "page is loading", "next_goal": "check again"}'
    expect(() => repairToolCall({ role: 'assistant', content }, tools, { toolChoiceName: 'AgentOutput' })).toThrow(/action/)
  })

  it('should report a name taken from before the JSON', () => {
    const { fixes } = repairToolCall({ role: 'assistant', content: 'scroll: {"down": true}' }, macro, { toolChoiceName: 'AgentOutput' })
    expect(fixes).toContain('name-before-json')
  })

  it('should prefer what unnamed JSON says on its own over a name written before it', () => {
    const content = 'I will scroll now: {"next_goal": "type", "action": {"input_text": {"index": 2, "text": "scroll"}}}'
    const { toolCall, fixes } = repairToolCall({ role: 'assistant', content }, macro, { toolChoiceName: 'AgentOutput' })
    expect(toolCall.args).toMatchObject({ action: { input_text: { index: 2, text: 'scroll' } } })
    expect(fixes).not.toContain('name-before-json')
  })

  it('should keep a "command" field with an array beside it as arguments, not as an envelope', () => {
    const tools = { exec: defineTool({ inputSchema: z.object({ command: z.string(), args: z.array(z.string()) }) }) }
    const { toolCall } = repairToolCall({ role: 'assistant', content: '{"command": "ls", "args": ["-la"]}' }, tools, { toolChoiceName: 'exec' })
    expect(toolCall).toMatchObject({ name: 'exec', args: { command: 'ls', args: ['-la'] } })
  })

  it('should read several call elements as several calls and take the first valid one', () => {
    const content = '<function_calls><invoke><tool_name>nope</tool_name><parameters><x>1</x></parameters></invoke><invoke><tool_name>done</tool_name><parameters><text>ok</text></parameters></invoke></function_calls>'
    const { toolCall, fixes } = repairToolCall({ role: 'assistant', content }, macro, { toolChoiceName: 'AgentOutput' })
    expect(toolCall.args).toMatchObject({ action: { done: { text: 'ok' } } })
    expect(fixes).toContain('dropped-calls:1')
  })

  it('should not let an element named __proto__ reach a prototype', () => {
    const content = '<tool_call><name>scroll</name><arguments><__proto__><polluted>yes</polluted></__proto__><down>true</down></arguments></tool_call>'
    const { toolCall } = repairToolCall({ role: 'assistant', content }, macro, { toolChoiceName: 'AgentOutput' })
    expect(toolCall.args).toMatchObject({ action: SCROLL })
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})
