/**
 * Renderers of the JSON tool-call families: given calls, the exact text the family's chat template
 * (or documented prompt format) makes the model write for an assistant tool-call turn. Written from
 * `format-templates.md` (sections 1, 14, 16, 20–26), not from any parser's tests. Each renderer is a
 * plain `{ family, multiple, render }` object so a reader test kit can take `render` as is.
 */

/** One call to render: the tool's name, its arguments, and an id where the format carries one. */
export interface RenderableCall {
  name: string
  arguments: Record<string, unknown>
  id?: string
}

export interface CallRenderer {
  /** Family and variant, e.g. `hermes/qwen3-think`. */
  family: string
  /** Whether one answer may hold several calls (Llama 3.x JSON holds one). */
  multiple: boolean
  /** Whether the format carries a call id (Mistral tokenizer v3+): `render` then writes `call.id`. */
  ids?: boolean
  render(calls: readonly RenderableCall[]): string
}

/**
 * Hugging Face's `tojson` (Python `json.dumps(value, ensure_ascii=False)`): `", "` and `": "`
 * separators, key order kept, non-ASCII written as is, `<`, `>`, `&`, `'` never escaped. With
 * `ascii`, non-ASCII is written as `\uXXXX` (Python's default, Meta's reference encoder).
 */
export function tojson(value: unknown, ascii = false): string {
  if (Array.isArray(value)) return `[${value.map((item) => tojson(item, ascii)).join(', ')}]`
  if (typeof value === 'object' && value !== null) {
    return `{${Object.entries(value)
      .map(([key, item]) => `${quote(key, ascii)}: ${tojson(item, ascii)}`)
      .join(', ')}}`
  }
  return typeof value === 'string' ? quote(value, ascii) : JSON.stringify(value)
}

function quote(text: string, ascii: boolean): string {
  const json = JSON.stringify(text)
  return ascii ? json.replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`) : json
}

/** Compact JSON, as models often write it instead of the template's spacing. */
const compact = (value: unknown) => JSON.stringify(value)

const envelope = (call: RenderableCall, argumentKey = 'arguments') => ({ name: call.name, [argumentKey]: call.arguments })

export const JSON_FAMILY_RENDERERS: readonly CallRenderer[] = [
  // 1. Hermes / Qwen2.5 / Qwen3: one block per call, a newline inside each tag, one between blocks.
  { family: 'hermes', multiple: true, render: (calls) => calls.map((call) => `<tool_call>\n${tojson(envelope(call))}\n</tool_call>`).join('\n') },
  {
    family: 'hermes/qwen3-think',
    multiple: true,
    render: (calls) => `<think>\nThe user wants this; I will call the tool.\n</think>\n\nLet me check.\n${calls.map((call) => `<tool_call>\n${tojson(envelope(call))}\n</tool_call>`).join('\n')}`,
  },
  { family: 'hermes/compact', multiple: true, render: (calls) => calls.map((call) => `<tool_call>${compact(envelope(call))}</tool_call>`).join('') },
  // 14. Mistral pre-v11: one JSON list after [TOOL_CALLS]; SentencePiece tokenizers put a space before it; v3+ adds ids.
  { family: 'mistral-list/v3', multiple: true, ids: true, render: (calls) => `[TOOL_CALLS] ${tojson(calls.map((call) => ({ ...envelope(call), id: call.id })))}` },
  { family: 'mistral-list/tekken', multiple: true, ids: true, render: (calls) => `[TOOL_CALLS]${tojson(calls.map((call) => ({ ...envelope(call), id: call.id })))}` },
  { family: 'mistral-list/v2', multiple: true, render: (calls) => `[TOOL_CALLS] ${tojson(calls.map((call) => envelope(call)))}` },
  // 16. Llama 3.1–3.3 JSON: one bare object keyed `parameters`; Meta's encoder adds `type` and escapes non-ASCII.
  { family: 'llama3-json', multiple: false, render: ([call]) => tojson(envelope(call!, 'parameters')) },
  { family: 'llama3-json/python-tag', multiple: false, render: ([call]) => `<|python_tag|>${tojson(envelope(call!, 'parameters'))}<|eom_id|>` },
  { family: 'llama3-json/reference', multiple: false, render: ([call]) => tojson({ type: 'function', name: call!.name, parameters: call!.arguments }, true) },
  // 20. Granite 3.x: <|tool_call|> and one JSON list, no closing marker.
  { family: 'granite3', multiple: true, render: (calls) => `<|tool_call|>${tojson(calls.map((call) => envelope(call)))}` },
  // 21. Granite-20B-FunctionCalling: marker, one space, the object; a newline after each call.
  { family: 'granite-20b-fc', multiple: true, render: (calls) => calls.map((call) => `<function_call> ${tojson(envelope(call))}`).join('\n') },
  // 22. InternLM2: content first, then one action block per call, keyed `parameters`.
  {
    family: 'internlm2',
    multiple: true,
    render: (calls) => `I need the tool for this.${calls.map((call) => `<|action_start|><|plugin|>\n${tojson(envelope(call, 'parameters'))}<|action_end|>`).join('')}`,
  },
  // 23. Jamba: a JSON list between <tool_calls> tags (spacing unverified: both spellings).
  { family: 'jamba', multiple: true, render: (calls) => `<tool_calls>${tojson(calls.map((call) => envelope(call)))}</tool_calls>` },
  { family: 'jamba/spaced', multiple: true, render: (calls) => `<tool_calls>\n${tojson(calls.map((call) => envelope(call)))}\n</tool_calls>` },
  // 24. xLAM: the whole reply is one JSON list.
  { family: 'xlam', multiple: true, render: (calls) => tojson(calls.map((call) => envelope(call))) },
  // 25. Phi-4-mini: `functools` and one JSON list.
  { family: 'phi4-mini', multiple: true, render: (calls) => `functools${tojson(calls.map((call) => envelope(call)))}` },
  // 26. LongCat-Flash: Hermes layout with its own tag, blocks with no separator.
  { family: 'longcat', multiple: true, render: (calls) => calls.map((call) => `<longcat_tool_call>\n${tojson(envelope(call))}\n</longcat_tool_call>`).join('') },
]
