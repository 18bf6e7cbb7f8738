import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createClient, createMacroTool, defineTool, repairToolCall } from '../index'
import { startScriptedServer, type ScriptedServer } from '../testing'
import type { ChatResponseMessage } from '../types'
import type { ToolSet } from '../tool/types'
import { createBrowserTools } from './__fixtures__/browser-tools'
import { failure } from './__fixtures__/failure'

// Classes of real model output that decide whether text holds a call at all: a call whose end token
// the server stripped, a call shown to the user, a draft in the reasoning, `{"NAME": {…}}`, and a
// broken fragment before a complete call. Each case is a whole answer as a model writes it.

const executed: string[] = []
const tool = <S extends z.ZodType>(name: string, inputSchema: S) => defineTool({ description: name, inputSchema, execute: async (input) => (executed.push(name), input) })
const search = tool('search', z.object({ query: z.string(), limit: z.number().optional() }))
const get_time = tool('get_time', z.object({ tz: z.string() }))
const get_weather = tool('get_weather', z.object({ location: z.string(), unit: z.string().optional() }))
const two: ToolSet = { search, get_time }
const AgentOutput = createMacroTool(createBrowserTools())
const withFallback = createMacroTool(createBrowserTools(), { fallbackAction: { name: 'wait', input: { seconds: 1 } } })

const content = (text: string, extra: Partial<ChatResponseMessage> = {}): ChatResponseMessage => ({ role: 'assistant', content: text, ...extra })
const SEARCH_X = { name: 'search', args: { query: 'x' } }

