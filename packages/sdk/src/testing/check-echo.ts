// The conformance checks of the history a family needs echoed: the fields an adapter declares in
// `echoFields` come back in the next request, and fields a sample answer carries that nothing echoes
// are pointed out (a forgotten declaration passes every single-step case).
import { createAdapterRegistry } from '../adapters/registry'
import type { Adapter } from '../adapters/types'
import { createClient } from '../client/create-client'
import type { ToolSet } from '../tool/types'
import type { ChatMessage, ChatResponse } from '../types'
import { ensure, ensureEqual } from './check'
import { kitMessages, kitTools, label, toTarget, type AdapterTestTarget } from './kit-fixtures'
import { toolCallResponse } from './scripted-server'

/** Fields of the OpenAI protocol itself: the history carries them or not by the SDK's own rules. */
const STANDARD_MESSAGE_FIELDS = new Set(['role', 'content', 'tool_calls', 'refusal', 'annotations', 'audio', 'function_call', 'name'])
const STANDARD_CALL_FIELDS = new Set(['id', 'type', 'function', 'index'])

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Two steps through the real pipeline: `response` answers the first, the history it gives
 * (`result.messages`) is sent with the second. Resolves with that history and the assistant turn of
 * it as the second request sent it.
 */
async function twoSteps(adapter: Adapter, target: AdapterTestTarget, response: unknown, tools: ToolSet, toolChoiceName?: string): Promise<{ kept: ChatMessage; sent: ChatMessage | undefined }> {
  const { model, baseURL } = toTarget(target)
  const text = typeof response === 'string' ? response : JSON.stringify(response)
  const bodies: Array<{ messages?: ChatMessage[] }> = []
  const client = createClient({
    model,
    baseURL,
    adapters: [adapter],
    registry: createAdapterRegistry(),
    maxRetries: 0,
    customFetch: async (_url, init) => {
      bodies.push(JSON.parse(String(init?.body)))
      return new Response(text, { status: 200, headers: { 'content-type': 'application/json' } })
    },
  })
  const options = toolChoiceName === undefined ? {} : { toolChoiceName }
  const first = await client.invoke(kitMessages(), tools, options)
  const kept = first.messages[0]!
  await client.invoke([...kitMessages(), ...first.messages], tools, options).catch(() => undefined)
  const id = kept.tool_calls?.[0]?.id
  const sent = bodies[1]?.messages?.find((message) => message.role === 'assistant' && message.tool_calls?.[0]?.id === id)
  return { kept, sent }
}

/**
 * Throws unless every field the adapter declares in `echoFields` is kept in `result.messages` and
 * sent back in the next request's history (the adapter's own `patchRequest` left out: a patch may
 * drop a field on purpose, thinking off say).
 */
export async function checkEchoFields(adapter: Adapter, target: AdapterTestTarget): Promise<void> {
  const { message = [], toolCall = [] } = adapter.echoFields ?? {}
  const messageFields = message.filter((field) => !STANDARD_MESSAGE_FIELDS.has(field))
  if (messageFields.length === 0 && toolCall.length === 0) return
  const values = (fields: readonly string[], kind: string) => Object.fromEntries(fields.map((field) => [field, { kit: `${kind} ${field}` }]))
  const response = toolCallResponse('done', { text: 'ok' }, { message: values(messageFields, 'message') }) as ChatResponse
  Object.assign(response.choices[0]!.message.tool_calls![0]!, values(toolCall, 'tool call'))
  const { patchRequest: _patch, ...withoutPatch } = adapter
  const { kept, sent } = await twoSteps(withoutPatch as Adapter, target, response, kitTools)
  const where = `echoFields of "${adapter.name}" for ${label(target)}`
  for (const field of messageFields) {
    ensureEqual((kept as Record<string, unknown>)[field], { kit: `message ${field}` }, `${where}: result.messages lost the declared message field "${field}" (fixResponse must keep it on the message)`)
    ensure(sent !== undefined && isRecord(sent) && field in sent, `${where}: the next request's history does not carry "${field}" back`)
  }
  for (const field of toolCall) {
    ensureEqual((kept.tool_calls?.[0] as Record<string, unknown> | undefined)?.[field], { kit: `tool call ${field}` }, `${where}: result.messages lost the declared tool call field "${field}" (fixResponse must keep it on the tool_calls entry)`)
    ensure(sent !== undefined && isRecord(sent.tool_calls?.[0]) && field in sent.tool_calls[0]!, `${where}: the next request's history does not carry tool call field "${field}" back`)
  }
}

/** A sample answer of a response case, with what to pass on. */
export interface EchoSample {
  name: string
  target: AdapterTestTarget
  response: unknown
  tools?: ToolSet
  toolChoiceName?: string
  /** Fields the author says the next request need not send back. */
  notEchoed?: readonly string[]
}

/**
 * Throws when a sample answer's message (or its tool call) carries a provider field that the next
 * request's history does not send back, unless the case lists it in `notEchoed`: a family that needs
 * it echoed declares it in `echoFields`, and a single-step case cannot tell it was forgotten.
 */
export async function checkSampleEcho(adapter: Adapter, sample: EchoSample): Promise<void> {
  const response: unknown = typeof sample.response === 'string' ? safeParse(sample.response) : sample.response
  const message = isRecord(response) && Array.isArray(response.choices) && isRecord(response.choices[0]) ? response.choices[0].message : undefined
  if (!isRecord(message)) return
  // Declared fields are the adapter's own choice (its patch may drop them on purpose, thinking off say).
  const skip = new Set([...(sample.notEchoed ?? []), ...(adapter.echoFields?.message ?? []), ...(adapter.echoFields?.toolCall ?? [])])
  const call = Array.isArray(message.tool_calls) && isRecord(message.tool_calls[0]) ? message.tool_calls[0] : {}
  const messageFields = Object.keys(message).filter((field) => !STANDARD_MESSAGE_FIELDS.has(field) && !skip.has(field) && message[field] !== null && message[field] !== undefined)
  const callFields = Object.keys(call).filter((field) => !STANDARD_CALL_FIELDS.has(field) && !skip.has(field))
  if (messageFields.length === 0 && callFields.length === 0) return
  const { sent } = await twoSteps(adapter, sample.target, sample.response, sample.tools ?? kitTools, sample.toolChoiceName)
  const lost = [
    ...messageFields.filter((field) => !sent || !(field in sent)).map((field) => ({ field, echo: `echoFields: { message: [${JSON.stringify(field)}] }` })),
    ...callFields.filter((field) => !isRecord(sent?.tool_calls?.[0]) || !(field in sent.tool_calls[0]!)).map((field) => ({ field, echo: `echoFields: { toolCall: [${JSON.stringify(field)}] }` })),
  ]
  ensure(
    lost.length === 0,
    `response case "${sample.name}": the answer carries ${lost.map(({ field }) => `"${field}"`).join(', ')}, which the next request's history does not send back. If the family needs it in the history, declare it on the adapter (${lost.map(({ echo }) => echo).join(', ')}); if not, list it in the case: notEchoed: [${lost.map(({ field }) => JSON.stringify(field)).join(', ')}].`,
  )
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
