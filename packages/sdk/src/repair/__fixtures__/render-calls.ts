/**
 * Renderers: a tool call written the way each model family's chat template writes it, for the
 * render → read round trip (`round-trip.property.test.ts`, and later `testReader(reader, { render })`).
 * Written from the templates as `/work/shared/format-templates.md` records them (section numbers below),
 * not from any parser's tests.
 */

export interface RenderedCall {
  name: string
  args: Record<string, unknown>
}

export interface CallRenderer {
  /** The family, as the format-templates notes name it. */
  family: string
  /** The assistant output for these calls, as the model writes it (after the generation prompt). */
  render: (calls: readonly RenderedCall[]) => string
  /**
   * Whether a string (anywhere in the arguments) can be written in this format so that it reads back
   * as itself. A format that cannot carry a value says so here; the property leaves such values out.
   */
  canWrite: (text: string) => boolean
  /**
   * Whether the format writes values as text whose type only the schema tells (`None` is null only
   * in a field that admits null, so such a field cannot carry the string "None").
   */
  textValues: boolean
  /**
   * Whether the format writes values nested in an object or array as untyped text (MiniMax M3's
   * elements): only nested strings, in non-empty containers, read back as written.
   */
  nestedText?: boolean
  /** Whether the template renders only the first call of a turn (GigaChat 3 / 3.1). */
  single?: boolean
}