describe('repairToolCall', () => {
  describe('a call whose end token the server stripped', () => {
    it.each([
      ['an element tree without </invoke></function_calls>', '<function_calls><invoke><tool_name>search</tool_name><parameters><query>x</query></parameters>'],
      ['an element tree without </tool_call>, <|im_end|> after it', '<tool_call><name>search</name><arguments><query>x</query></arguments><|im_end|>'],
      ['an element tree with its name as an attribute, no closers', '<function_calls>\n<invoke name="search">\n<parameters><query>x</query></parameters>\n'],
      ['Hermes without </tool_call>', '<tool_call>\n{"name": "search", "arguments": {"query": "x"}}<|im_end|>'],
      ['Qwen3-Coder without </function></tool_call>', '<tool_call>\n<function=search>\n<parameter=query>\nx\n</parameter>\n'],
      ['GLM without </tool_call>', '<tool_call>search\n<arg_key>query</arg_key>\n<arg_value>x</arg_value>\n<|observation|>'],
      ['MiniMax without </invoke>', '<minimax:tool_call>\n<invoke name="search">\n<parameter name="query">x</parameter>\n'],
      ['Kimi without <|tool_call_end|>', '<|tool_calls_section_begin|><|tool_call_begin|>functions.search:0<|tool_call_argument_begin|>{"query": "x"}'],
      ['DeepSeek without <｜tool▁call▁end｜>', '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>search\n```json\n{"query": "x"}\n```'],
      ["gpt-oss without <|call|>", '<|start|>assistant<|channel|>commentary to=functions.search <|constrain|>json<|message|>{"query": "x"}'],
      ['gpt-oss with the recipient in the role header (the prompt ended at <|start|>assistant)', ' to=functions.search<|channel|>commentary<|message|>{"query": "x"}'],
      ['gpt-oss with the recipient in the role header, analysis channel, <|call|>', ' to=functions.search<|channel|>analysis<|message|>{"query": "x"}<|call|>'],
      ['gpt-oss with the recipient in the role header and <|constrain|>json', ' to=functions.search<|channel|>commentary <|constrain|>json<|message|>{"query": "x"}'],
      ['gpt-oss with its tokens stripped, the channel run into the name', ' to=functions.searchcommentary json{"query": "x"}'],
      ["Mistral's list with only its final ] cut", '[TOOL_CALLS][{"name": "search", "arguments": {"query": "x"}}'],
      ['an element tree missing an inner closer', '<tool_call><name>search</name><arguments><query>x</arguments></tool_call>'],
      ['an element tree missing the closer of its parameter', '<function_calls><invoke><tool_name>search</tool_name><parameters><query>x</parameters></invoke></function_calls>'],
      ['LFM2 without <|tool_call_end|>', '<|tool_call_start|>[search(query="x")]'],
      ['Gemma without <end_function_call>', '<start_function_call>call:search{query:<escape>x<escape>}'],
      ['Llama with <|eom_id|> for its end', '<|python_tag|>{"name": "search", "parameters": {"query": "x"}}<|eom_id|>'],
      ['a ReAct input line ending in <|eot_id|>, the token no part of the value', 'Action: search\nAction Input: query=x<|eot_id|>'],
    ])('should take %s', (_label, text) => {
      expect(repairToolCall(content(text), two).toolCall).toEqual(SEARCH_X)
    })

    it("should read Functionary's python built-in (raw code after the recipient) for a declared python tool of one string parameter", () => {
      const python = tool('python', z.object({ code: z.string() }))
      const text = '>>>python\nimport os\n\nprint([f for f in os.listdir(".")])'
      expect(repairToolCall(content(text), { python }).toolCall).toEqual({ name: 'python', args: { code: 'import os\n\nprint([f for f in os.listdir(".")])' } })
      // Another message after the code ends it.
      expect(repairToolCall(content('>>>python\nprint(1)\n>>>all\nDone.'), { python }).toolCall.args).toEqual({ code: 'print(1)' })
    })

    it("should keep Mistral's list cut inside a value of its last call cut off", () => {
      for (const text of ['[TOOL_CALLS][{"name": "search", "arguments": {"query": "x', '[TOOL_CALLS][{"name": "search", "arguments": {"query":']) {
        expect(failure(() => repairToolCall(content(text), two)).type, text).toBe('no_tool_call')
      }
    })

    it("should read Mistral's list short of only its last closers as complete (closed-json: every value was written)", () => {
      const result = repairToolCall(content('[TOOL_CALLS][{"name": "search", "arguments": {"query": "x"}'), two)
      expect(result.toolCall).toEqual(SEARCH_X)
      expect(result.fixes).toContain('closed-json')
    })

    it('should end a call without its closer at the next call, so the next one is reported', () => {
      for (const text of [
        '<tool_call><name>search</name><arguments><query>x</query></arguments>\n<tool_call><name>get_time</name><arguments><tz>UTC</tz></arguments>',
        '<tool_call>\n<function=search>\n<parameter=query>\nx\n</parameter>\n<tool_call>\n<function=get_time>\n<parameter=tz>\nUTC\n</parameter>\n',
      ]) {
        const result = repairToolCall(content(text), two)
        expect(result.toolCall, text).toEqual(SEARCH_X)
        expect(result.dropped, text).toEqual([{ name: 'get_time', args: { tz: 'UTC' }, reason: 'extra' }])
      }
    })

    it.each([
      ['an element value', '<function_calls><invoke><tool_name>search</tool_name><parameters><query>x'],
      ['a Qwen3-Coder parameter', '<tool_call>\n<function=search>\n<parameter=query>\nx\n'],
      ['a GLM value', '<tool_call>search\n<arg_key>query</arg_key>\n<arg_value>x'],
      ['a Gemma body', '<start_function_call>call:search{query:<escape>x<escape>'],
    ])('should still call a body that is itself unclosed (%s) malformed, never executing it', (_label, text) => {
      const error = failure(() => repairToolCall(content(text), two))
      expect(error.type).toBe('no_tool_call')
      expect(error.message).toContain('never closed')
    })
  })

  describe('a call shown to the user', () => {
    it.each([
      ["a harmony final channel", '<|start|>assistant<|channel|>final<|message|>Call it like so: {"name": "search", "arguments": {"query": "x"}}<|return|>'],
      ['a harmony final channel holding only JSON', '<|channel|>final<|message|>{"name": "search", "arguments": {"query": "x"}}<|end|>'],
      ['a message addressed to=user', '<|start|>assistant to=user<|channel|>commentary<|message|>{"name": "search", "arguments": {"query": "x"}}<|end|>'],
      ['harmony with its tokens stripped', 'analysisThe user asks how to search.assistantfinalUse {"name": "search", "arguments": {"query": "x"}}.'],
      ["Functionary's recipient all", '>>>all\nHere is how: {"name": "search", "arguments": {"query": "x"}}'],
      ['"you invoke it like this"', 'The tool exists. You invoke it like this: {"name": "search", "arguments": {"query": "x"}}'],
      ['a fence introduced as an example', 'Here is an example of calling the search tool:\n\n```json\n{"name": "search", "arguments": {"query": "x"}}\n```'],
      ['a call in prose after "for example"', 'For example, `search(query="x")` looks a word up.'],
      ['markup the user is told to write', 'You would call it like this:\n<tool_call>\n{"name": "search", "arguments": {"query": "x"}}\n</tool_call>'],
      ['a usage line', 'Usage:\n```\nsearch(query="x")\n```'],
      ['"here is how to call it"', "Here's how to call it:\n{\"name\": \"search\", \"arguments\": {\"query\": \"x\"}}"],
      ['"you can call it like so"', 'You can call it like so: [search(query="x")]'],
    ])('should not execute %s (no_tool_call)', (_label, text) => {
      const error = failure(() => repairToolCall(content(text), two))
      expect(error.type).toBe('no_tool_call')
      expect(error.message).toContain('answered without a usable tool call')
    })

    it.each([
      ['a sentence, then a fenced call', "I'll search for that now.\n```json\n{\"name\": \"search\", \"arguments\": {\"query\": \"x\"}}\n```"],
      ['"let me call it like this"', 'Let me call it like this:\n{"name": "search", "arguments": {"query": "x"}}'],
      ['a fence without framing', '```json\n{"name": "search", "arguments": {"query": "x"}}\n```'],
      ['"so you can use it"', 'I will look it up so you can use it later:\n{"name": "search", "arguments": {"query": "x"}}'],
      ['"for you"', "I'll run the search for you:\n<tool_call>\n{\"name\": \"search\", \"arguments\": {\"query\": \"x\"}}\n</tool_call>"],
      ['"let me use the following call"', 'Let me use the following call:\n```json\n{"name": "search", "arguments": {"query": "x"}}\n```'],
      ['a question about an example', 'To answer your question about the example, I will now search: {"name": "search", "arguments": {"query": "x"}}'],
      ['a domain named example', 'Searching example.com first:\n{"name": "search", "arguments": {"query": "x"}}'],
      ['an example two paragraphs before', 'For example, a search finds pages.\n\nNow I will look it up:\n{"name": "search", "arguments": {"query": "x"}}'],
      ['a harmony commentary call before the final message', '<|channel|>commentary to=functions.search <|constrain|>json<|message|>{"query": "x"}<|call|><|start|>assistant<|channel|>final<|message|>Example: {"name": "get_time", "arguments": {"tz": "UTC"}}<|return|>'],
      ['Functionary: a word to the user, then a call', '>>>all\nLet me look.\n>>>search\n{"query": "x"}'],
      ['a stripped harmony commentary call before the final message', 'assistantcommentary to=functions.search json{"query": "x"}assistantfinalExample: {"name": "get_time", "arguments": {"tz": "UTC"}}'],
      ['a stripped harmony analysis call with no final message after it', 'analysisLet me look.assistantanalysis to=functions.search json{"query": "x"}'],
    ])('should still take the genuine call after %s', (_label, text) => {
      const result = repairToolCall(content(text), two)
      expect(result.toolCall).toEqual(SEARCH_X)
      expect(result.dropped).toEqual([])
    })

    it.each([
      ['an analysis-channel call, then a final message', '<|channel|>analysis to=functions.search <|constrain|>json<|message|>{"query": "x"}<|call|><|start|>assistant<|channel|>final<|message|>It is x.<|return|>'],
      ['an analysis-channel call with the recipient in the role, then a final message', '<|channel|>analysis<|message|>Hm.<|end|><|start|>assistant to=functions.search<|channel|>analysis<|message|>{"query": "x"}<|call|><|start|>assistant<|channel|>final<|message|>It is x.<|return|>'],
      ['the same with its tokens stripped', 'assistantanalysis to=functions.search json{"query": "x"}assistantfinalIt is x.'],
      ['the same stripped, opening the answer', 'analysis to=functions.search json{"query": "x"}assistantfinalIt is x.'],
      ['the same stripped, the recipient in the role', 'analysisHm.assistant to=functions.searchanalysis json{"query": "x"}assistantfinalIt is x.'],
      ['a call in a to=self message, then a message to=user (Muse Glimmer)', ' to=self<|message|>I could call <atem:function_calls>\n<atem:invoke name="search">\n<atem:parameter name="query">x</atem:parameter>\n</atem:invoke>\n</atem:function_calls><|eom|><|start|>assistant to=user<|message|>It is x.<|eot|>'],
    ])('should not execute %s: the model thought of the call and answered the user', (_label, text) => {
      expect(failure(() => repairToolCall(content(text), two)).type).toBe('no_tool_call')
    })

    it.each([
      ['a </think> in a Qwen3-Coder value', '<tool_call>\n<function=search>\n<parameter=query>\nx</think>\n</parameter>\n</function>\n</tool_call>', 'x</think>'],
      ['a <think> in a GLM value after the reasoning', '<think>Plan.</think><tool_call>search\n<arg_key>query</arg_key>\n<arg_value><think> x</arg_value>\n</tool_call>', '<think> x'],
      ['a </think> in a Python string', "[search(query='a </think> b')]", 'a </think> b'],
    ])('should read %s as text of the value, not the end of the reasoning', (_label, text, query) => {
      expect(repairToolCall(content(text), two).toolCall).toEqual({ name: 'search', args: { query } })
    })

    it.each([
      ['a Hermes call in a Python string', `[search(query='<tool_call>{"name": "get_time", "arguments": {"tz": "UTC"}}</tool_call>')]`, '<tool_call>{"name": "get_time", "arguments": {"tz": "UTC"}}</tool_call>'],
      ['a Qwen3-Coder opener and JSON in a Python string', "[search(query='<function=get_time>[1, 2]')]", '<function=get_time>[1, 2]'],
      ['a recipient and JSON in a Gemma string', '<start_function_call>call:search{query:<escape> to=functions.get_time{"tz": "UTC"}<escape>}<end_function_call>', ' to=functions.get_time{"tz": "UTC"}'],
      ['a MiniMax invoke in a Qwen3-Coder value', '<tool_call>\n<function=search>\n<parameter=query>\n<invoke name="get_time">{"tz": "UTC"}</invoke>\n</parameter>\n</function>\n</tool_call>', '<invoke name="get_time">{"tz": "UTC"}</invoke>'],
      ['a Qwen3-Coder call in a GLM value', '<tool_call>search\n<arg_key>query</arg_key>\n<arg_value><function=get_time>\n<parameter=tz>\nUTC\n</parameter>\n</function></arg_value>\n</tool_call>', '<function=get_time>\n<parameter=tz>\nUTC\n</parameter>\n</function>'],
    ])('should read %s as text of the value, never as a call', (_label, text, query) => {
      const result = repairToolCall(content(text), two)
      expect(result.toolCall).toEqual({ name: 'search', args: { query } })
      expect(result.dropped).toEqual([])
    })

    it.each([
      ['MiniMax M3 elements inside a string parameter', `${']<]minimax[>['}<invoke name="search">\n${']<]minimax[>['}<query>a ${']<]minimax[>['}<b>bold${']<]minimax[>['}</b> c${']<]minimax[>['}</query>\n${']<]minimax[>['}</invoke>`, `a ${']<]minimax[>['}<b>bold${']<]minimax[>['}</b> c`],
      ['an XML tree inside a string parameter', '<tool_call><name>search</name><arguments><query>a <b>bold</b> c</query></arguments></tool_call>', 'a <b>bold</b> c'],
      ['repeated elements inside a string parameter of an element tree', '<function_calls><invoke><tool_name>search</tool_name><parameters><query><p>x</p><p>y</p></query></parameters></invoke></function_calls>', '<p>x</p><p>y</p>'],
    ])('should read %s as its text with the markup inside, exactly', (_label, text, query) => {
      expect(repairToolCall(content(text), two).toolCall).toEqual({ name: 'search', args: { query } })
    })

    it('should keep the text before a list of named envelopes with the call opened from it', () => {
      const result = repairToolCall(content('Let me search.\n[{"name": "search", "arguments": {"query": "x"}}, {"name": "get_time", "arguments": {"tz": "UTC"}}]'), two)
      expect(result.toolCall).toEqual(SEARCH_X)
      expect(result.textBefore).toBe('Let me search.\n')
    })

    it("should not take a call drafted in the reasoning when the answer is harmony's final message", () => {
      const text = '<|channel|>analysis<|message|>I could call search(query="x") but I know it.<|end|><|start|>assistant<|channel|>final<|message|>It is x.<|return|>'
      expect(failure(() => repairToolCall(content(text), two)).type).toBe('no_tool_call')
      // Without the final message the draft is the call, as for any answer without one.
      expect(repairToolCall(content('<|channel|>analysis<|message|>I will call search(query="x").<|end|>'), two).toolCall).toEqual(SEARCH_X)
    })

    it('should take the real call after an example, and not report the example as a call', () => {
      const text = 'For example: {"name": "search", "arguments": {"query": "demo"}}\n\nNow the real one:\n{"name": "search", "arguments": {"query": "x"}}'
      const result = repairToolCall(content(text), two)
      expect(result.toolCall).toEqual(SEARCH_X)
      expect(result.dropped).toEqual([])
    })
  })

  describe('examples told apart by structure', () => {
    it.each([
      ['an instruction to use the call', 'Use the following call:\n```json\n{"name": "search", "arguments": {"query": "x"}}\n```'],
      ['an example followed by text for the user (Qwen2.5 3B)', 'Sure. An example search looks like this:\n<tool_call>\n{"name": "search", "arguments": {"query": "x"}}\n</tool_call>\nReplace the query with whatever you need.'],
      ['"e.g." with a call in the sentence', 'The search tool finds pages, e.g. `search(query="x")` returns the top results for x.'],
    ])('should not execute %s', (_label, text) => {
      expect(failure(() => repairToolCall(content(text), two)).type).toBe('no_tool_call')
    })

    it.each([
      ['"let me run an example search:"', 'Let me run an example search:\n<tool_call>\n{"name": "search", "arguments": {"query": "x"}}\n</tool_call>'],
      ['an example named before a call that ends the answer', 'Here is an example query for your request:\n{"name": "search", "arguments": {"query": "x"}}'],
      ['"for example" in a preface, the call ending the answer', 'There are many sources, for example news sites.\n[search(query="x")]'],
      ['a "Call:" label', 'Call:\n{"name": "search", "arguments": {"query": "x"}}'],
      ['a call after prose, with only markup after it', 'I am looking up the term now.\n<tool_call>\n{"name": "search", "arguments": {"query": "x"}}\n</tool_call><|im_end|>'],
    ])('should take the call after %s', (_label, text) => {
      expect(repairToolCall(content(text), two).toolCall).toEqual(SEARCH_X)
    })

    it('should let a list of calls share its introduction', () => {
      const text = 'You can call them like so:\n```\nsearch(query="x")\n```\n```\nget_time(tz="UTC")\n```'
      expect(failure(() => repairToolCall(content(text), two)).type).toBe('no_tool_call')
      const made = repairToolCall(content('Let me check both:\n[search(query="x"), get_time(tz="UTC")]'), two)
      expect(made.toolCall).toEqual(SEARCH_X)
      expect(made.dropped).toEqual([{ name: 'get_time', args: { tz: 'UTC' }, reason: 'extra' }])
    })
  })

  describe('an answer that describes the tools', () => {
    const weather = { search, get_time, get_weather } as ToolSet
    it.each([
      [
        'Qwen2.5 1.5B, a numbered list with an example each',
        'I can help with a few things:\n\n1. **get_weather** – gives the current weather for a location. For example: `get_weather(location="Rome")`\n2. **search** – looks things up on the web. For example: `search(query="news")`\n\nWhat would you like me to do?',
      ],
      [
        'Llama 3.2 3B, one JSON snippet per tool, ending in a call',
        'I have access to the following functions:\n\nget_weather: Get the current weather in a given location.\n{"name": "get_weather", "parameters": {"location": "Rome"}}\n\nget_time: Get the current time in a time zone.\n{"name": "get_time", "parameters": {"tz": "UTC"}}',
      ],
      [
        'Mistral 7B, Hermes blocks each after a sentence on its tool',
        'The get_time tool tells the time in a time zone:\n<tool_call>\n{"name": "get_time", "arguments": {"tz": "Europe/Rome"}}\n</tool_call>\nThe search tool finds pages on the web:\n<tool_call>\n{"name": "search", "arguments": {"query": "Rome"}}\n</tool_call>\nJust tell me which one you need.',
      ],
      [
        '"For example, I can call" for each tool',
        'I can check the weather for you. For example, I can call `get_weather(location="Rome")`.\nI can also search the web. For example, I can call `search(query="Rome hotels")`.',
      ],
      ['"You can use them as follows:" with one snippet per tool', 'You can use them as follows:\n```python\nget_weather(location="Rome")\n```\n```python\nsearch(query="Rome")\n```'],
    ])('should execute nothing for %s (no_tool_call)', (_label, text) => {
      expect(failure(() => repairToolCall(content(text), weather)).type).toBe('no_tool_call')
    })

    const WEATHER_ROME = { name: 'get_weather', args: { location: 'Rome' } }
    it.each([
      ['calls each after "I\'ll"', WEATHER_ROME, "I'll check the weather first.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"location\": \"Rome\"}}\n</tool_call>\nThen I will search for hotels.\n<tool_call>\n{\"name\": \"search\", \"arguments\": {\"query\": \"x\"}}\n</tool_call>"],
      ['a list of calls after one preface', SEARCH_X, 'Sure, checking both now:\n{"name": "search", "arguments": {"query": "x"}}\n{"name": "get_weather", "arguments": {"location": "Rome"}}'],
      ['two calls of one tool after their own prose', SEARCH_X, 'Looking up the first term now:\n{"name": "search", "arguments": {"query": "x"}}\nAnd the second term as well:\n{"name": "search", "arguments": {"query": "y"}}'],
      ['a short reply, then calls with a word between', SEARCH_X, 'Okay.\n[search(query="x")]\nand\n[get_time(tz="UTC")]'],
    ])('should still take the first real call of %s', (_label, call, text) => {
      expect(repairToolCall(content(text), weather).toolCall).toEqual(call)
    })
  })

  describe('a call in the reasoning', () => {
    it.each([
      ['a search result holding a field of the sole tool', { get_weather } as ToolSet, content('It is sunny in Paris.', { reasoning_content: "The search returned {'location': 'Paris', 'temp': 20}. Good." })],
      ['a nameless object inside <think>', { get_weather } as ToolSet, content("<think>Result: {'location': 'Paris'}</think>The weather is nice.")],
      ['an example envelope naming no tool', two, content('<think>An example: {"name": "Bingo", "arguments": {}}</think>Hello!')],
      ['an unknown name in the reasoning field', two, content('Hello!', { reasoning: 'e.g. {"name": "Bingo", "arguments": {}}' })],
      ['an unknown name written before JSON', two, content('Done.', { reasoning: 'I could use web_search{"query": "x"} here.' })],
      ["a list of a name that is no tool", two, content('Hi.', { reasoning_content: '[{"Bingo": {"a": 1}}]' })],
    ])('should not read %s as a call (no_tool_call, no unknown tool)', (_label, tools, message) => {
      executed.length = 0
      const error = failure(() => repairToolCall(message, tools))
      expect(error.type).toBe('no_tool_call')
      expect(error.message).not.toContain('unknown tool')
      expect(error.message).not.toContain('JSON')
    })

    it('should not give nameless JSON in the reasoning to the chosen tool', () => {
      const error = failure(() => repairToolCall(content('Sure.', { reasoning_content: 'I found {"query": "x"} in the notes.' }), two, { toolChoiceName: 'search' }))
      expect(error.type).toBe('no_tool_call')
    })

    it("should not fill in a macro tool's fallback action for reflection in the reasoning", () => {
      const error = failure(() => repairToolCall(content('Thinking done.', { reasoning_content: '{"memory": "on page 2"}' }), { withFallback }))
      expect(error.type).toBe('no_tool_call')
    })

    it.each([
      ['an envelope', '{"name": "search", "arguments": {"query": "x"}}'],
      ['the tool name as the key', '{"search": {"query": "x"}}'],
      ['a pythonic call', 'I will call search(query="x").'],
      ['Hermes markup', '<tool_call>\n{"name": "search", "arguments": {"query": "x"}}\n</tool_call>'],
    ])('should still take a declared tool named in the reasoning (%s)', (_label, reasoning) => {
      const result = repairToolCall(content('', { reasoning_content: reasoning }), two)
      expect(result.toolCall).toEqual(SEARCH_X)
      expect(result.fixes).toContain('call-in-reasoning')
    })
  })

  describe('calls as {"NAME": {…}}', () => {
    it.each([
      ['a list of one', '[{"search": {"query": "x"}}]'],
      ['a fenced list', '```json\n[{"search": {"query": "x"}}]\n```'],
      ["Apertus' tool tokens", '<|tools_prefix|>[{"search": {"query": "x"}}]<|tools_suffix|>'],
    ])('should take %s', (_label, text) => {
      const result = repairToolCall(content(text), two)
      expect(result.toolCall).toEqual(SEARCH_X)
      expect(result.fixes).toContain('tool-name-as-key')
    })

    it('should take the first of several and report the others with their arguments', () => {
      const result = repairToolCall(content('[{"search": {"query": "x"}}, {"get_time": {"tz": "UTC"}}]'), two)
      expect(result.toolCall).toEqual(SEARCH_X)
      expect(result.dropped).toEqual([{ name: 'get_time', args: { tz: 'UTC' }, reason: 'extra' }])
      expect(result.fixes).toContain('dropped-calls:1')
    })

    it('should take the first valid one of a list', () => {
      const result = repairToolCall(content('[{"get_time": {"zone": "UTC"}}, {"search": {"query": "x"}}]'), two)
      expect(result.toolCall).toEqual(SEARCH_X)
      expect(result.dropped).toEqual([{ name: 'get_time', args: { zone: 'UTC' }, reason: expect.stringContaining('get_time.tz') }])
    })

    it("should keep a macro tool's list of actions one macro input", () => {
      const result = repairToolCall(content('[{"scroll": {"down": true}}, {"done": {"text": "x"}}]'), { AgentOutput })
      expect(result.toolCall.args).toEqual({ action: { scroll: { down: true, num_pages: 1 } } })
      expect(result.dropped).toEqual([{ args: { done: { text: 'x' } }, reason: 'extra' }])
    })

    it('should take the macro tool named as the key of a list item', () => {
      const result = repairToolCall(content('[{"AgentOutput": {"action": [{"scroll": {"down": true}}]}}]'), { AgentOutput })
      expect(result.toolCall).toEqual({ name: 'AgentOutput', args: { action: { scroll: { down: true, num_pages: 1 } } } })
    })

    it('should not take a list of names that are no tool', () => {
      expect(failure(() => repairToolCall(content('[{"Bingo": {"query": "x"}}]'), two)).type).toBe('no_tool_call')
    })
  })

  describe('a malformed fragment before a valid call', () => {
    it.each([
      ['a Llama call missing its last brace', '{"name": "search", "parameters": {"query": "q"}\n{"name": "search", "parameters": {"query": "x"}}'],
      ['a Llama call cut after its arguments opened', '{"name": "search", "parameters": {\n{"name": "search", "parameters": {"query": "x"}}'],
      ['a fragment ended by a semicolon', '{"name": "search", "parameters": {"query": "q"; {"name": "search", "parameters": {"query": "x"}}'],
      ['two broken fragments', '{"name": "search", "parameters": {"query": "q"\n{"name": "get_time", "parameters": {"tz": "U"\n{"name": "search", "parameters": {"query": "x"}}'],
      ['a bracket never closed', 'Results [1, 2\n{"name": "search", "parameters": {"query": "x"}}'],
    ])('should take the complete call after %s', (_label, text) => {
      const result = repairToolCall(content(text), two)
      expect(result.toolCall).toEqual(SEARCH_X)
      expect(result.dropped).toEqual([])
    })

    it.each([
      ['a list cut inside its second call', '[{"name": "search", "arguments": {"query": "x"}}, {"name": "get_time", "arguments": {"tz"'],
      ['a wrapper cut after a comma in its list', '{"tool_calls": [{"name": "search", "arguments": {"query": "x"}}, '],
    ])('should not take a complete call inside a value that is itself cut (%s)', (_label, text) => {
      const error = failure(() => repairToolCall(content(text), two))
      expect(error.type).toBe('no_tool_call')
      expect(error.message).toContain('never closed')
    })
  })
})

