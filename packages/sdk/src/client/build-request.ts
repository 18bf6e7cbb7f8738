import { InvokeError } from '../errors/invoke-error'
import { assertTool } from '../tool/define-tool'
import { toToolJsonSchema } from '../tool/schema'
import { toStrictSchema } from '../tool/strict-schema'
import { toWireName, wireNames } from '../tool/wire-names'
import { isRecord } from '../util/is-record'
import { deepFreeze } from '../util/deep-freeze'
import type { ChatMessage, ChatRequest, ChatToolDefinition } from '../types'
import type { ToolSet } from '../tool/types'

// Keyed by the Tool object, then by the name it is sent under: converted once, never per call.
const definitions = new WeakMap<object, Map<string, ChatToolDefinition>>()

/**
 * The frozen OpenAI `tools` entry for one tool, built once per (tool, name, strict). `strict`: with
 * `strict: true` and a strict-compatible copy of the schema, when strict mode can express it.
 */
export function toolDefinition(name: string, tool: ToolSet[string], strict?: boolean): ChatToolDefinition {
  const key = strict ? `\0${name}` : name
  let byName = definitions.get(tool)
  const cached = byName?.get(key)
  if (cached) return cached
  assertTool(tool, name)
  const parameters = toToolJsonSchema(tool.inputSchema)
  const strictParameters = strict && toStrictSchema(parameters, true)
  const definition: ChatToolDefinition = deepFreeze({
    type: 'function',
    function: {
      name,
      ...(tool.description ? { description: tool.description } : {}),
      ...(strictParameters ? { strict: true, parameters: strictParameters } : { parameters }),
    },
  })
  if (!byName) definitions.set(tool, (byName = new Map()))
  byName.set(key, definition)
  return definition
}

/** A tool set's `tools` entries as sent, and their JSON: built once per set, rebuilt when it gains, loses or swaps a tool. */
interface ToolSetForm {
  names: string[]
  tools: unknown[]
  wire: Map<string, string> | undefined
  definitions: ChatToolDefinition[]
  json?: string
}
// One map for the plain definitions, one for the strict ones.
const forms = [new WeakMap<object, ToolSetForm>(), new WeakMap<object, ToolSetForm>()] as const

function toolSetForm(tools: ToolSet, strict: boolean | undefined): ToolSetForm {
  const names = Object.keys(tools)
  const cache = forms[strict ? 1 : 0]
  let form = cache.get(tools)
  if (form?.names.length === names.length && names.every((name, index) => name === form!.names[index] && tools[name] === form!.tools[index])) return form
  // Names the OpenAI API refuses go out under their wire names (none in the usual case).
  const wire = wireNames(tools)
  form = { names, tools: names.map((name) => tools[name]), wire, definitions: names.map((name) => toolDefinition(wire ? toWireName(name) : name, tools[name]!, strict)) }
  cache.set(tools, form)
  return form
}

/**
 * The JSON of a body's `tools` when they are still the entries built for `tools` (frozen, so the
 * same entries are the same text): serialised once per tool set, not once per request.
 */
export function toolsJson(tools: ToolSet, sent: unknown): string | undefined {
  for (const cache of forms) {
    const form = cache.get(tools)
    const built = form?.definitions
    if (built && Array.isArray(sent) && sent.length === built.length && sent.every((entry, index) => entry === built[index])) return (form.json ??= JSON.stringify(built))
  }
  return undefined
}


export interface BuildRequestInput {
  model: string
  messages: ChatMessage[]
  tools: ToolSet
  toolChoiceName?: string
  disableNamedToolChoice?: boolean
  temperature?: number
  maxTokens?: number
  stream?: boolean
  /** Send the tools strict (`function.strict: true`). */
  strict?: boolean
}

/** Checks the caller's arguments to `invoke`/`stream`; a mistake is a `config_error`. */
export function assertInvokeInput(messages: unknown, tools: unknown, toolChoiceName: unknown): void {
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new InvokeError('config_error', 'invoke: "messages" must be a non-empty array of chat messages, e.g. [{ role: "user", content: "…" }].')
  }
  // A null or role-less message would only come back as the server's 400, worded its own way.
  let bad = 0
  while (bad < messages.length && isRecord(messages[bad]) && typeof messages[bad].role === 'string') bad++
  if (bad < messages.length) throw new InvokeError('config_error', `invoke: messages[${bad}] must be a chat message with a "role", e.g. { role: "user", content: "…" }.`)
  if (typeof tools !== 'object' || tools === null || Array.isArray(tools) || Object.keys(tools).length === 0) {
    throw new InvokeError('config_error', 'invoke: "tools" must be an object of at least one tool, e.g. { AgentOutput }.')
  }
  if (toolChoiceName !== undefined && (typeof toolChoiceName !== 'string' || !Object.hasOwn(tools, toolChoiceName))) {
    throw new InvokeError('config_error', `invoke: toolChoiceName "${String(toolChoiceName)}" is not one of the tools (${Object.keys(tools).join(', ')}).`)
  }
}

/** The OpenAI chat-completions body of one step, before adapters patch it. */
export function buildRequest(input: BuildRequestInput): ChatRequest {
  const { wire, definitions } = toolSetForm(input.tools, input.strict)
  const body: ChatRequest = {
    model: input.model,
    messages: wire ? wireHistory(input.messages) : input.messages,
    // A copy each request: hooks may change the list; its entries are frozen.
    tools: definitions.slice(),
    tool_choice:
      input.toolChoiceName && !input.disableNamedToolChoice
        ? { type: 'function', function: { name: wire ? toWireName(input.toolChoiceName) : input.toolChoiceName } }
        : 'required',
    parallel_tool_calls: false,
  }
  if (input.temperature !== undefined) body.temperature = input.temperature
  if (input.maxTokens !== undefined) body.max_tokens = input.maxTokens
  if (input.stream) {
    body.stream = true
    // Without it most servers send no usage at all when streaming; adapters drop it where rejected.
    body.stream_options = { include_usage: true }
  }
  return body
}

/** The caller's history with its calls' names as sent (copies: the caller's messages are never modified). */
function wireHistory(messages: ChatMessage[]): ChatMessage[] {
  return messages.map((message) =>
    Array.isArray(message.tool_calls)
      ? {
          ...message,
          tool_calls: message.tool_calls.map((call) => {
            const name = call?.function?.name
            return typeof name === 'string' ? { ...call, function: { ...call.function, name: toWireName(name) } } : call
          }),
        }
      : message,
  )
}
