// The shared part of the public contract: the chat-completions wire shapes (`Chat*`, `JsonValue`)
// and the plain values a step hands back (`ToolCall`, `Usage`, `DroppedCall`, `DeepPartial`). It
// imports nothing, so any module may use it; the types of one stage live next to that stage's code
// (`tool/types`, `client/invoke-result`, `client/client-events`, `client/stream-run`,
// `errors/classify-finish`).

/**
 * A JSON value as it travels over the wire.
 *
 * @example
 * ```ts
 * const args: JsonValue = { index: 3, tags: ['a', 'b'], note: null }
 * ```
 */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue }

/**
 * One OpenAI-style tool call, as found in `message.tool_calls` (and in assistant history).
 *
 * @example
 * ```ts
 * const call: ChatToolCall = { id: 'call_1', type: 'function', function: { name: 'click', arguments: '{"index":3}' } }
 * messages.push({ role: 'assistant', content: null, tool_calls: [call] }, { role: 'tool', tool_call_id: 'call_1', content: 'clicked 3' })
 * ```
 */
export interface ChatToolCall {
  id?: string
  type?: 'function' | (string & {})
  index?: number
  function: {
    name: string
    /** Normally a JSON string; some servers send an object. */
    arguments: string | Record<string, unknown> | null
  }
  [key: string]: unknown
}

/**
 * One message of the conversation, OpenAI chat-completions shape. Extra provider fields pass through.
 *
 * @example
 * ```ts
 * const messages: ChatMessage[] = [
 *   { role: 'system', content: 'You are a browser agent. Call exactly one tool per step.' },
 *   { role: 'user', content: 'Open the settings page.' },
 * ]
 * ```
 */
export interface ChatMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool' | (string & {})
  content?: string | null | Array<Record<string, unknown>>
  name?: string
  tool_calls?: ChatToolCall[]
  tool_call_id?: string
  reasoning_content?: string | null
  [key: string]: unknown
}

/**
 * The OpenAI `tools` entry sent for one tool.
 *
 * @example
 * ```ts
 * // What `{ click }` becomes in the request's `tools`:
 * const definition: ChatToolDefinition = {
 *   type: 'function',
 *   function: { name: 'click', description: 'Click the element with this index', parameters: { type: 'object', properties: { index: { type: 'integer' } }, required: ['index'] } },
 * }
 * ```
 */
export interface ChatToolDefinition {
  type: 'function'
  function: { name: string; description?: string; parameters: Record<string, unknown>; [key: string]: unknown }
}

/**
 * `tool_choice` as OpenAI defines it; adapters may rewrite it into provider shapes.
 *
 * @example
 * ```ts
 * const named: ChatToolChoice = { type: 'function', function: { name: 'AgentOutput' } } // sent for toolChoiceName
 * const any: ChatToolChoice = 'required' // sent without one, or with disableNamedToolChoice
 * ```
 */
export type ChatToolChoice =
  | 'auto'
  | 'none'
  | 'required'
  | { type: 'function'; function: { name: string } }
  | Record<string, unknown>

/**
 * The request body sent to `POST {baseURL}/chat/completions`. Adapters add provider fields.
 *
 * @example
 * ```ts
 * const client = createClient({ baseURL, model, transformRequestBody: (body: ChatRequest) => ({ ...body, seed: 42 }) })
 * ```
 */
export interface ChatRequest {
  model: string
  messages: ChatMessage[]
  tools?: ChatToolDefinition[]
  tool_choice?: ChatToolChoice
  parallel_tool_calls?: boolean
  temperature?: number
  max_tokens?: number
  max_completion_tokens?: number
  stream?: boolean
  /** Sent by `client.stream()` as `{ include_usage: true }`; an adapter deletes it for servers that reject it. */
  stream_options?: { include_usage?: boolean; [key: string]: unknown }
  [key: string]: unknown
}

/**
 * The assistant message of a response.
 *
 * @example
 * ```ts
 * const message: ChatResponseMessage = { role: 'assistant', content: '{"name": "done", "arguments": {"text": "ok"}}' }
 * const { toolCall } = repairToolCall(message, { click, done }) // { name: 'done', args: { text: 'ok' } }
 * ```
 */
export interface ChatResponseMessage {
  role?: string
  content?: string | null | Array<Record<string, unknown>>
  tool_calls?: ChatToolCall[] | null
  /** Legacy single call (`functions` API). */
  function_call?: { name: string; arguments: string | Record<string, unknown> | null } | null
  reasoning_content?: string | null
  reasoning?: string | null
  refusal?: string | null
  [key: string]: unknown
}

/**
 * One choice of a response.
 *
 * @example
 * ```ts
 * fixResponse(response) {
 *   const choice: ChatChoice | undefined = response.choices[0]
 *   if (choice && typeof choice.message.content === 'string') choice.message.content = choice.message.content.replace(/<\|end\|>$/, '')
 * },
 * ```
 */
export interface ChatChoice {
  index?: number
  message: ChatResponseMessage
  finish_reason?: string | null
  [key: string]: unknown
}

/**
 * Token usage as servers report it (OpenAI names; others are normalised into {@link Usage}).
 *
 * @example
 * ```ts
 * const { rawResponse, usage } = await client.invoke(messages, tools)
 * const raw: ChatUsage | null | undefined = (rawResponse as ChatResponse).usage // as the server named it
 * usage.promptTokens // the same count, normalised across providers
 * ```
 */
