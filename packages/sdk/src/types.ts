import type { StandardSchemaLike } from './tool/schema'

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
 * What iterating a `client.stream()` run yields. `reasoning`, `text` and `arguments` are raw deltas;
 * `partial` is a best-effort parse of a tool call's arguments so far (a preview, never executed);
 * `reset` says a retry restarts the stream, so a UI should clear what it showed.
 *
 * @example
 * ```ts
 * for await (const event of client.stream(messages, tools)) {
 *   if (event.type === 'partial') panel.textContent = event.args.memory ?? '' // { memory?: string; action?: … } for { AgentOutput }
 * }
 * ```
 */
export type StreamEvent<Args = unknown> =
  | { type: 'reasoning'; delta: string }
  | { type: 'text'; delta: string }
  /** `index`: the position of the tool call in this response (0 for the first). */
  | { type: 'arguments'; delta: string; index: number; name?: string }
  /** `args`: the arguments written so far, any field or item possibly missing (typed from the tools). */
  | { type: 'partial'; args: DeepPartial<Args>; index: number; name?: string }
  /** `attempt`: the attempt that failed (as in the client's `retry` event); `error`: why. */
  | { type: 'reset'; attempt: number; error: import('./errors/invoke-error').InvokeError }

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
 * One HTTP request of a step, as `result.attemptDetails` lists them: retries after a failure and
 * resends after a refused field are each one entry.
 *
 * @example
 * ```ts
 * const result = await client.invoke(messages, tools)
 * for (const attempt of result.attemptDetails) console.debug(attempt.status, attempt.error?.type, attempt.usage.totalTokens, `${attempt.durationMs} ms`)
 * ```
 */
export interface AttemptDetail {
  /** The HTTP status; `undefined` when no response came (connection refused, timeout before the headers). */
  status: number | undefined
  /** What this request spent, as the server reported it. */
  usage: Usage
  /** Why this attempt failed; absent on the attempt that succeeded. */
  error?: import('./errors/invoke-error').InvokeError
  /** The parsed body (or the raw text when it was not JSON), API key redacted; `undefined` when no body came. */
  rawResponse: unknown
  /** From sending the request to the end of its body. */
  durationMs: number
}

/**
 * What a finish reason means for the step.
 *
 * @example
 * ```ts
 * // An adapter hook; `undefined` defers to the next adapter and then to the default classification.
 * classifyFinish(reason): FinishClass | undefined {
 *   return reason === 'eot_id' ? 'ok' : undefined
 * },
 * ```
 */
export type FinishClass =
  /** The model finished normally (a call may or may not be present). */
  | 'ok'
  /** Output hit the token limit: `output_truncated`, never repaired or executed. */
  | 'truncated'
  /** A safety filter stopped the output: `content_filter`. */
  | 'filtered'
  /** The provider says the call itself was malformed (Gemini): retryable `invalid_schema`. */
  | 'malformed'
  /** The provider failed while generating (`error`, `insufficient_system_resource`): retryable `server_error`. */
  | 'server_error'
  /** A reason nobody knows: `invalid_schema`. */
  | 'unknown'

/**
 * Context passed to every tool's `execute`.
 *
 * @example
 * ```ts
 * const fetchPage = defineTool({
 *   inputSchema: z.object({ url: z.string().url() }),
 *   execute: async ({ url }, { signal }: ToolExecuteContext) => (await fetch(url, { signal })).text(),
 * })
 * ```
 */
export interface ToolExecuteContext {
  /** The invoke's signal: a long tool should stop when it aborts. */
  signal?: AbortSignal
  /** The id of the tool call being executed (the model's, or a generated one). */
  toolCallId?: string
  /** The step's id (what its client events carry) and attempt. */
  callId?: string
  attempt?: number
  /** Emits a client event (used by the macro tool for `action` events). */
  emit: <K extends keyof ClientEvents>(type: K, event: ClientEvents[K]) => void
}

/**
 * A tool the model may call: a description, an input schema (zod 3.25+ or 4, a Standard JSON Schema
 * such as ArkType or valibot's `toStandardJsonSchema`, or `jsonSchema()`) and an optional `execute`.
 *
 * @example
 * ```ts
 * // defineTool builds the same object and infers Input from the schema.
 * const done: Tool<{ text: string }, string> = {
 *   description: 'Finish the task with a summary',
 *   inputSchema: z.object({ text: z.string() }),
 *   execute: ({ text }) => text,
 * }
 * ```
 */
