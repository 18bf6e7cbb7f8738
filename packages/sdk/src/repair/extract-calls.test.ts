import { describe, expect, it } from 'vitest'
import { assertLinear, sizesBetween } from '../testing/measure-growth'
import { extractCalls } from './extract-calls'
import type { ExtractedCall } from './extract-calls'

const names = new Set(['scroll', 'input_text', 'click_element_by_index', 'done', 'wait', 'search'])

interface Expected {
  name?: string
  args: unknown
  format: string
  fixes?: string[]
}

function shape(call: ExtractedCall): Expected {
  return { ...(call.name === undefined ? {} : { name: call.name }), args: call.args, format: call.format }
}

function calls(text: string, withNames = true) {
  const result = extractCalls(text, withNames ? { names } : {})
  return result.calls.map(shape)
}

const scrollDown = { name: 'scroll', arguments: { down: true } }

// One table per family of the field guide, then variations beyond it. Every row is a whole
// `message.content` and the exact calls expected from it.
const table: Array<[label: string, text: string, expected: Expected[]]> = [
  // Hermes / Qwen2.5 wrappers
  ['hermes', '<tool_call>{"name": "scroll", "arguments": {"down": true}}</tool_call>', [{ args: scrollDown, format: 'tool-markup:hermes' }]],
  ['hermes with newlines', '<tool_call>\n{"name": "scroll", "arguments": {"down": true}}\n</tool_call>', [{ args: scrollDown, format: 'tool-markup:hermes' }]],
  ['hermes function_call wrapper', '<function_call>{"name": "scroll", "arguments": {"down": true}}</function_call>', [{ args: scrollDown, format: 'tool-markup:hermes' }]],
  ['hermes tools wrapper', '<tools>{"name": "scroll", "arguments": {"down": true}}</tools>', [{ args: scrollDown, format: 'tool-markup:hermes' }]],
  ['hermes response wrapper', '<response>{"name": "scroll", "arguments": {"down": true}}</response>', [{ args: scrollDown, format: 'tool-markup:hermes' }]],
  ['hermes json wrapper', '<json>{"name": "scroll", "arguments": {"down": true}}</json>', [{ args: scrollDown, format: 'tool-markup:hermes' }]],
  ['hermes xml wrapper', '<xml>{"name": "scroll", "arguments": {"down": true}}</xml>', [{ args: scrollDown, format: 'tool-markup:hermes' }]],
  ['hermes tool wrapper', '<tool>{"name": "scroll", "arguments": {"down": true}}</tool>', [{ args: scrollDown, format: 'tool-markup:hermes' }]],
  ['hermes fenced inside', '<tool_call>\n```json\n{"name": "scroll", "arguments": {"down": true}}\n```\n</tool_call>', [{ args: scrollDown, format: 'tool-markup:hermes' }]],
  ['hermes missing closer', '<tool_call>{"name": "scroll", "arguments": {"down": true}}', [{ args: scrollDown, format: 'tool-markup:hermes' }]],
  ['hermes two calls', '<tool_call>{"name": "scroll", "arguments": {}}</tool_call>\n<tool_call>{"name": "done", "arguments": {}}</tool_call>', [
    { args: { name: 'scroll', arguments: {} }, format: 'tool-markup:hermes' },
    { args: { name: 'done', arguments: {} }, format: 'tool-markup:hermes' },
  ]],
  ['hermes after prose', 'I will scroll now.\n<tool_call>{"name": "scroll", "arguments": {"down": true}}</tool_call>', [{ args: scrollDown, format: 'tool-markup:hermes' }]],
  ['hermes python literals', "<tool_call>{'name': 'scroll', 'arguments': {'down': True}}</tool_call>", [{ args: scrollDown, format: 'tool-markup:hermes' }]],
  // <function=…> and <function name="…">
  ['function tag', '<function=scroll>{"down": true}</function>', [{ name: 'scroll', args: { down: true }, format: 'tool-markup:function-tag' }]],
  ['function name attribute', '<function name="scroll">{"down": true}</function>', [{ name: 'scroll', args: { down: true }, format: 'tool-markup:function-tag' }]],
  ['function tag single quotes attribute', "<function name='scroll'>{\"down\": true}</function>", [{ name: 'scroll', args: { down: true }, format: 'tool-markup:function-tag' }]],
  ['function tag, no arguments', '<function=done></function>', [{ name: 'done', args: {}, format: 'tool-markup:qwen-xml' }]],
  // Llama JSON
  ['llama parameters', '{"name": "scroll", "parameters": {"down": true}}', [{ args: { name: 'scroll', parameters: { down: true } }, format: 'content-json' }]],
  ['llama type function', '{"type": "function", "name": "scroll", "parameters": {"down": true}}', [{ args: { type: 'function', name: 'scroll', parameters: { down: true } }, format: 'content-json' }]],
  ['llama joined by semicolon', '{"name": "scroll", "parameters": {}}; {"name": "done", "parameters": {}}', [
    { args: { name: 'scroll', parameters: {} }, format: 'content-json' },
    { args: { name: 'done', parameters: {} }, format: 'content-json' },
  ]],
  ['llama prose around', 'Sure, here you go: {"name": "scroll", "arguments": {"down": true}} Let me know!', [{ args: scrollDown, format: 'content-json' }]],
  ['llama python_tag json', '<|python_tag|>{"name": "scroll", "parameters": {"down": true}}<|eom_id|>', [{ args: { name: 'scroll', parameters: { down: true } }, format: 'tool-markup:python-tag' }]],
  // Pythonic
  ['pythonic list', '[scroll(down=True, num_pages=0.5)]', [{ name: 'scroll', args: { down: true, num_pages: 0.5 }, format: 'tool-markup:pythonic' }]],
  ['pythonic two calls', "[scroll(down=True), input_text(index=2, text='hi')]", [
    { name: 'scroll', args: { down: true }, format: 'tool-markup:pythonic' },
    { name: 'input_text', args: { index: 2, text: 'hi' }, format: 'tool-markup:pythonic' },
  ]],
  ['pythonic escaped apostrophe', "[input_text(index=1, text='what\\'s up')]", [{ name: 'input_text', args: { index: 1, text: "what's up" }, format: 'tool-markup:pythonic' }]],
  ['pythonic double-quoted apostrophe', '[input_text(index=1, text="what\'s up")]', [{ name: 'input_text', args: { index: 1, text: "what's up" }, format: 'tool-markup:pythonic' }]],
  ['pythonic None and nested dict', "[search(query='a', filters={'site': 'x.org', 'limit': None, 'tags': ['a', 'b']})]", [
    { name: 'search', args: { query: 'a', filters: { site: 'x.org', limit: null, tags: ['a', 'b'] } }, format: 'tool-markup:pythonic' },
  ]],
  ['pythonic in python_start', '<|python_start|>[scroll(down=False)]<|python_end|>', [{ name: 'scroll', args: { down: false }, format: 'tool-markup:pythonic' }]],
  ['pythonic in tool_call_start (LFM2)', '<|tool_call_start|>[click_element_by_index(index=3)]<|tool_call_end|>', [{ name: 'click_element_by_index', args: { index: 3 }, format: 'tool-markup:pythonic' }]],
  ['llama builtin python_tag', '<|python_tag|>brave_search.call(query="weather in SF")', [{ name: 'brave_search', args: { query: 'weather in SF' }, format: 'tool-markup:python-tag' }]],
  ['pythonic string holding brackets', "[input_text(index=1, text='[- {\"a\": 1} ]')]", [{ name: 'input_text', args: { index: 1, text: '[- {"a": 1} ]' }, format: 'tool-markup:pythonic' }]],
  ['pythonic no arguments', '[done()]', [{ name: 'done', args: {}, format: 'tool-markup:pythonic' }]],
  ['pythonic single positional', '[wait(3)]', [{ name: 'wait', args: 3, format: 'tool-markup:pythonic' }]],
  ['pythonic tuple and negative', '[scroll(amount=-2.5, box=(1, 2))]', [{ name: 'scroll', args: { amount: -2.5, box: [1, 2] }, format: 'tool-markup:pythonic' }]],
  ['pythonic triple quotes', '[input_text(index=1, text="""line one\nline "two" end""")]', [{ name: 'input_text', args: { index: 1, text: 'line one\nline "two" end' }, format: 'tool-markup:pythonic' }]],
  // Mistral
  ['mistral array', '[TOOL_CALLS] [{"name": "scroll", "arguments": {"down": true}}]', [{ args: [scrollDown], format: 'tool-markup:mistral' }]],
  ['mistral array, key order', '[TOOL_CALLS][{"arguments": {"down": true}, "name": "scroll"}]', [{ args: [{ arguments: { down: true }, name: 'scroll' }], format: 'tool-markup:mistral' }]],
  ['mistral compact', '[TOOL_CALLS]scroll[ARGS]{"down": true}', [{ name: 'scroll', args: { down: true }, format: 'tool-markup:mistral' }]],
  ['mistral compact with call id', '[TOOL_CALLS]scroll[CALL_ID]abc123def[ARGS]{"down": true}', [{ name: 'scroll', args: { down: true }, format: 'tool-markup:mistral' }]],
  ['mistral compact, two calls', '[TOOL_CALLS]scroll[ARGS]{"down": true}[TOOL_CALLS]done[ARGS]{}', [
    { name: 'scroll', args: { down: true }, format: 'tool-markup:mistral' },
    { name: 'done', args: {}, format: 'tool-markup:mistral' },
  ]],
  ['mistral with eos', '[TOOL_CALLS]scroll[ARGS]{"down": true}</s>', [{ name: 'scroll', args: { down: true }, format: 'tool-markup:mistral' }]],
  // DeepSeek
  ['deepseek v3', '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>scroll\n```json\n{"down": true}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>', [{ name: 'scroll', args: { down: true }, format: 'tool-markup:deepseek' }]],
  ['deepseek v3.1', '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>scroll<｜tool▁sep｜>{"down": true}<｜tool▁call▁end｜><｜tool▁calls▁end｜>', [{ name: 'scroll', args: { down: true }, format: 'tool-markup:deepseek' }]],
  ['deepseek misspelled opener', '<｜tool▁call▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>scroll\n```json\n{"down": true}\n```<｜tool▁call▁end｜>', [{ name: 'scroll', args: { down: true }, format: 'tool-markup:deepseek' }]],
  ['deepseek without bars', '<tool▁calls▁begin><tool▁call▁begin>function<tool▁sep>scroll\n```json\n{"down": true}\n```<tool▁call▁end>', [{ name: 'scroll', args: { down: true }, format: 'tool-markup:deepseek' }]],
  ['deepseek two calls', '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>scroll<｜tool▁sep｜>{"down": true}<｜tool▁call▁end｜><｜tool▁call▁begin｜>done<｜tool▁sep｜>{}<｜tool▁call▁end｜><｜tool▁calls▁end｜>', [
    { name: 'scroll', args: { down: true }, format: 'tool-markup:deepseek' },
    { name: 'done', args: {}, format: 'tool-markup:deepseek' },
  ]],
  ['dsml', '<｜DSML｜function_calls><｜DSML｜invoke name="input_text"><｜DSML｜parameter name="index" string="false">4</｜DSML｜parameter><｜DSML｜parameter name="text" string="true">hello</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜function_calls>', [
    { name: 'input_text', args: { index: 4, text: 'hello' }, format: 'tool-markup:dsml' },
  ]],
  ['dsml typed object', '<｜DSML｜invoke name="search"><｜DSML｜parameter name="filters" string="false">{"site": "x.org"}</｜DSML｜parameter><｜DSML｜parameter name="query" string="true">42</｜DSML｜parameter></｜DSML｜invoke>', [
    { name: 'search', args: { filters: { site: 'x.org' }, query: '42' }, format: 'tool-markup:dsml' },
  ]],
  // Qwen3-Coder XML
  ['qwen xml', '<tool_call>\n<function=input_text>\n<parameter=index>\n4\n</parameter>\n<parameter=text>\nhello world\n</parameter>\n</function>\n</tool_call>', [
    { name: 'input_text', args: { index: '4', text: 'hello world' }, format: 'tool-markup:qwen-xml' },
  ]],
  ['qwen xml without wrapper', '<function=input_text><parameter=index>4</parameter><parameter=text>hi</parameter></function>', [{ name: 'input_text', args: { index: '4', text: 'hi' }, format: 'tool-markup:qwen-xml' }]],
  ['qwen xml keeps inner spaces and newlines', '<function=input_text><parameter=text>\n  two\nlines \n</parameter></function>', [{ name: 'input_text', args: { text: '  two\nlines ' }, format: 'tool-markup:qwen-xml' }]],
  ['qwen xml json value', '<function=search><parameter=filters>{"site": "x.org"}</parameter></function>', [{ name: 'search', args: { filters: { site: 'x.org' } }, format: 'tool-markup:qwen-xml' }]],
  ['qwen xml python literal value', "<function=search><parameter=filters>{'site': 'x.org', 'safe': True}</parameter></function>", [{ name: 'search', args: { filters: { site: 'x.org', safe: true } }, format: 'tool-markup:qwen-xml' }]],
  ['qwen xml missing function closer', '<tool_call><function=scroll><parameter=down>true</parameter></tool_call>', [{ name: 'scroll', args: { down: 'true' }, format: 'tool-markup:qwen-xml' }]],
  ['qwen xml value with markup inside', '<function=input_text><parameter=text>a <b>bold</b> move & {more}</parameter></function>', [{ name: 'input_text', args: { text: 'a <b>bold</b> move & {more}' }, format: 'tool-markup:qwen-xml' }]],
  ['xml value in CDATA', '<invoke name="input_text"><parameter name="text"><![CDATA[a <b>bold</b> move]]></parameter></invoke>', [{ name: 'input_text', args: { text: 'a <b>bold</b> move' }, format: 'tool-markup:minimax' }]],
  ['qwen xml two functions', '<function=scroll><parameter=down>true</parameter></function><function=done></function>', [
    { name: 'scroll', args: { down: 'true' }, format: 'tool-markup:qwen-xml' },
    { name: 'done', args: {}, format: 'tool-markup:qwen-xml' },
  ]],
  // GLM
  ['glm', '<tool_call>input_text<arg_key>index</arg_key><arg_value>4</arg_value><arg_key>text</arg_key><arg_value>hello</arg_value></tool_call>', [
    { name: 'input_text', args: { index: '4', text: 'hello' }, format: 'tool-markup:glm' },
  ]],
  ['glm with newlines', '<tool_call>input_text\n<arg_key>index</arg_key>\n<arg_value>4</arg_value>\n</tool_call>', [{ name: 'input_text', args: { index: '4' }, format: 'tool-markup:glm' }]],
  ['glm no arguments', '<tool_call>done</tool_call>', [{ name: 'done', args: {}, format: 'tool-markup:glm' }]],
  ['glm json value', '<tool_call>search<arg_key>filters</arg_key><arg_value>{"site": "x.org"}</arg_value></tool_call>', [{ name: 'search', args: { filters: { site: 'x.org' } }, format: 'tool-markup:glm' }]],
  // Kimi
  ['kimi', '<|tool_calls_section_begin|><|tool_call_begin|>functions.scroll:0<|tool_call_argument_begin|>{"down": true}<|tool_call_end|><|tool_calls_section_end|>', [{ name: 'scroll', args: { down: true }, format: 'tool-markup:kimi' }]],
  ['kimi spaces, quoted arguments, missing >', '<|tool_calls_section_begin|> <|tool_call_begin|> functions.scroll:0 <|tool_call_argument_begin|> "{\\"down\\": true}" <|tool_call_end|> <|tool_calls_section_end|', [
    { name: 'scroll', args: { down: true }, format: 'tool-markup:kimi' },
  ]],
  ['kimi two calls', '<|tool_calls_section_begin|><|tool_call_begin|>functions.scroll:0<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_call_begin|>functions.done:1<|tool_call_argument_begin|>{"ok": 1}<|tool_call_end|><|tool_calls_section_end|>', [
    { name: 'scroll', args: {}, format: 'tool-markup:kimi' },
    { name: 'done', args: { ok: 1 }, format: 'tool-markup:kimi' },
  ]],
  // Harmony
  ['harmony', '<|start|>assistant<|channel|>commentary to=functions.scroll <|constrain|>json<|message|>{"down": true}<|call|>', [{ name: 'scroll', args: { down: true }, format: 'tool-markup:harmony' }]],
  ['harmony stripped', 'commentary to=functions.scroll json{"down": true}', [{ name: 'scroll', args: { down: true }, format: 'tool-markup:harmony' }]],
  ['harmony stripped with stray call token', 'commentary to=functions.scroll json{"down": true}<|call|>', [{ name: 'scroll', args: { down: true }, format: 'tool-markup:harmony' }]],
  ['harmony recipient before channel', '<|start|>assistant to=functions.scroll<|channel|>commentary json<|message|>{"down": true}<|call|>', [{ name: 'scroll', args: { down: true }, format: 'tool-markup:harmony' }]],
  // MiniMax
  ['minimax', '<minimax:tool_call><invoke name="scroll"><parameter name="down">true</parameter></invoke></minimax:tool_call>', [{ name: 'scroll', args: { down: 'true' }, format: 'tool-markup:minimax' }]],
  ['minimax two invokes', '<minimax:tool_call>\n<invoke name="scroll">\n<parameter name="down">true</parameter>\n</invoke>\n<invoke name="done">\n</invoke>\n</minimax:tool_call>', [
    { name: 'scroll', args: { down: 'true' }, format: 'tool-markup:minimax' },
    { name: 'done', args: {}, format: 'tool-markup:minimax' },
  ]],
  // Gemma
  ['gemma', '<|tool_call>call:input_text{index:4,text:<|"|>hello, world<|"|>}<tool_call|>', [{ name: 'input_text', args: { index: 4, text: 'hello, world' }, format: 'tool-markup:gemma' }]],
  ['gemma nested', 'call:search{filters:{site:<|"|>x.org<|"|>,safe:true},tags:[<|"|>a<|"|>,<|"|>b<|"|>]}', [
    { name: 'search', args: { filters: { site: 'x.org', safe: true }, tags: ['a', 'b'] }, format: 'tool-markup:gemma' },
  ]],
  // Gemini tool_code
  ['tool_code', '```tool_code\ndefault_api.scroll(down=True)\n```', [{ name: 'scroll', args: { down: true }, format: 'tool-markup:tool-code' }]],
  ['tool_code in print', '```tool_code\nprint(default_api.scroll(down=True))\n```', [{ name: 'scroll', args: { down: true }, format: 'tool-markup:tool-code' }]],
  ['python fence', '```python\ninput_text(index=1, text="a")\n```', [{ name: 'input_text', args: { index: 1, text: 'a' }, format: 'tool-markup:pythonic' }]],
  // Bare arrays (xLAM)
  ['bare array', '[{"name": "scroll", "arguments": {"down": true}}]', [{ args: [scrollDown], format: 'content-json' }]],
  ['fenced array', '```json\n[{"name": "scroll", "arguments": {"down": true}}]\n```', [{ args: [scrollDown], format: 'content-json' }]],
  // C. fences and prose
  ['json fence with prose', 'Here is the action:\n```json\n{"click_element_by_index": {"index": 3}}\n```\nDone.', [{ args: { click_element_by_index: { index: 3 } }, format: 'content-json' }]],
  ['unlabelled fence', '```\n{"done": {}}\n```', [{ args: { done: {} }, format: 'content-json' }]],
  ['several objects in a row', '{"a": 1}{"b": 2}\n{"c": [3]}', [
    { args: { a: 1 }, format: 'content-json' },
    { args: { b: 2 }, format: 'content-json' },
    { args: { c: [3] }, format: 'content-json' },
  ]],
  ['braces in strings and prose', 'Use {braces} freely. {"text": "a } b { c", "n": "\\"}"}', [{ args: { text: 'a } b { c', n: '"}' }, format: 'content-json' }]],
  ['envelope untouched', '{"tool_calls": [{"type": "function", "function": {"name": "scroll", "arguments": "{}"}}]}', [
    { args: { tool_calls: [{ type: 'function', function: { name: 'scroll', arguments: '{}' } }] }, format: 'content-json' },
  ]],
  ['json in a larger broken object', '{ note: see {"name": "scroll", "arguments": {}} }', [{ args: { name: 'scroll', arguments: {} }, format: 'content-json' }]],
  // D. broken arguments in content
  ['trailing comma', '{"name": "scroll", "arguments": {"down": true,},}', [{ args: scrollDown, format: 'content-json' }]],
  ['python literals, apostrophe kept', "{'name': 'input_text', 'arguments': {'text': 'what's up', 'clear': False, 'x': None}}", [
    { args: { name: 'input_text', arguments: { text: "what's up", clear: false, x: null } }, format: 'content-json' },
  ]],
  ['raw newline in string', '{"name": "input_text", "arguments": {"text": "line1\nline2"}}', [{ args: { name: 'input_text', arguments: { text: 'line1\nline2' } }, format: 'content-json' }]],
  ['unquoted keys', '{name: "scroll", arguments: {down: true}}', [{ args: scrollDown, format: 'content-json' }]],
  ['stray closers', '{"name": "scroll", "arguments": {"down": true}}}]}', [{ args: scrollDown, format: 'content-json' }]],
  // Beyond the guide
  ['unknown wrapper token family', '<|tool▁call|>scroll\n{"down": true}<|end▁call|>', [{ name: 'scroll', args: { down: true }, format: 'tool-markup:deepseek' }]],
  ['unknown special-token family', '<|call_begin|>functions.scroll<|args|>{"down": true}<|call_end|>', [{ name: 'scroll', args: { down: true }, format: 'tool-markup:special-token' }]],
  ['unknown xml dialect', '<tool_use name="scroll"><argument name="down">true</argument></tool_use>', [{ name: 'scroll', args: { down: 'true' }, format: 'tool-markup:xml' }]],
  ['namespaced invoke', '<acme:calls><acme:invoke name="scroll"><acme:parameter name="down">false</acme:parameter></acme:invoke></acme:calls>', [
    { name: 'scroll', args: { down: 'false' }, format: 'tool-markup:minimax' },
  ]],
  ['functions prefix in tag', '<function=functions.scroll>{"down": true}</function>', [{ name: 'scroll', args: { down: true }, format: 'tool-markup:function-tag' }]],
  ['known name call in prose', 'I will call scroll(down=True) now.', [{ name: 'scroll', args: { down: true }, format: 'tool-markup:pythonic' }]],
  ['bare known name', '`done`', [{ name: 'done', args: {}, format: 'bare-name' }]],
  ['json argument inside pythonic call', 'search(filters={"site": "x.org"}, query="a")', [{ name: 'search', args: { filters: { site: 'x.org' }, query: 'a' }, format: 'tool-markup:pythonic' }]],
  ['pythonic text inside a JSON string stays text', '{"text": "call scroll(down=True) now"}', [{ args: { text: 'call scroll(down=True) now' }, format: 'content-json' }]],
  ['react action and input', 'Thought: scroll first.\nAction: scroll\nAction Input: {"down": true}', [{ name: 'scroll', args: { down: true }, format: 'tool-markup:react' }]],
  ['functionary v3', '>>>scroll\n{"down": true}', [{ name: 'scroll', args: { down: true }, format: 'tool-markup:functionary' }]],
  ['functionary recipient tokens', '<|from|>assistant\n<|recipient|>scroll\n<|content|>{"down": true}', [{ name: 'scroll', args: { down: true }, format: 'tool-markup:special-token' }]],
  ['known name then json (GLM-4)', 'scroll\n{"down": true}', [{ name: 'scroll', args: { down: true }, format: 'tool-markup:name-json' }]],
  ['granite tool_call token', '<|tool_call|>[{"name": "scroll", "arguments": {"down": true}}]', [{ args: [scrollDown], format: 'tool-markup:special-token' }]],
  ['nemotron TOOLCALL', '<TOOLCALL>[{"name": "scroll", "arguments": {"down": true}}]</TOOLCALL>', [{ args: [scrollDown], format: 'tool-markup:hermes' }]],
  ['seed-oss namespaced function', '<seed:tool_call><function=scroll><parameter=down>true</parameter></function></seed:tool_call>', [{ name: 'scroll', args: { down: 'true' }, format: 'tool-markup:qwen-xml' }]],
  ['hunyuan tool_calls array', '<tool_calls>[{"name": "scroll", "arguments": {"down": true}}]</tool_calls>', [{ args: [scrollDown], format: 'tool-markup:hermes' }]],
  ['command-r action fence', 'Action: ```json\n[{"tool_name": "scroll", "parameters": {"down": true}}]\n```', [{ args: [{ tool_name: 'scroll', parameters: { down: true } }], format: 'tool-markup:react' }]],
  ['anthropic-style function_calls', '<function_calls><invoke name="scroll"><parameter name="down">true</parameter></invoke></function_calls>', [{ name: 'scroll', args: { down: 'true' }, format: 'tool-markup:minimax' }]],
  ['function-gemma markers', '<start_function_call>call:scroll{down:true}<end_function_call>', [{ name: 'scroll', args: { down: true }, format: 'tool-markup:gemma' }]],
  ['call with a json positional argument', 'scroll({"down": true})', [{ name: 'scroll', args: { down: true }, format: 'tool-markup:pythonic' }]],
  ['tool name as element with json', '<scroll>{"down": true}</scroll>', [{ name: 'scroll', args: { down: true }, format: 'tool-markup:xml' }]],
  ['tool name as element with children', '<click_element_by_index>\n  <index>3</index>\n</click_element_by_index>', [{ name: 'click_element_by_index', args: { index: '3' }, format: 'tool-markup:xml' }]],
  ['tool name as empty element', 'Finished. <done></done>', [{ name: 'done', args: {}, format: 'tool-markup:xml' }]],
  ['wrapper with name then json', '<tool_call>scroll\n{"down": true}</tool_call>', [{ name: 'scroll', args: { down: true }, format: 'tool-markup:hermes' }]],
  ['wrapper with kimi-style name then json', '<tool_call>functions.scroll:0 {"down": true}</tool_call>', [{ name: 'scroll', args: { down: true }, format: 'tool-markup:hermes' }]],
  ['token markup inside a JSON string stays text', '{"name": "input_text", "arguments": {"text": "[TOOL_CALLS]scroll[ARGS]{\\"down\\": true}"}}', [
    { args: { name: 'input_text', arguments: { text: '[TOOL_CALLS]scroll[ARGS]{"down": true}' } }, format: 'content-json' },
  ]],
  ['xml markup inside a JSON string stays text', '{"name": "input_text", "arguments": {"text": "<function=scroll><parameter=down>true</parameter></function>"}}', [
    { args: { name: 'input_text', arguments: { text: '<function=scroll><parameter=down>true</parameter></function>' } }, format: 'content-json' },
  ]],
  ['markup inside a JSON string stays text', '{"text": "<tool_call>{\\"name\\": \\"x\\"}</tool_call>"}', [{ args: { text: '<tool_call>{"name": "x"}</tool_call>' }, format: 'content-json' }]],
]

