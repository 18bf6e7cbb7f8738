// Renderers that write a call the way each family's chat template does (see the field guide,
// `format-templates.md`), for the round trip of `testReader`: render → read → identical values.
import type { ReaderTestCall } from '../../testing/test-reader'

/** Jinja's `tojson` / Python's `json.dumps`: `", "` and `": "` separators, non-ASCII kept. */
export function toJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(toJson).join(', ')}]`
  if (typeof value === 'object' && value !== null) return `{${Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${toJson(item)}`).join(', ')}}`
  return JSON.stringify(value)
}

/** Python's `str()` of a scalar, `tojson` of a mapping or list (Qwen3-Coder's template). */
function pythonText(value: unknown): string {
  if (typeof value === 'string') return value
  if (value === true) return 'True'
  if (value === false) return 'False'
  if (value === null) return 'None'
  if (typeof value === 'object') return toJson(value)
  return String(value)
}

/** Python literal syntax (Llama 4's `python_list` encoder); strings keep `\n` escaped so the call stays valid Python. */
function pythonLiteral(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value)
  if (value === true) return 'True'
  if (value === false) return 'False'
  if (value === null) return 'None'
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(', ')}]`
  if (typeof value === 'object') return `{${Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${pythonLiteral(item)}`).join(', ')}}`
  return String(value)
}

/** FunctionGemma / Gemma 4 notation: bare sorted keys, strings between `<|"|>`. */
function gemmaValue(value: unknown): string {
  if (typeof value === 'string') return `<|"|>${value}<|"|>`
  if (Array.isArray(value)) return `[${value.map(gemmaValue).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    return `{${Object.keys(value).sort().map((key) => `${key}:${gemmaValue((value as Record<string, unknown>)[key])}`).join(',')}}`
  }
  return String(value)
}

const rawOrJson = (value: unknown) => (typeof value === 'string' ? value : toJson(value))

const M3 = ']<]minimax[>['
/** MiniMax M3's element text: strings raw, objects as child elements, list items as `<item>`. */
const m3Value = (value: unknown): string =>
  Array.isArray(value)
    ? value.map((item) => `${M3}<item>${m3Value(item)}${M3}</item>`).join('')
    : typeof value === 'object' && value !== null
      ? Object.entries(value).map(([key, item]) => `${M3}<${key}>${m3Value(item)}${M3}</${key}>\n`).join('')
      : String(value)

export const templateRenderers = {
  hermes: ({ name, args }: ReaderTestCall) => `<tool_call>\n{"name": ${JSON.stringify(name)}, "arguments": ${toJson(args)}}\n</tool_call>`,
  qwen3Coder: ({ name, args }: ReaderTestCall) =>
    `<tool_call>\n<function=${name}>\n${Object.entries(args).map(([key, value]) => `<parameter=${key}>\n${pythonText(value)}\n</parameter>\n`).join('')}</function>\n</tool_call>`,
  minimaxM2: ({ name, args }: ReaderTestCall) =>
    `<minimax:tool_call>\n<invoke name="${name}">\n${Object.entries(args).map(([key, value]) => `<parameter name="${key}">${rawOrJson(value)}</parameter>\n`).join('')}</invoke>\n</minimax:tool_call>`,
  dsml: ({ name, args }: ReaderTestCall) =>
    `\n\n<｜DSML｜function_calls>\n<｜DSML｜invoke name="${name}">\n${Object.entries(args)
      .map(([key, value]) => `<｜DSML｜parameter name="${key}" string="${typeof value === 'string'}">${typeof value === 'string' ? value : JSON.stringify(value)}</｜DSML｜parameter>`)
      .join('\n')}\n</｜DSML｜invoke>\n</｜DSML｜function_calls>`,
  glm46: ({ name, args }: ReaderTestCall) =>
    `<tool_call>${name}\n${Object.entries(args).map(([key, value]) => `<arg_key>${key}</arg_key>\n<arg_value>${rawOrJson(value)}</arg_value>\n`).join('')}</tool_call>`,
  mistral: ({ name, args }: ReaderTestCall) => `[TOOL_CALLS]${name}[ARGS]${JSON.stringify(args)}`,
  kimi: ({ name, args }: ReaderTestCall) =>
    `<|tool_calls_section_begin|><|tool_call_begin|>functions.${name}:0<|tool_call_argument_begin|>${JSON.stringify(args)}<|tool_call_end|><|tool_calls_section_end|>`,
  deepseekV31: ({ name, args }: ReaderTestCall) => `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>${name}<｜tool▁sep｜>${JSON.stringify(args)}<｜tool▁call▁end｜><｜tool▁calls▁end｜>`,
  kimiK3: ({ name, args }: ReaderTestCall) =>
    `<|open|>tools<|sep|><|open|>call tool="${name}" index="1"<|sep|>${Object.entries(args)
      .map(([key, value]) => `<|open|>argument key="${key}" type="${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value}"<|sep|>${rawOrJson(value)}<|close|>argument<|sep|>`)
      .join('')}<|close|>call<|sep|><|close|>tools<|sep|>`,
  minimaxM3: ({ name, args }: ReaderTestCall) => `${M3}<tool_call>\n${M3}<invoke name="${name}">\n${m3Value(args)}${M3}</invoke>\n${M3}</tool_call>`,
  gemma4: ({ name, args }: ReaderTestCall) => `<|tool_call>call:${name}${gemmaValue(args)}<tool_call|>`,
  llama4: ({ name, args }: ReaderTestCall) => `[${name}(${Object.entries(args).map(([key, value]) => `${key}=${pythonLiteral(value)}`).join(', ')})]`,
  json: ({ name, args }: ReaderTestCall) => toJson({ name, arguments: args }),
  yaml: ({ name, args }: ReaderTestCall) => `name: ${name}\narguments:\n${Object.entries(args).map(([key, value]) => `  ${key}: ${JSON.stringify(value)}\n`).join('') || '  {}\n'}`,
  keyValue: ({ name, args }: ReaderTestCall) => `${name} ${Object.entries(args).map(([key, value]) => `${key}=${value}`).join(' ')}`,
  namedElement: ({ name, args }: ReaderTestCall) => `<${name}>\n${Object.entries(args).map(([key, value]) => `  <${key}>${rawOrJson(value)}</${key}>\n`).join('')}</${name}>`,
  xmlTree: ({ name, args }: ReaderTestCall) => `<tool_call><name>${name}</name><arguments>${Object.entries(args).map(([key, value]) => `<${key}>${value}</${key}>`).join('')}</arguments></tool_call>`,
}