describe('client.invoke on whole responses', () => {
  let server: ScriptedServer
  beforeAll(async () => {
    server = await startScriptedServer({ script: [] })
  })
  afterAll(() => server.close())
  const messages = [{ role: 'user' as const, content: 'How do I search?' }]
  const reply = (message: Record<string, unknown>) => ({
    body: { id: 'x', object: 'chat.completion', model: 'm', choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop' }] },
  })
  const outcome = async (run: Promise<unknown>) => {
    try {
      return { result: await run }
    } catch (error) {
      return { error: error as { type: string; message: string } }
    }
  }

  it('should not execute a call the model showed the user, and take the real call of the retry', async () => {
    executed.length = 0
    const shown = 'You can search the catalogue yourself. For example, you invoke it like this:\n\n```json\n{"name": "search", "arguments": {"query": "blue kettle"}}\n```\n\nLet me know if that helps!'
    server.setScript([reply({ content: shown }), reply({ content: '<tool_call>\n{"name": "search", "arguments": {"query": "kettle"}}\n</tool_call>' })])
    const client = createClient({ baseURL: server.url, model: 'm', retry: { limit: 1, baseDelayMs: 1, maxDelayMs: 1 } })
    const { result } = await outcome(client.invoke(messages, two))
    expect(result).toMatchObject({ toolCall: { name: 'search', args: { query: 'kettle' } }, attempts: 2 })
    expect(executed).toEqual(['search'])
  })

  it("should answer no_tool_call for gpt-oss's final message holding a call, executing nothing", async () => {
    executed.length = 0
    const harmony = '<|channel|>analysis<|message|>User wants the syntax.<|end|><|start|>assistant<|channel|>final<|message|>Call `search` with {"name": "search", "arguments": {"query": "x"}}.<|return|>'
    server.setScript([reply({ content: harmony })])
    const client = createClient({ baseURL: server.url, model: 'gpt-oss-20b', maxRetries: 0 })
    const { error } = await outcome(client.invoke(messages, two))
    expect(error).toMatchObject({ type: 'no_tool_call' })
    expect(executed).toEqual([])
  })

  it('should not execute a search result quoted in the reasoning on the sole tool', async () => {
    executed.length = 0
    server.setScript([
      reply({ reasoning_content: "Looking at the earlier result {'location': 'Paris', 'unit': 'C'}, the user already has the weather.", content: 'It is 21 °C in Paris.' }),
    ])
    const client = createClient({ baseURL: server.url, model: 'm', maxRetries: 0 })
    const { error } = await outcome(client.invoke(messages, { get_weather }))
    expect(error).toMatchObject({ type: 'no_tool_call' })
    expect(error?.message).toContain('It is 21 °C in Paris.')
    expect(executed).toEqual([])
  })

  it('should answer no_tool_call, not "unknown tool", for an example envelope in <think>', async () => {
    executed.length = 0
    server.setScript([reply({ content: '<think>The user greets me. A call would look like {"name": "Bingo", "arguments": {}} but none is needed.</think>\n\nHello! How can I help?' })])
    const client = createClient({ baseURL: server.url, model: 'm', maxRetries: 0 })
    const { error } = await outcome(client.invoke(messages, two))
    expect(error).toMatchObject({ type: 'no_tool_call' })
    expect(error?.message).not.toContain('unknown tool')
    expect(executed).toEqual([])
  })

  it('should execute a call written {"NAME": {…}} in a list once', async () => {
    executed.length = 0
    server.setScript([reply({ content: '[{"get_time": {"tz": "Europe/Paris"}}]' })])
    const client = createClient({ baseURL: server.url, model: 'm', maxRetries: 0 })
    const { result } = await outcome(client.invoke(messages, two))
    expect(result).toMatchObject({ toolCall: { name: 'get_time', args: { tz: 'Europe/Paris' } } })
    expect(executed).toEqual(['get_time'])
  })
})