describe('extractCalls', () => {
  it.each(table)('should read %s', (_label, text, expected) => {
    expect(calls(text)).toEqual(expected)
    expect(extractCalls(text, { names }).truncated).toBe(false)
  })

  it('should hold enough table rows to cover the guide and variations', () => {
    expect(table.length).toBeGreaterThanOrEqual(60)
  })

  it('should order calls by their start offset and report where they start', () => {
    const text = 'prose [scroll(down=True)] then {"done": {}} then <function=wait>{"seconds": 1}</function>'
    const result = extractCalls(text, { names })
    expect(result.calls.map((call) => call.start)).toEqual([text.indexOf('scroll'), text.indexOf('{"done"'), text.indexOf('<function')])
  })

  it('should report repairs done while parsing', () => {
    const [fenced] = extractCalls('```json\n{"a": 1,}\n```').calls
    expect(fenced!.fixes).toEqual(['lenient-json', 'fenced'])
    const [python] = extractCalls("{'a': True}").calls
    expect(python!.fixes).toContain('python-literals')
    const [kimi] = extractCalls('<|tool_call_begin|>functions.scroll:0<|tool_call_argument_begin|>"{\\"down\\": true}"<|tool_call_end|>').calls
    expect(kimi!.fixes).toContain('double-encoded-arguments')
  })

  it('should not take prose parentheses, brackets or braces for calls', () => {
    for (const text of ['I think (maybe) we are done [see above] {roughly}.', 'Call me maybe(soon).', 'print("hello")', 'The [TOOL_CALLS] token is special.', 'a < b and c > d']) {
      expect(extractCalls(text, { names }).calls).toEqual([])
    }
  })

  it('should need a known name or keyword arguments for a call in prose', () => {
    expect(calls('Try unknown_tool(5) now.')).toEqual([])
    // Prose is prose: an unknown name is a call only as `name(key=value)` opening its own line.
    expect(calls('Try unknown_tool(x=5) now.')).toEqual([])
    expect(calls('I will look it up.\nunknown_tool(x=5)')).toEqual([{ name: 'unknown_tool', args: { x: 5 }, format: 'tool-markup:pythonic' }])
    expect(calls('Letters: s(1), t(2), r(3).')).toEqual([])
    expect(calls('[s(1), t(2)]')).toEqual([
      { name: 's', args: 1, format: 'tool-markup:pythonic' },
      { name: 't', args: 2, format: 'tool-markup:pythonic' },
    ])
    expect(calls('wait(5)')).toEqual([{ name: 'wait', args: 5, format: 'tool-markup:pythonic' }])
    expect(calls('wait(5)', false)).toEqual([])
  })

  it('should return no calls for empty or non-string input', () => {
    expect(extractCalls('')).toEqual({ calls: [], truncated: false })
    expect(extractCalls(undefined as unknown as string)).toEqual({ calls: [], truncated: false })
    expect(extractCalls('just words')).toEqual({ calls: [], truncated: false })
  })
})

