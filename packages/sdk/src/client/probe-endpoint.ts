import { isInvokeError } from '../errors/invoke-error'
import type { ChatMessage, InvokeResult, Tool } from '../types'
import { isRecord } from '../util/is-record'
import { isReasoningField } from './adapt-to-message-field'
import type { ClientConfig } from './config'
import { createClient } from './create-client'
import type { EndpointProfile } from './profile'

/** One stage of {@link probeEndpoint}: what it sent, and how it ended. */
export interface ProbeStep {
  name: 'tool_choice' | 'second turn' | 'stream'
  ok: boolean
  /** The repairs and request changes of the stage (`tool-choice-required`, `echoed-message-field:reasoning_content` …). */
  fixes: string[]
  error?: { type: string; message: string }
}

/** What {@link probeEndpoint} found. */
export interface ProbeReport {
  /** What the probe learnt: pass it as `createClient({ profile })`. */
  profile: EndpointProfile
  /** HTTP requests sent (at most 6). */
  requests: number
  steps: ProbeStep[]
  /** The fields the server returned reasoning in (`reasoning_content`, `reasoning` …). */
  reasoningFields: string[]
  /** What the probe concludes, in words. */
  conclusions: string[]
}

const LIMIT = 6
// Any arguments pass: the probe asks what the endpoint takes, not what the model writes.
const answer: Tool = {
  description: 'Report one word',
  inputSchema: { '~standard': { version: 1, vendor: 'wildcall', validate: (value: unknown) => ({ value }), jsonSchema: { input: () => ({ type: 'object', properties: { word: { type: 'string' } }, required: ['word'] }) } } } as Tool['inputSchema'],
}
const ask = (word: string): ChatMessage => ({ role: 'user', content: `Call the answer tool with word "${word}".` })

/**
 * Learns what an endpoint wants in a short, bounded conversation (at most 6 small requests): a
 * named `tool_choice` (then `'required'`, then none, as far as the endpoint refuses them), a second
 * turn whose history carries the first turn's call (sent without its reasoning, then with it if the
 * endpoint demands it), and a streamed call. Resolves with the profile learnt, each stage's outcome
 * and the conclusions; it never throws for the endpoint's answers (a bad config is a `config_error`).
 * A request the endpoint accepts counts as taken even when the model answers no call (a reasoning
 * model that spends `maxTokens` thinking, a server that answers 200 to anything).
 *
 * @example
 * ```ts
 * const { profile, conclusions } = await probeEndpoint({ baseURL: 'http://localhost:1234/v1', model: 'acme-reasoner-2' })
 * console.log(conclusions.join('\n'))
 * const client = createClient({ baseURL: 'http://localhost:1234/v1', model: 'acme-reasoner-2', profile })
 * ```
 */
export async function probeEndpoint(config: ClientConfig): Promise<ProbeReport> {
  let requests = 0
  const send = config.customFetch ?? globalThis.fetch.bind(globalThis)
  const maxTokens = config.maxTokens ?? 256
  const client = createClient({
    ...config,
    maxTokens,
    profile: null,
    retry: 0,
    reask: false,
    customFetch: (input, init) => (requests < LIMIT ? (requests++, send(input, init)) : Promise.reject(new Error(`the probe's ${LIMIT} requests are spent`))),
  })
  const steps: ProbeStep[] = []
  const reasoningFields = new Set<string>()
  const conclusions: string[] = []
  const tools = { answer }
  const stage = async (name: ProbeStep['name'], run: () => Promise<InvokeResult>) => {
    const step: ProbeStep = { name, ok: false, fixes: [] }
    if (requests >= LIMIT) return void steps.push({ ...step, error: { type: 'skipped', message: `not sent: the ${LIMIT} requests were spent` } })
    steps.push(step)
    let raw: unknown
    try {
      const result = await run()
      step.ok = true
      step.fixes = result.fixes
      raw = result.rawResponse
      return result
    } catch (error) {
      if (!isInvokeError(error)) throw error
      step.error = { type: error.type, message: error.message }
      raw = error.rawResponse
      // Answered (a 200), though with no call: the request itself was taken.
      if (error.status === undefined && raw !== undefined) step.ok = error.type !== 'invalid_response' && error.type !== 'invalid_schema'
      return undefined
    } finally {
      const message = isRecord(raw) && Array.isArray(raw.choices) && isRecord(raw.choices[0]) ? raw.choices[0].message : undefined
      if (isRecord(message)) for (const key in message) if (isReasoningField(key) && message[key]) reasoningFields.add(key)
    }
  }
  const first = await stage('tool_choice', () => client.invoke([ask('ready')], tools, { toolChoiceName: 'answer' }))
  const call = { id: 'call_probe', type: 'function' as const, function: { name: 'answer', arguments: '{"word":"ready"}' } }
  const turn: ChatMessage = { role: 'assistant', content: null, tool_calls: [call] }
  for (const field of reasoningFields) turn[field] = 'The user wants the answer tool.'
  const history = first?.messages ?? [turn, { role: 'tool', tool_call_id: call.id, content: 'ready' }]
  await stage('second turn', () => client.invoke([ask('ready'), ...history, ask('done')], tools, { toolChoiceName: 'answer' }))
  await stage('stream', () => client.stream([ask('ready')], tools, { toolChoiceName: 'answer' }).result)

  const { profile } = client
  const [choice, second, stream] = steps
  const truncated = steps.some((step) => step.error?.type === 'output_truncated')
  if (choice?.ok) conclusions.push(`tool_choice: ${profile.toolChoice === 'auto' ? "none taken (the prompt asks for the call)" : (profile.toolChoice ?? 'a named tool')} is taken.`)
  else conclusions.push(`The first request failed (${choice?.error?.type}): ${choice?.error?.message}`)
  if (truncated) conclusions.push(`The model spent its ${maxTokens} max_tokens before writing a call: it reasons first. Give it a larger maxTokens; the forms it was sent were still taken.`)
  if (steps.some((step) => step.error?.type === 'no_tool_call')) conclusions.push('It answered without a tool call: the endpoint may ignore tools or tool_choice.')
  for (const [field, rule] of Object.entries(profile.messageFields)) conclusions.push(`History: ${field} must ${rule === 'echo' ? 'be sent back' : 'not be sent'}.`)
  if (reasoningFields.size > 0) conclusions.push(`It returns reasoning in ${[...reasoningFields].join(', ')}.`)
  if (second?.ok && Object.keys(profile.messageFields).length === 0 && reasoningFields.size > 0) conclusions.push('It takes a history without the reasoning.')
  if (stream) conclusions.push(stream.ok ? 'Streaming works.' : `Streaming failed (${stream.error?.type}).`)
  if (profile.fields.length + Object.keys(profile.messageFields).length === 0 && profile.toolChoice === undefined && choice?.ok) {
    conclusions.push('Nothing was refused, so there is nothing to learn: the endpoint took every form it was sent (a server that answers 200 to anything looks the same).')
  }
  return { profile, requests, steps, reasoningFields: [...reasoningFields], conclusions }
}