export interface Tool<Input = any, Output = any> {
  description?: string
  inputSchema: StandardSchemaLike<Input>
  execute?: (input: Input, context: ToolExecuteContext) => Output | Promise<Output>
  /**
   * The tool has no side effects, so when its `execute` throws the whole step (model request
   * included) may be tried again: `tool_execution_error` is then retryable. Default `false`: a tool
   * runs at most once per `invoke` / `stream`, and its error ends the step.
   */
  retryOnError?: boolean
  /**
   * Turns what `execute` returned into the `content` of the `role: 'tool'` message in
   * `result.messages`. Default: a string as it is, anything else as JSON.
   */
  toModelOutput?(output: Output): string
  /** Set by `createMacroTool`; lets the repair layer know reflection keys and action names. */
  readonly macro?: MacroToolInfo
}

/**
 * What the repair layer needs to know about a macro tool.
 *
 * @example
 * ```ts
 * AgentOutput.macro.reflectionKeys // ['evaluation_previous_goal', 'memory', 'next_goal']
 * Object.keys(AgentOutput.macro.actions) // ['click', 'wait', 'done']
 * ```
 */
export interface MacroToolInfo {
  /** The reflection field names (may be empty). */
  reflectionKeys: readonly string[]
  /** The packed tools, by action name. */
  actions: Readonly<Record<string, Tool>>
  /** The action used when a response carries reflection but no action, if configured. */
  fallbackAction?: { name: string; input: unknown }
}

/**
 * A map of tool name → tool.
 *
 * @example
 * ```ts
 * const tools: ToolSet = { click, input_text, done }
 * const { toolCall } = await client.invoke(messages, tools) // toolCall.name is one of the keys
 * ```
 */
export type ToolSet = Record<string, Tool>

/**
 * The validated input of any tool of a set (a union over its tools): what `result.toolCall.args` holds.
 *
 * @example
 * ```ts
 * type Args = ToolSetInput<{ AgentOutput: typeof AgentOutput }> // { memory?: string; …; action: … }
 * ```
 */
export type ToolSetInput<Tools extends ToolSet> = { [Name in keyof Tools]: Tools[Name] extends Tool<infer Input, any> ? Input : unknown }[keyof Tools]

/**
 * What the `execute` of any tool of a set resolves to (a union over its tools): what `result.toolResult` holds.
 *
 * @example
 * ```ts
 * type Output = ToolSetOutput<{ AgentOutput: typeof AgentOutput }> // { input, output }
 * ```
 */
export type ToolSetOutput<Tools extends ToolSet> = { [Name in keyof Tools]: Tools[Name] extends Tool<any, infer Output> ? Output : unknown }[keyof Tools]

/**
 * The names of the tools of a set: what `result.toolCall.name` can be.
 *
 * @example
 * ```ts
 * type Names = ToolName<{ click: typeof click; done: typeof done }> // 'click' | 'done'
 * ```
 */
export type ToolName<Tools extends ToolSet> = Extract<keyof Tools, string>

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

// The input and the output of one tool (`unknown` for what is not a Tool).
type InputOf<T> = T extends Tool<infer Input, any> ? Input : unknown
type OutputOf<T> = T extends Tool<any, infer Output> ? Output : unknown

/**
 * The tool call of a step with these tools: a union discriminated by `name`, so checking the name
 * types `args` as that tool's input.
 *
 * @example
 * ```ts
 * const call: ToolCallOf<{ click: typeof click; done: typeof done }> = result.toolCall
 * if (call.name === 'click') highlight(call.args.index) // args: { index: number }
 * ```
 */
export type ToolCallOf<Tools extends ToolSet> = { [Name in ToolName<Tools>]: ToolCall<InputOf<Tools[Name]>, Name> }[ToolName<Tools>]

/**
 * What `invoke` (and a stream's `result`) resolves to with these tools: one {@link InvokeResult} per
 * tool, its call typed by that tool's input and `toolResult` by what its `execute` returns.
 *
 * @example
 * ```ts
 * const result: InvokeResultOf<{ click: typeof click; done: typeof done }> = await client.invoke(messages, { click, done })
 * if (result.toolCall.name === 'done') report(result.toolCall.args.text)
 * ```
 */
