// The request of one step: built from the messages and tools, patched by the adapters, the changes
// learnt from the endpoint and the caller's transform, and rebuilt when a rejection teaches one.

// Imports in the order that bundles smallest: module order moves the gzip size (node scripts/check-size.mjs).
import { runHook } from '../adapters/run-hook'
import { errorMessage, InvokeError, isInvokeError } from '../errors/invoke-error'
import { applyFieldChange, changedFields, describeFieldChange, findFieldChanges, instructToCall, refusedConstraint, snapshotFields } from './adapt-to-rejected-field'
import { learnMessageFields, sendMessageFields } from './adapt-to-message-field'
import { assertInvokeInput, buildRequest, toolsJson } from './build-request'
import { hermesPrompt, toPromptBody } from './prompt-mode'
import { DEFAULT_DEADLINE_MS } from './deadline'
import { noteLearned } from './profile'
import { redact } from './redact'
import { newCallId } from './step-events'
import { checkCallOptions } from './config'
import type { AdapterContext } from '../adapters/types'
import type { ToolSet } from '../tool/types'
import type { ChatMessage, ChatRequest } from '../types'
import type { ClientState, InvokeOptions, StepState } from './client-state'
import type { AttemptDetail } from './invoke-result'

/** Builds and patches the request of one step; throws `config_error` for bad input or a failing hook. */
export function prepareStep(client: ClientState, messages: ChatMessage[], tools: ToolSet, given: InvokeOptions | undefined, stream: boolean): StepState {
  const options = checkCallOptions(given, stream ? 'client.stream' : 'client.invoke') as InvokeOptions
  assertInvokeInput(messages, tools, options.toolChoiceName)
  const fixes: string[] = []
  // Plain assignments, not conditional spreads: this runs on every step and spreads are slow in V8.
  const { model, modelId, baseURL, host } = client.match
  const context: AdapterContext = { model, modelId, baseURL, host, adapters: client.adapterNames, tools, stream }
  if (client.config.temperature !== undefined) context.temperature = client.config.temperature
  if (options.toolChoiceName !== undefined) context.toolChoiceName = options.toolChoiceName
  const step = { client, context, tools, fixes, adapted: 0, messages, options, details: [] as AttemptDetail[], callId: newCallId(), attempt: 1 } as StepState
  if (options.signal) step.signal = options.signal
  const toolMode = (step.toolMode = options.toolMode ?? client.config.toolMode ?? 'auto')
  step.prompt = toolMode === 'prompt' || (toolMode === 'auto' && client.promptMode)
  const deadlineMs = options.deadlineMs ?? client.config.deadlineMs ?? DEFAULT_DEADLINE_MS
  if (Number.isFinite(deadlineMs)) {
    step.deadlineMs = deadlineMs
    step.deadlineAt = Date.now() + deadlineMs
  }
  patchBody(step, messages)
  return step
}