describe('extractCalls truncation', () => {
  const cut: Array<[string, string]> = [
    ['json object', '{"name": "scroll", "arguments": {"down": tr'],
    ['json string', 'Here: {"name": "input_text", "arguments": {"text": "hello wor'],
    ['hermes', '<tool_call>{"name": "scroll", "arguments": {"down": true}'],
    ['fenced json', '```json\n{"name": "scroll", "arguments": {'],
    ['qwen parameter', '<tool_call><function=input_text><parameter=text>hel'],
    ['qwen opener only', '<tool_call>\n<function=input_text>'],
    ['glm value', '<tool_call>input_text<arg_key>text</arg_key><arg_value>hel'],
    ['glm key', '<tool_call>input_text<arg_key>te'],
    ['minimax parameter', '<minimax:tool_call><invoke name="scroll"><parameter name="down">tr'],
    ['pythonic', '[scroll(down=True, num_pages=0.'],
    ['pythonic string', "[input_text(index=1, text='hello"],
    ['tool name element', '<input_text><index>1</index><text>hel'],
    ['mistral before arguments', '[TOOL_CALLS]scroll[ARGS]'],
    ['mistral arguments', '[TOOL_CALLS]scroll[ARGS]{"down": '],
    ['mistral array', '[TOOL_CALLS] [{"name": "scroll", "arguments": {"down": true}'],
    ['deepseek', '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>scroll\n```json\n{"down": '],
    ['kimi name only', '<|tool_calls_section_begin|><|tool_call_begin|>functions.scroll:0'],
    ['kimi arguments', '<|tool_call_begin|>functions.scroll:0<|tool_call_argument_begin|>{"down'],
    ['kimi quoted arguments', '<|tool_call_begin|>functions.scroll:0<|tool_call_argument_begin|>"{\\"down'],
    ['harmony', '<|channel|>commentary to=functions.scroll <|constrain|>json<|message|>{"down": '],
    ['gemma', 'call:input_text{index:4,text:<|"|>hello'],
    ['tool_code', '```tool_code\ndefault_api.scroll(down=Tr'],
    ['deep opener flood', '{'.repeat(1000)],
  ]
  it.each(cut)('should report a cut %s as truncated, never as a call', (_label, text) => {
    const result = extractCalls(text, { names })
    expect(result.truncated).toBe(true)
    expect(result.calls).toEqual([])
  })

  it('should keep complete calls before a cut one and still say truncated', () => {
    const result = extractCalls('<tool_call>{"name": "done", "arguments": {}}</tool_call><tool_call>{"name": "scroll", "arg', { names })
    expect(result.calls.map(shape)).toEqual([{ args: { name: 'done', arguments: {} }, format: 'tool-markup:hermes' }])
    expect(result.truncated).toBe(true)
  })

  it('should not call a stripped closing tag truncation', () => {
    // Servers strip stop sequences such as `</tool_call>` or `</function>`.
    expect(extractCalls('<tool_call><function=scroll><parameter=down>true</parameter>', { names })).toMatchObject({ truncated: false, calls: [{ name: 'scroll' }] })
    expect(extractCalls('<tool_call>{"name": "scroll", "arguments": {}}', { names })).toMatchObject({ truncated: false, calls: [{ format: 'tool-markup:hermes' }] })
  })

  it('should not call a bracket token inside a string value, followed by a word, truncation', () => {
    // `[A0]A"}…` inside a value looks like a token, a name and a quoted string that never closes.
    for (const text of ['[A0]A', 'x[B1]y', 'see [A0] then', 'x[ARGS]y']) {
      for (const call of [`<|channel|>commentary to=functions.scroll <|constrain|>json<|message|>${JSON.stringify({ text })}<|call|>`, `<tool_call>${JSON.stringify({ name: 'input_text', arguments: { text } })}</tool_call>`]) {
        const result = extractCalls(call, { names })
        expect(result.truncated, call).toBe(false)
        expect(JSON.stringify(result.calls[0]?.args)).toContain(JSON.stringify(text).slice(1, -1))
      }
    }
  })

  it('should not call a lone brace in prose truncation', () => {
    expect(extractCalls('Use the { key to open a block.').truncated).toBe(false)
    expect(extractCalls('<function=input_text><parameter=text>if (x) {</parameter></function>', { names })).toMatchObject({ truncated: false, calls: [{ args: { text: 'if (x) {' } }] })
  })
})