/** Python's `json.dumps(value, ensure_ascii=False)`, Hugging Face's `tojson`: `", "` and `": "` separators. */
export function toJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(toJson).join(', ')}]`
  if (typeof value === 'object' && value !== null) {
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}: ${toJson(item)}`)
      .join(', ')}}`
  }
  return JSON.stringify(value)
}

const PYTHON_ESCAPES: Record<string, string> = { '\\': '\\\\', "'": "\\'", '\n': '\\n', '\r': '\\r', '\t': '\\t' }

/** Python's `repr()` of a value parsed from JSON: `'text'`, `True`, `None`, `{'a': [1, 'b']}`. */
export function toPythonRepr(value: unknown): string {
  if (value === null) return 'None'
  if (value === true) return 'True'
  if (value === false) return 'False'
  if (typeof value === 'number') return String(value)
  if (typeof value === 'string') {
    let out = "'"
    for (const char of value) {
      const code = char.codePointAt(0)!
      out += PYTHON_ESCAPES[char] ?? (code < 32 || code === 127 ? `\\x${code.toString(16).padStart(2, '0')}` : char)
    }
    return out + "'"
  }
  if (Array.isArray(value)) return `[${value.map(toPythonRepr).join(', ')}]`
  return `{${Object.entries(value as Record<string, unknown>)
    .map(([key, item]) => `${toPythonRepr(key)}: ${toPythonRepr(item)}`)
    .join(', ')}}`
}

/** Jinja's `| string` of a value parsed from JSON (Python `str()`): strings raw, everything else its repr. */
const toPythonStr = (value: unknown) => (typeof value === 'string' ? value : toPythonRepr(value))

/** Strings raw, everything else `tojson`: what most XML-ish templates put between parameter tags. */
const rawOrJson = (value: unknown) => (typeof value === 'string' ? value : toJson(value))

/** Python source for a value with double-quoted, JSON-escaped strings (Llama 4's `python_list`). */
function toPythonDoubleQuoted(value: unknown): string {
  if (value === null) return 'None'
  if (value === true) return 'True'
  if (value === false) return 'False'
  if (typeof value === 'number' || typeof value === 'string') return JSON.stringify(value)
  if (Array.isArray(value)) return `[${value.map(toPythonDoubleQuoted).join(', ')}]`
  return `{${Object.entries(value as Record<string, unknown>)
    .map(([key, item]) => `${JSON.stringify(key)}: ${toPythonDoubleQuoted(item)}`)
    .join(', ')}}`
}

const XML_REFERENCE = /&(?:#\d+|#[xX][\da-fA-F]+|lt|gt|amp|quot|apos);/
/**
 * In the XML-ish formats a character reference in a value is read as the character it names (models
 * escape `<` as `&lt;`), so a string that holds one literally cannot be written; nor can one holding the
 * closing tag of its value.
 */
const xmlWritable = (closingTag: string) => (text: string) => !XML_REFERENCE.test(text) && !text.includes(closingTag)
const anyText = () => true

const params = (args: Record<string, unknown>) => Object.entries(args)

/** `<wrapper>\n<function=N>\n<parameter=K>…</parameter>\n…</function>\n</wrapper>` blocks joined by `\n`, each value written by `write`. */
const functionBlocks = (wrapper: string, write: (value: unknown) => string) => (calls: readonly RenderedCall[]) =>
  calls
    .map(({ name, args }) => `<${wrapper}>\n<function=${name}>\n${params(args)
      .map(([key, value]) => `<parameter=${key}>${write(value)}</parameter>\n`)
      .join('')}</function>\n</${wrapper}>`)
    .join('\n')

/** §2 Qwen3-Coder / Qwen3 XML: each value on its own line between the parameter tags; scalars as Python str(), mappings tojson. */
export const qwen3Coder: CallRenderer = {
  family: 'qwen3-coder',
  textValues: true,
  canWrite: xmlWritable('</parameter>'),
  render: functionBlocks('tool_call', (value) => `\n${typeof value === 'object' && value !== null ? toJson(value) : toPythonStr(value)}\n`),
}

/**
 * §3 Seed-OSS as the model writes it: each value on its own line between the parameter tags (the
 * template shows `<parameter=K>V</parameter>`; vLLM's `seed_oss` parser strips the two newlines);
 * non-strings Python str() (dicts as repr).
 */
export const seedOss: CallRenderer = {
  family: 'seed-oss',
  textValues: true,
  canWrite: xmlWritable('</parameter>'),
  render: functionBlocks('seed:tool_call', (value) => `\n${toPythonStr(value)}\n`),
}

/** §4 MiniMax-M1: one `<tool_calls>` wrapper, one tojson `{name, arguments}` per line. */
export const minimaxM1: CallRenderer = {
  family: 'minimax-m1',
  textValues: false,
  canWrite: anyText,
  render: (calls) => `<tool_calls>\n${calls.map(({ name, args }) => `${toJson({ name, arguments: args })}\n`).join('')}</tool_calls>`,
}

/** §5 MiniMax-M2: `<invoke name="N">` with exact parameter values; non-strings tojson. */
export const minimaxM2: CallRenderer = {
  family: 'minimax-m2',
  textValues: true,
  canWrite: xmlWritable('</parameter>'),
  render: (calls) =>
    `<minimax:tool_call>\n${calls
      .map(({ name, args }) => `<invoke name="${name}">\n${params(args)
        .map(([key, value]) => `<parameter name="${key}">${rawOrJson(value)}</parameter>\n`)
        .join('')}</invoke>\n`)
      .join('')}</minimax:tool_call>`,
}

/** §6 GLM-4.5 / 4.6: name after `<tool_call>`, each key and value tag on its own line; values exact. */
export const glm45: CallRenderer = {
  family: 'glm-4.5',
  textValues: true,
  canWrite: xmlWritable('</arg_value>'),
  render: (calls) =>
    calls
      .map(({ name, args }) => `<tool_call>${name}\n${params(args)
        .map(([key, value]) => `<arg_key>${key}</arg_key>\n<arg_value>${rawOrJson(value)}</arg_value>\n`)
        .join('')}</tool_call>`)
      .join('\n'),
}

/** §7 GLM-4.7: the same tags with no layout whitespace at all. */
export const glm47: CallRenderer = {
  family: 'glm-4.7',
  textValues: true,
  canWrite: xmlWritable('</arg_value>'),
  render: (calls) =>
    calls
      .map(({ name, args }) => `<tool_call>${name}${params(args)
        .map(([key, value]) => `<arg_key>${key}</arg_key><arg_value>${rawOrJson(value)}</arg_value>`)
        .join('')}</tool_call>`)
      .join(''),
}

/** §8 Kimi-K2: `functions.N:i` then the tojson arguments between special tokens. */
export const kimiK2: CallRenderer = {
  family: 'kimi-k2',
  textValues: false,
  canWrite: anyText,
  render: (calls) =>
    `<|tool_calls_section_begin|>${calls
      .map(({ name, args }, index) => `<|tool_call_begin|>functions.${name}:${index}<|tool_call_argument_begin|>${toJson(args)}<|tool_call_end|>`)
      .join('')}<|tool_calls_section_end|>`,
}

/** §9 Step-3: `<steptml:invoke>` inside DeepSeek-style tokens; values exact, non-strings JSON. */
export const step3: CallRenderer = {
  family: 'step-3',
  textValues: true,
  canWrite: xmlWritable('</steptml:parameter>'),
  render: (calls) =>
    `<｜tool_calls_begin｜>\n${calls
      .map(({ name, args }) => `<｜tool_call_begin｜>\nfunction<｜tool_sep｜><steptml:invoke name="${name}">${params(args)
        .map(([key, value]) => `<steptml:parameter name="${key}">${rawOrJson(value)}</steptml:parameter>`)
        .join('')}</steptml:invoke><｜tool_call_end｜>\n`)
      .join('')}<｜tool_calls_end｜>`,
}

/** §10 DeepSeek V3 / R1: `function<｜tool▁sep｜>N`, then the tojson arguments in a ```json fence. */
export const deepseekV3: CallRenderer = {
  family: 'deepseek-v3',
  textValues: false,
  canWrite: anyText,
  render: (calls) =>
    `<｜tool▁calls▁begin｜>${calls
      .map(({ name, args }) => `<｜tool▁call▁begin｜>function<｜tool▁sep｜>${name}\n\`\`\`json\n${toJson(args)}\n\`\`\`<｜tool▁call▁end｜>`)
      .join('\n')}<｜tool▁calls▁end｜>`,
}

/** §11 DeepSeek V3.1: `N<｜tool▁sep｜>` and the raw arguments string, no separators. */
export const deepseekV31: CallRenderer = {
  family: 'deepseek-v3.1',
  textValues: false,
  canWrite: anyText,
  render: (calls) =>
    `<｜tool▁calls▁begin｜>${calls.map(({ name, args }) => `<｜tool▁call▁begin｜>${name}<｜tool▁sep｜>${JSON.stringify(args)}<｜tool▁call▁end｜>`).join('')}<｜tool▁calls▁end｜>`,
}

/** §12 DeepSeek V3.2 DSML: `string="true"` values raw, `string="false"` values `json.dumps`. */
export const deepseekV32: CallRenderer = {
  family: 'deepseek-v3.2-dsml',
  textValues: true,
  canWrite: xmlWritable('</｜DSML｜parameter>'),
  render: (calls) =>
    `\n\n<｜DSML｜function_calls>\n${calls
      .map(
        ({ name, args }) =>
          `<｜DSML｜invoke name="${name}">\n${params(args)
            .map(([key, value]) => `<｜DSML｜parameter name="${key}" string="${typeof value === 'string'}">${rawOrJson(value)}</｜DSML｜parameter>`)
            .join('\n')}\n</｜DSML｜invoke>\n`,
      )
      .join('')}</｜DSML｜function_calls>`,
}

/** §13 Hunyuan A13B: one JSON list of `{name, arguments}` items joined by `", "`. */
export const hunyuan: CallRenderer = {
  family: 'hunyuan',
  textValues: false,
  canWrite: anyText,
  render: (calls) => `<tool_calls>[${calls.map(({ name, args }) => toJson({ name, arguments: args })).join(', ')}]</tool_calls>`,
}

/** §15 Mistral v11+ compact: `[TOOL_CALLS]N[ARGS]{json}` per call (v11 with `[CALL_ID]id` when the call has one). */
export const mistralV11: CallRenderer = {
  family: 'mistral-v11',
  textValues: false,
  canWrite: anyText,
  render: (calls) => calls.map(({ name, args }, index) => `[TOOL_CALLS]${name}${index % 2 === 0 ? '' : `[CALL_ID]a1b2c3d4${index}`}[ARGS]${toJson(args)}`).join(''),
}

/** `name(k=v, …)` with each value written by `write`. */
const pythonicCall = ({ name, args }: RenderedCall, write: (value: unknown) => string) =>
  `${name}(${params(args)
    .map(([key, value]) => `${key}=${write(value)}`)
    .join(', ')})`

/** §17 Llama 4 pythonic: `[N(k="v", n=5)]`, double-quoted JSON-escaped strings, Python words. */
export const llama4Pythonic: CallRenderer = {
  family: 'llama-4-pythonic',
  textValues: false,
  canWrite: anyText,
  render: (calls) => `[${calls.map((call) => pythonicCall(call, toPythonDoubleQuoted)).join(', ')}]`,
}

/** Olmo 3's value text: strings in single quotes, unescaped; null/true/false as JSON words; the rest tojson. */
const olmoValue = (value: unknown) => (typeof value === 'string' ? `'${value}'` : toJson(value))

/** §18 Olmo 3: one call per line between `<function_calls>` tags. */
export const olmo3: CallRenderer = {
  family: 'olmo-3',
  textValues: false,
  // Strings go in unescaped: a quote or a backslash in one cannot be written.
  canWrite: (text) => !text.includes("'") && !text.includes('\\'),
  render: (calls) => `<function_calls>\n${calls.map((call) => pythonicCall(call, olmoValue)).join('\n')}\n</function_calls>`,
}

/** §19 Generic pythonic list: `[f(a=1), g(b='x')]` with Python literals. */
export const pythonicList: CallRenderer = {
  family: 'pythonic',
  textValues: false,
  canWrite: anyText,
  render: (calls) => `[${calls.map((call) => pythonicCall(call, toPythonRepr)).join(', ')}]`,
}

/** FunctionGemma's value notation: strings between `<escape>`, bare sorted keys, no spaces. */
function toGemma(value: unknown): string {
  if (typeof value === 'string') return `<escape>${value}<escape>`
  if (Array.isArray(value)) return `[${value.map(toGemma).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${key}:${toGemma((value as Record<string, unknown>)[key])}`)
      .join(',')}}`
  }
  return String(value)
}