/** Builds the body of `messages`, lets the adapters, learnt field changes and the caller's transform patch it, and sets it on the step. */
export function patchBody(step: StepState, messages: ChatMessage[]): void {
  const { client, context, tools, options } = step
  const { config } = client
  const strict = options.strict ?? config.strict ?? 'auto'
  // Constrained decoding: `response_format` in prompt mode, else strict tools, unless the endpoint refused it (learnt as a dropped field).
  const constrain = strict !== false && (strict === true || step.prompt || client.strictTools) && !client.fieldChanges.some((change) => change.field === (step.prompt ? 'response_format' : 'strict'))
  let body = buildRequest({
    model: config.model,
    messages,
    tools,
    toolChoiceName: options.toolChoiceName,
    disableNamedToolChoice: config.disableNamedToolChoice,
    temperature: config.temperature,
    maxTokens: options.maxTokens ?? config.maxTokens,
    stream: context.stream,
    strict: constrain && !step.prompt,
  })
  for (const adapter of client.chain) {
    const patch = adapter.patchRequest
    if (patch) body = runHook(adapter, 'patchRequest', patch, body, context) ?? body
  }
  const requestFixes: string[] = step.prompt ? ['prompt-tools'] : []
  body.messages = sendMessageFields(body.messages, client.echo, client.messageFields, requestFixes)
  if (step.prompt) body = toPromptBody(body, client.chain.find((adapter) => adapter.prompt)?.prompt ?? hermesPrompt, options.toolChoiceName, constrain)
  const choice = body.tool_choice
  for (const change of client.fieldChanges) {
    const changed = applyFieldChange(body, change)
    if (changed !== body) requestFixes.push(describeFieldChange(change))
    body = changed
  }
  if (choice !== undefined && body.tool_choice === undefined) body = instructToCall(body, context.toolChoiceName)
  const transform = config.transformRequestBody
  let kept: ReadonlySet<string> = NONE
  if (transform) {
    // The hook may change the list in place: it gets a copy, never the caller's history.
    if (body.messages === messages) body.messages = messages.slice()
    const before = snapshotFields(body)
    try {
      body = transform(body) ?? body
      kept = changedFields(before, body)
    } catch (cause) {
      if (isInvokeError(cause)) throw cause
      throw new InvokeError('config_error', `transformRequestBody threw: ${errorMessage(cause)}`, { cause })
    }
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new InvokeError('config_error', `transformRequestBody (or an adapter's patchRequest) returned ${Array.isArray(body) ? 'an array' : typeof body} instead of the request body object. Mutate the body and return nothing, or return a new body object.`)
  }
  step.requestFixes = requestFixes
  step.kept = kept
  step.source = messages
  setBody(step, body)
}

const NONE: ReadonlySet<string> = new Set()

/**
 * Sets the body a step sends, with its serialised payload; and the body as reported back when no
 * secret is in it (else the redacted copy is made when asked for: `reportedRequest` in send-request).
 */
function setBody(step: StepState, body: ChatRequest): void {
  const { secrets } = step.client
  let payload: string
  let text: string
  let json: string | undefined
  try {
    // The tools' JSON is made once per tool set; the rest is serialised around it (`tools` last).
    json = 'toJSON' in body ? undefined : toolsJson(step.tools, body.tools)
    if (json === undefined) payload = text = JSON.stringify(body)
    else {
      const { tools, ...rest } = body
      text = JSON.stringify(rest)
      payload = `${text.slice(0, -1)}${text.length > 2 ? ',' : ''}"tools":${json}}`
    }
  } catch (cause) {
    throw new InvokeError('config_error', 'The request body cannot be serialised to JSON (a circular structure or a BigInt in messages or a hook\'s output).', { cause })
  }
  step.body = body
  step.payload = payload
  // Searched in its two parts: the joined payload is a rope a search would first copy whole.
  step.rawRequest = redact(text, secrets) === text && (json === undefined || redact(json, secrets) === json) ? body : undefined
}

// A server may reject one field after another (`parallel_tool_calls`, then `reasoning_effort`):
// a step adapts at most this many times before the error stands.
const MAX_ADAPTATIONS = 4

/**
 * Adapts the step to a 400/422 that names fields the server does not take or wants: a field of the
 * history turns echoed or stripped, or top-level fields dropped (or renamed, or a named tool_choice
 * made 'required', then none), for this request and every later one of the client. Returns whether
 * the request should be sent again.
 */
export function adaptToRejection(step: StepState, error: unknown): boolean {
  if (!isInvokeError(error) || step.adapted >= MAX_ADAPTATIONS) return false
  const { client } = step
  // A refused `response_format` or strict tools: the step goes again without, as every later one.
  const constraint = refusedConstraint(step.body, error)
  let learned = !constraint && learnMessageFields(error, step.body.messages, step.source, step.body, client.messageFields)
  for (const change of learned ? [] : constraint && !step.kept.has(constraint) ? [{ field: constraint }] : findFieldChanges(step.body, error, step.kept)) {
    if (client.fieldChanges.some((known) => known.field === change.field && known.required === change.required)) continue
    client.fieldChanges.push(change)
    learned = true
  }
  if (!learned) return false
  step.adapted++
  patchBody(step, step.source)
  noteLearned(client, step.callId)
  return true
}