export interface ChatUsage {
  prompt_tokens?: number
  completion_tokens?: number
  total_tokens?: number
  prompt_tokens_details?: { cached_tokens?: number; [key: string]: unknown } | null
  completion_tokens_details?: { reasoning_tokens?: number; [key: string]: unknown } | null
  [key: string]: unknown
}

/**
 * A chat-completions response body.
 *
 * @example
 * ```ts
 * const { rawResponse } = await client.invoke(messages, tools)
 * const body = rawResponse as ChatResponse // the parsed body of the last attempt
 * console.log(body.model, body.choices[0]?.finish_reason)
 * ```
 */
export interface ChatResponse {
  id?: string
  object?: string
  model?: string
  choices: ChatChoice[]
  usage?: ChatUsage | null
  [key: string]: unknown
}

/**
 * One tool-call fragment of a streamed delta. Servers differ in which fields each fragment carries.
 *
 * @example
 * ```ts
 * fixChunk(chunk) {
 *   const calls: ChatStreamToolCallDelta[] = chunk.choices?.[0]?.delta?.tool_calls ?? []
 *   for (const call of calls) if (call.function?.name) call.function.name = call.function.name.replace(/^functions\./, '')
 * },
 * ```
 */
export interface ChatStreamToolCallDelta {
  index?: number
  id?: string | null
  type?: string
  function?: { name?: string | null; arguments?: string | Record<string, unknown> | null }
  [key: string]: unknown
}

/**
 * The `delta` of one streamed choice.
 *
 * @example
 * ```ts
 * fixChunk(chunk) {
 *   const delta: ChatStreamDelta | null | undefined = chunk.choices?.[0]?.delta
 *   if (delta && typeof delta.thinking === 'string') delta.reasoning_content = delta.thinking // Acme calls it "thinking"
 * },
 * ```
 */
export interface ChatStreamDelta {
  role?: string
  content?: string | null
  reasoning_content?: string | null
  reasoning?: string | null
  refusal?: string | null
  tool_calls?: ChatStreamToolCallDelta[] | null
  function_call?: { name?: string | null; arguments?: string | null } | null
  [key: string]: unknown
}

/**
 * One parsed `data:` event of a chat-completions stream (what an adapter's `fixChunk` sees).
 *
 * @example
 * ```ts
 * fixChunk(chunk: ChatStreamChunk) {
 *   if (chunk.choices?.[0]?.finish_reason === 'eot') chunk.choices[0].finish_reason = 'stop'
 * },
 * ```
 */
export interface ChatStreamChunk {
  id?: string
  object?: string
  created?: number
  model?: string
  choices?: Array<{ index?: number; delta?: ChatStreamDelta | null; finish_reason?: string | null; [key: string]: unknown }>
  usage?: ChatUsage | null
  [key: string]: unknown
}

/**
 * Normalised token usage (of one HTTP attempt, or summed over the attempts of a step). A count the
 * server did not report is `undefined`, never `0`: a sum is `undefined` only when no attempt
 * reported that count.
 *
 * @example
 * ```ts
 * const { usage } = await client.invoke(messages, tools)
 * spent += usage.totalTokens ?? 0
 * if (usage.cachedTokens !== undefined) console.debug(`${usage.cachedTokens}/${usage.promptTokens} prompt tokens cached`)
 * ```
 */
export interface Usage {
  promptTokens?: number
  completionTokens?: number
  totalTokens?: number
  cachedTokens?: number
  reasoningTokens?: number
}

/**
 * The tool call of a step, after repair and validation.
 *
 * @example
 * ```ts
 * const { toolCall } = await client.invoke(messages, { click, done })
 * if (toolCall.name === 'click') highlight((toolCall as ToolCall<{ index: number }>).args.index)
 * ```
 */
export interface ToolCall<Args = unknown, Name extends string = string> {
  /** The model's id for the call, or one generated when it gave none; the same id is in `result.messages`. */
  id: string
  /** The name of the tool called: one of the keys of the tool set passed in. */
  name: Name
  args: Args
}

/**
 * `T` with every field, at any depth, optional (array items too): what a `partial` stream event's
 * `args` holds while the arguments are still being written.
 *
 * @example
 * ```ts
 * type Preview = DeepPartial<{ memory: string; action: { click: { index: number } } }>
 * // { memory?: string; action?: { click?: { index?: number } } }
 * ```
 */
export type DeepPartial<T> = T extends readonly (infer Item)[] ? DeepPartial<Item>[] : T extends object ? { [Key in keyof T]?: DeepPartial<T[Key]> } : T

/**
 * A call found in a response that was not taken as the step.
 *
 * @example
 * ```ts
 * const { toolCall, dropped } = await client.invoke(messages, tools)
 * for (const call of dropped) console.debug(`not taken: ${call.name ?? '(unnamed)'}: ${call.reason}`)
 * ```
 */
export interface DroppedCall {
  /** The tool or action it named, when it named one. */
  name?: string
  args: unknown
  /** Why it was not taken: `"extra"` after the chosen call, or the validation error that ruled it out. */
  reason: string
}
