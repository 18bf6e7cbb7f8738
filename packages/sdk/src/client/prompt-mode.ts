import { toStrictSchema } from '../tool/strict-schema'
import type { ChatMessage, ChatRequest, ChatToolDefinition } from '../types'

/**
 * How a model family is prompted when its endpoint refuses `tools` (`toolMode: 'prompt'`, or
 * `'auto'` after a refusal): the tools block written into the system message, a past call as the
 * text that block asks the model to write, and a batch of tool results as one user message. What
 * `call` renders must be read back by the family's readers with the same values (the conformance
 * kit checks it). An adapter declares it as `prompt`; without one, the Hermes / Qwen form is used.
 *
 * @example
 * ```ts
 * const acmePrompt: PromptForm = {
 *   tools: (functions, name) => `Tools:\n${functions.map((f) => JSON.stringify(f)).join('\n')}\nCall ${name ?? 'one of them'} as <call>{"name": …, "arguments": …}</call>.`,
 *   call: (name, args) => `<call>${JSON.stringify({ name, arguments: args })}</call>`,
 *   results: (contents) => contents.map((content) => `<result>${content}</result>`).join('\n'),
 * }
 * const acme = defineAdapter({ name: 'acme', match: { models: ['acme-'] }, prompt: acmePrompt })
 * ```
 */
export interface PromptForm {
  /**
   * The tools block (its function objects, and the tool `toolChoiceName` names, if any), asking for
   * exactly one call; with `json`, `response_format` admits only the JSON object
   * `{"name": …, "arguments": …}`, and the block should ask for that.
   */
  tools(functions: ChatToolDefinition['function'][], toolChoiceName?: string, json?: boolean): string
  /** A past call, as the text the tools block asks for. */
  call(name: string, args: unknown): string
  /** The results of one batch of calls, in call order, as the content of one user message. */
  results(contents: string[]): string
}

/**
 * The Hermes / Qwen form (the `<tools>` block of one JSON schema per line, calls as
 * `<tool_call>{"name": …, "arguments": …}</tool_call>`, results in `<tool_response>` blocks): what
 * Qwen, Hermes, Granite 4 and GLM templates render natively, and the form of any other model.
 *
 * @example
 * ```ts
 * hermesPrompt.call('click', { index: 3 }) // '<tool_call>\n{"name":"click","arguments":{"index":3}}\n</tool_call>'
 * ```
 */
export const hermesPrompt: PromptForm = {
  // Function objects, compact as native `tools` JSON: the block costs about what `tools` would.
  tools: (functions, name, json) =>
    `# Tools\n\nYou can call these functions (JSON schemas):\n<tools>\n${functions.map((fn) => JSON.stringify(fn)).join('\n')}\n</tools>\n\nReply with exactly one call${name ? ` of ${name}` : ''}, written as${json ? ' one JSON object:\n' : ':\n<tool_call>\n'}{"name": <function-name>, "arguments": <args-json-object>}${json ? '' : '\n</tool_call>'}`,
  call: (name, args) => `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`,
  results: (contents) => contents.map((content) => `<tool_response>\n${content}\n</tool_response>`).join('\n'),
}

// The JSON Schema of one call of a tool, `{ name, arguments }`, built once per tool definition.
const callSchemas = new WeakMap<ChatToolDefinition, object>()

/**
 * The `response_format` of a prompt-mode step: a JSON Schema that admits exactly one valid call,
 * `{ "name": <the tool>, "arguments": <its arguments> }`, of the tool `toolChoiceName` names, or of
 * any of `tools` (a union: each name with its own tool's arguments).
 *
 * @example
 * ```ts
 * toResponseFormat([clickDefinition], 'click')
 * // { type: 'json_schema', json_schema: { name: 'tool_call', strict: true, schema: { type: 'object', properties: { name: { const: 'click' }, arguments: { … } }, … } } }
 * ```
 */
export function toResponseFormat(tools: ChatToolDefinition[], toolChoiceName?: string): Record<string, unknown> {
  const named = tools.filter((tool) => tool.function.name === toolChoiceName)
  const calls = (named[0] ? named : tools).map((tool) => {
    let schema = callSchemas.get(tool)
    if (!schema) {
      const { name, parameters } = tool.function
      callSchemas.set(tool, (schema = { type: 'object', properties: { name: { const: name }, arguments: toStrictSchema(parameters, false) ?? parameters }, required: ['name', 'arguments'], additionalProperties: false }))
    }
    return schema
  })
  return { type: 'json_schema', json_schema: { name: 'tool_call', strict: true, schema: calls[1] ? { anyOf: calls } : calls[0] } }
}

const textOf = (content: ChatMessage['content']): string => (typeof content === 'string' ? content : content == null ? '' : JSON.stringify(content))

/** Arguments sent as a JSON string, as their value (a string that is not JSON stays as it is). */
function argumentsOf(value: unknown): unknown {
  try {
    return typeof value === 'string' ? JSON.parse(value) : value
  } catch {
    return value
  }
}

/**
 * `body` without `tools`, `tool_choice` and `parallel_tool_calls`: the tools are described in the
 * first system message (or a new one in front), each assistant call is the text `form` asks for, and
 * each run of `role: 'tool'` messages is one user message. The caller's messages are not modified.
 * `constrain` adds the `response_format` of {@link toResponseFormat}, asks `form` for a block that
 * asks for the JSON object it admits, and writes each past call as that object: what the grammar
 * let the model write, so its history never shows a form it is not allowed to use.
 */
export function toPromptBody(body: ChatRequest, form: PromptForm, toolChoiceName?: string, constrain?: boolean): ChatRequest {
  const { tools = [], tool_choice, parallel_tool_calls, ...rest } = body
  const call = constrain ? (name: string, args: unknown) => JSON.stringify({ name, arguments: args }) : form.call
  const messages: ChatMessage[] = []
  let results: string[] = []
  const flush = () => {
    if (results.length > 0) messages.push({ role: 'user', content: form.results(results) })
    results = []
  }
  for (const message of body.messages) {
    if (message.role === 'tool') results.push(textOf(message.content))
    else {
      flush()
      const { tool_calls: calls, ...turn } = message
      // An assistant call is the text the block asks for, after the prose the model wrote besides it.
      messages.push(calls?.length ? { ...turn, content: [textOf(message.content), ...calls.map(({ function: fn }) => call(fn.name, argumentsOf(fn.arguments)))].filter(Boolean).join('\n') } : message)
    }
  }
  flush()
  const functions = tools.map((tool) => tool.function)
  const block = form.tools(functions, toolChoiceName, constrain)
  const index = messages.findIndex((message) => message.role === 'system')
  const system = messages[index]
  if (typeof system?.content === 'string') messages[index] = { ...system, content: `${system.content}\n\n${block}` }
  else messages.unshift({ role: 'system', content: block })
  return (constrain ? { ...rest, messages, response_format: toResponseFormat(tools, toolChoiceName) } : { ...rest, messages }) as ChatRequest
}