describe('extractCalls safety', () => {
  it('should keep __proto__, constructor and prototype keys as own data in every format', () => {
    const texts = [
      '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}',
      "[scroll(__proto__={'polluted': True}, constructor=1)]",
      '<function=scroll><parameter=__proto__>{"polluted": true}</parameter><parameter=prototype>1</parameter></function>',
      '<tool_call>scroll<arg_key>__proto__</arg_key><arg_value>{"polluted": true}</arg_value></tool_call>',
      'call:scroll{__proto__:{polluted:true}}',
      "{'__proto__': {'polluted': True}}",
    ]
    for (const text of texts) {
      const result = extractCalls(text, { names })
      expect(result.calls.length).toBe(1)
      const args = result.calls[0]!.args as Record<string, unknown>
      expect(Object.getPrototypeOf(args)).toBe(Object.prototype)
      expect(Object.prototype.hasOwnProperty.call(args, '__proto__')).toBe(true)
      expect((args as { polluted?: unknown }).polluted).toBeUndefined()
    }
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined()
  })

  it('should not parse values nested deeper than 64 levels', () => {
    const deep = '['.repeat(200) + '1' + ']'.repeat(200)
    expect(extractCalls(deep).calls).toEqual([])
    const deepPython = '[scroll(x=' + '['.repeat(200) + '1' + ']'.repeat(200) + ')]'
    // A call of a known tool is reported, its arguments unread.
    expect(extractCalls(deepPython, { names }).calls).toEqual([expect.objectContaining({ name: 'scroll', args: deepPython.slice(8, -2), unreadable: true })])
  })

  it('should bound the number of calls it returns', () => {
    const result = extractCalls('{"a": 1} '.repeat(5000))
    expect(result.calls.length).toBeLessThanOrEqual(64)
    expect(result.calls.length).toBeGreaterThan(10)
  })

  it('should never throw on hostile input', () => {
    const hostile = ['<', '<|', '[TOOL_CALLS]', 'to=', 'call:', '(', "'", '"', '\\', '<function=', '<parameter=x>', '<arg_key>', '```', '{"a":"\\', '\u0000', '<｜DSML｜', '[[[[((((']
    for (let round = 0; round < 300; round++) {
      let text = ''
      for (let piece = 0; piece < 12; piece++) text += hostile[(round * 7 + piece * 13 + ((round * piece) % 5)) % hostile.length]
      expect(() => extractCalls(text, { names })).not.toThrow()
    }
  })
})