/** §27 FunctionGemma: `<start_function_call>call:N{k:<escape>v<escape>,n:5}<end_function_call>`. */
export const functionGemma: CallRenderer = {
  family: 'functiongemma',
  textValues: false,
  // The delimiter itself cannot appear inside a string.
  canWrite: (text) => !text.includes('<escape>'),
  render: (calls) => calls.map(({ name, args }) => `<start_function_call>call:${name}${toGemma(args)}<end_function_call>`).join(''),
}

/** §28 gpt-oss harmony: an analysis message, then one commentary message per call addressed `to=functions.N`. */
export const harmony: CallRenderer = {
  family: 'gpt-oss-harmony',
  textValues: false,
  canWrite: anyText,
  render: (calls) =>
    '<|channel|>analysis<|message|>Need to call a tool.<|end|>' +
    calls.map(({ name, args }, index) => `${index === 0 ? '' : '<|start|>assistant'}<|channel|>commentary to=functions.${name} <|constrain|>json<|message|>${JSON.stringify(args)}<|call|>`).join(''),
}

/** §28 gpt-oss as the HF template renders history: the recipient in the role part, ` json` without the constrain token, tojson spacing. */
export const harmonyRoleRecipient: CallRenderer = {
  family: 'gpt-oss-harmony (recipient in the role)',
  textValues: false,
  canWrite: anyText,
  render: (calls) => calls.map(({ name, args }) => `<|start|>assistant to=functions.${name}<|channel|>commentary json<|message|>${toJson(args)}<|call|>`).join(''),
}