export type InvokeResultOf<Tools extends ToolSet> = { [Name in ToolName<Tools>]: InvokeResult<InputOf<Tools[Name]>, OutputOf<Tools[Name]>, Name> }[ToolName<Tools>]

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
 * What `invoke` resolves to.
 *
 * @example
 * ```ts
 * const result: InvokeResult = await client.invoke(messages, tools)
 * if (result.fixes.length > 0) console.debug('repaired:', result.fixes.join(', '))
 * console.debug(`${result.toolCall.name} in ${result.attempts} attempt(s), ${result.usage.totalTokens} tokens`)
 * ```
 */
export interface InvokeResult<Args = unknown, Output = unknown, Name extends string = string> {
  toolCall: ToolCall<Args, Name>
  /** What the tool's `execute` returned (for a macro tool: `{ input, output }`); `undefined` without `execute`. */
  toolResult: Output
  /**
   * What to append to the conversation to continue it: the assistant turn (exactly the executed
   * call, with its id, the prose the model wrote besides it, and the provider fields the next request
   * must echo) and the `role: 'tool'` message answering it. `messages.push(...result.messages)`.
   */
  messages: ChatMessage[]
  /** Summed over every HTTP attempt of the step; each attempt's own is in `attemptDetails`. */
  usage: Usage
  /** Stable repair codes applied to reach a valid call, in order, e.g. `['content-json', 'coerced:number']`. */
  fixes: string[]
  /** Calls the model made besides the one taken (only the first valid call is a step); never executed. */
  dropped: DroppedCall[]
  /** Names of the adapters that matched, in patch order, e.g. `['qwen', 'openrouter']` (the default `openai` adapter is named only for GPT models). */
  adapters: string[]
  /** The body sent on the last attempt (API key never included). */
  rawRequest: ChatRequest
  /** The parsed response body of the last attempt. */
  rawResponse: unknown
  /** How many HTTP requests the step took (1 without retries; resends after a refused field count). */
  attempts: number
  /** Every HTTP request of the step, oldest first: status, usage, error, raw response, duration. */
  attemptDetails: AttemptDetail[]
}

/**
 * The typed event map of `client.events`. Every event carries the step's `callId` (one per `invoke` /
 * `stream` call), so the events of concurrent calls on one client can be told apart; the events of
 * one HTTP request also carry its `attempt` (a resend after a refused field keeps the number).
 *
 * @example
 * ```ts
 * const onRetry = (event: ClientEvents['retry']) => console.warn(`${event.callId}: attempt ${event.attempt}/${event.maxAttempts} failed (${event.error.type})`)
 * client.events.on('retry', onRetry)
 * client.events.on('response', ({ callId, status, usage, finishReason }) => console.debug(callId, status, finishReason, usage.totalTokens))
 * client.events.on('action', ({ name, durationMs }) => console.debug(`${name} took ${durationMs} ms`))
 * ```
 */
export type ClientEvents = {
  /** A request is sent (`body` with credentials redacted). */
  request: { callId: string; attempt: number; url: string; body: ChatRequest }
  /**
   * A request ended: its body was read (`rawResponse`, parsed; `usage` and `finishReason` from it),
   * or it failed (`error`: the InvokeError or the caller's abort; `status` undefined when no
   * response came). Exactly one follows each `request`; `durationMs` runs to the end of the body.
   */
  response: Omit<AttemptDetail, 'error'> & { callId: string; attempt: number; finishReason?: string | undefined; error?: unknown }
  retry: { callId: string; attempt: number; maxAttempts: number; error: import('./errors/invoke-error').InvokeError; delayMs: number }
  /** Repairs applied to an answer (`reader:<name>` names the reader that read a call from text). */
  fix: { callId: string; attempt: number; codes: string[] }
  error: { callId: string; error: import('./errors/invoke-error').InvokeError }
  /** A tool's `execute` ran (`error` when it threw). */
  tool: { callId: string; attempt: number; name: string; toolCallId: string; input: unknown; output?: unknown; error?: unknown; durationMs: number }
  /** A macro tool's chosen action ran. */
  action: { callId?: string; attempt?: number; name: string; input: unknown; output?: unknown; error?: unknown; durationMs: number }
  /** The step ended: its `result`, or the `error` it threw (an abort included). The last event of every step. */
  done: { callId: string; result?: InvokeResult; error?: unknown }
  /** The client learnt something about its endpoint: `profile` is the new `client.profile`. */
  learned: { callId: string; profile: import('./client/profile').EndpointProfile }
}