describe('extractCalls performance', () => {
  const inputs: Array<[string, (size: number) => string]> = [
    ['prose with a call at the end', (size) => 'The fox (quick) jumps over [the] dog; it\'s {fine} "quoted" a<b. '.repeat(size / 64) + '{"name": "scroll", "arguments": {}}'],
    ['a flood of {', (size) => '{'.repeat(size)],
    ['a flood of {"a":', (size) => '{"a":'.repeat(size / 5)],
    ['deeply nested closed arrays', (size) => '['.repeat(size / 2) + ']'.repeat(size / 2)],
    ['a flood of pythonic openers', (size) => '[a(x='.repeat(size / 5)],
    ['a flood of tags', (size) => '<tool_call><function=a><parameter=b>'.repeat(size / 36)],
    ['a flood of tokens', (size) => '[TOOL_CALLS]a[ARGS]{'.repeat(size / 20)],
    ['one huge argument', (size) => JSON.stringify({ name: 'input_text', arguments: { text: 'x"y\\n {[ '.repeat(size / 12) } })],
  ]
  it.each(inputs)('should scale linearly on %s', (_label, make) => {
    // Ten times the input: a linear scan's time grows as the size, a quadratic one's as its square.
    assertLinear((size) => {
      const text = make(size)
      return () => extractCalls(text, { names })
    }, sizesBetween(100_000, 1_000_000))
  })

  it('should find the call at the end of a 1 MB message', () => {
    const text = 'Lorem ipsum (dolor) sit [amet] {consectetur}. '.repeat(22_000) + '<tool_call>{"name": "scroll", "arguments": {"down": true}}</tool_call>'
    expect(text.length).toBeGreaterThan(1_000_000)
    expect(calls(text)).toEqual([{ args: scrollDown, format: 'tool-markup:hermes' }])
  })
})