/** §17 Llama 4 output wrapped in `<|python_start|>…<|python_end|>`. */
export const llama4PythonStart: CallRenderer = {
  ...llama4Pythonic,
  family: 'llama-4-pythonic (python_start)',
  render: (calls) => `<|python_start|>${llama4Pythonic.render(calls)}<|python_end|>`,
}

/** §29 Kimi K3: `<|open|>NAME attrs<|sep|>` … `<|close|>NAME<|sep|>` tags; a string argument raw, others tojson, typed by `type`. */
export const kimiK3: CallRenderer = {
  family: 'kimi-k3',
  textValues: false,
  canWrite: (text) => !text.includes('<|close|>argument<|sep|>'),
  render: (calls) =>
    `I think.<|close|>think<|sep|><|open|>response<|sep|><|close|>response<|sep|><|open|>tools<|sep|>${calls
      .map(({ name, args }, index) => `<|open|>call tool="${name}" index="${index + 1}"<|sep|>${params(args)
        .map(([key, value]) => `<|open|>argument key="${key}" type="${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value}"<|sep|>${rawOrJson(value)}<|close|>argument<|sep|>`)
        .join('')}<|close|>call<|sep|>`)
      .join('')}<|close|>tools<|sep|><|close|>message<|sep|><|end_of_msg|>`,
}

const M3 = ']<]minimax[>['
/** MiniMax M3's element text: strings raw, objects as child elements, list items as `<item>`. */
const toM3 = (value: unknown): string =>
  Array.isArray(value)
    ? value.map((item) => `${M3}<item>${toM3(item)}${M3}</item>`).join('')
    : typeof value === 'object' && value !== null
      ? params(value as Record<string, unknown>).map(([key, item]) => `${M3}<${key}>${toM3(item)}${M3}</${key}>\n`).join('')
      : String(value)

/** §30 MiniMax M3: every tag prefixed by `]<]minimax[>[`, parameters as elements named after the argument. */
export const minimaxM3: CallRenderer = {
  family: 'minimax-m3',
  textValues: true,
  nestedText: true,
  canWrite: (text) => !text.includes(M3),
  render: (calls) => `<mm:think>I think.</mm:think>\n${M3}<tool_call>\n${calls.map(({ name, args }) => `${M3}<invoke name="${name}">\n${toM3(args)}${M3}</invoke>\n`).join('')}${M3}</tool_call>`,
}

/** §31 Apertus: one JSON list of `{"N": arguments}` items between its tokens, after its reasoning. */
export const apertus: CallRenderer = {
  family: 'apertus',
  textValues: false,
  canWrite: anyText,
  render: (calls) => `<|inner_prefix|>I think.<|inner_suffix|><|tools_prefix|>[${calls.map(({ name, args }) => toJson({ [name]: args })).join(', ')}]<|tools_suffix|>`,
}

/** §32 Solar Open: id, name and tojson arguments between its tokens, `<|calls|>` last. */
export const solarOpen: CallRenderer = {
  family: 'solar-open',
  textValues: false,
  canWrite: anyText,
  render: (calls) => `<|tool_calls|>${calls.map(({ name, args }, index) => `<|tool_call:begin|>a1b2c3d4e${index}<|tool_call:name|>${name}<|tool_call:args|>${toJson(args)}<|tool_call:end|>`).join('')}<|calls|>`,
}

/** §33 MiniCPM 5: `<function name="N"><param name="K">V</param>…`; a string holding `<`, `&` or a newline in CDATA, non-strings Python str(). */
export const miniCpm5: CallRenderer = {
  family: 'minicpm-5',
  textValues: true,
  // A string nested in a non-string value is written raw inside the Python repr, not in CDATA.
  canWrite: (text) => !text.includes(']]>') && xmlWritable('</param>')(text),
  render: (calls) =>
    `<think>\nI think.\n</think>\n\n${calls
      .map(({ name, args }) => `<function name="${name}">${params(args)
        .map(([key, value]) => `<param name="${key}">${typeof value === 'string' && /[<&\n]/.test(value) ? `<![CDATA[${value}]]>` : toPythonStr(value)}</param>`)
        .join('')}</function>`)
      .join('\n')}`,
}

/** Gemma 4's value notation: FunctionGemma's with `<|"|>` quotes, `None` for null. */
function toGemma4(value: unknown): string {
  if (value === null) return 'None'
  if (typeof value === 'string') return `<|"|>${value}<|"|>`
  if (Array.isArray(value)) return `[${value.map(toGemma4).join(',')}]`
  if (typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${key}:${toGemma4((value as Record<string, unknown>)[key])}`)
      .join(',')}}`
  }
  return String(value)
}

/** §34 Gemma 4: `<|tool_call>call:N{…}<tool_call|>` per call, after its thought channel. */
export const gemma4: CallRenderer = {
  family: 'gemma-4',
  textValues: false,
  canWrite: (text) => !text.includes('<|"|>'),
  render: (calls) => `<|channel>thought\nI think.<channel|>${calls.map(({ name, args }) => `<|tool_call>call:${name}${toGemma4(args)}<tool_call|>`).join('')}`,
}

/** §35 GigaChat 3: a `function call` role holding the first call only. */
export const gigaChat3: CallRenderer = {
  family: 'gigachat-3',
  textValues: false,
  single: true,
  canWrite: anyText,
  render: ([call]) => `<|message_sep|>\n\nfunction call<|role_sep|>\n${toJson({ name: call!.name, arguments: call!.args })}`,
}

/** §35 GigaChat 3.1: the first call after `<|function_call|>` in the assistant message. */
export const gigaChat31: CallRenderer = {
  family: 'gigachat-3.1',
  textValues: false,
  single: true,
  canWrite: anyText,
  render: ([call]) => `Let me check.<|function_call|>${toJson({ name: call!.name, arguments: call!.args })}`,
}

/** §35 GigaChat 3.5: DSML with `｜GCML｜` tags in a `tool_calls` block, invokes joined by `\n`. */
export const gigaChat35: CallRenderer = {
  family: 'gigachat-3.5',
  textValues: true,
  canWrite: xmlWritable('</｜GCML｜parameter>'),
  render: (calls) =>
    `<think>I think.</think>\n\n<｜GCML｜tool_calls>\n${calls
      .map(
        ({ name, args }) =>
          `<｜GCML｜invoke name="${name}">\n${params(args)
            .map(([key, value]) => `<｜GCML｜parameter name="${key}" string="${typeof value === 'string'}">${rawOrJson(value)}</｜GCML｜parameter>\n`)
            .join('')}</｜GCML｜invoke>`,
      )
      .join('\n')}\n</｜GCML｜tool_calls>`,
}

/** §36 Nemotron Nano v2: trimmed content, `\n\n`, one JSON list in `<TOOLCALL>`. */
export const nemotronV2: CallRenderer = {
  family: 'nemotron-nano-v2',
  textValues: false,
  canWrite: anyText,
  render: (calls) => `Let me check.\n\n<TOOLCALL>[${calls.map(({ name, args }) => toJson({ name, arguments: args })).join(', ')}]</TOOLCALL>`,
}

/** §36 Nemotron 3 Nano: Qwen3-Coder XML, each block followed by `\n`, after an empty think block. */
export const nemotron3: CallRenderer = {
  ...qwen3Coder,
  family: 'nemotron-3-nano',
  render: (calls) => `<think></think>${calls.map((call) => `${qwen3Coder.render([call])}\n`).join('')}`,
}

/** §37 Muse Glimmer: one harmony-like message per call, `atem:` invoke body with exact values. */
export const glimmer: CallRenderer = {
  family: 'muse-glimmer',
  textValues: true,
  canWrite: xmlWritable('</atem:parameter>'),
  render: (calls) =>
    ` to=self<|message|>I think.<|eom|>${calls
      .map(({ name, args }) => `<|start|>assistant to=${name}<|message|><atem:function_calls>\n<atem:invoke name="${name}">\n${params(args)
        .map(([key, value]) => `<atem:parameter name="${key}">${rawOrJson(value)}</atem:parameter>\n`)
        .join('')}</atem:invoke>\n</atem:function_calls>`)
      .join('<|eom|>')}<|eot|>`,
}

/** LFM2.5's value text: strings single-quoted and raw, dicts tojson, everything else Python str(). */
const lfmValue = (value: unknown) => (typeof value === 'string' ? `'${value}'` : typeof value === 'object' && value !== null && !Array.isArray(value) ? toJson(value) : toPythonRepr(value))

/** §42 LFM2.5: a pythonic list between `<|tool_call_start|>` and `<|tool_call_end|>`, calls joined by `", "`. */
export const lfm25: CallRenderer = {
  family: 'lfm-2.5',
  textValues: false,
  // Strings go in unescaped: a quote or a backslash in one cannot be written.
  canWrite: (text) => !text.includes("'") && !text.includes('\\'),
  render: (calls) => `<think>I think.</think><|tool_call_start|>[${calls.map((call) => pythonicCall(call, lfmValue)).join(', ')}]<|tool_call_end|>`,
}

/** Every renderer, for the round-trip property. */
export const renderers: readonly CallRenderer[] = [
  qwen3Coder,
  seedOss,
  minimaxM1,
  minimaxM2,
  glm45,
  glm47,
  kimiK2,
  step3,
  deepseekV3,
  deepseekV31,
  deepseekV32,
  hunyuan,
  mistralV11,
  llama4Pythonic,
  olmo3,
  pythonicList,
  functionGemma,
  harmony,
  harmonyRoleRecipient,
  llama4PythonStart,
  kimiK3,
  minimaxM3,
  apertus,
  solarOpen,
  miniCpm5,
  gemma4,
  gigaChat3,
  gigaChat31,
  gigaChat35,
  nemotronV2,
  nemotron3,
  glimmer,
  lfm25,
]
