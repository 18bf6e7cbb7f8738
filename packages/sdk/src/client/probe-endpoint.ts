import { isInvokeError } from '../errors/invoke-error'
import type { ChatMessage, ChatRequest } from '../types'
import type { InvokeResult } from './invoke-result'
import type { Tool } from '../tool/types'
import { isRecord } from '../util/is-record'
import { constrainedBy } from './adapt-to-rejected-field'
import { isReasoningField } from './adapt-to-message-field'
import type { ClientConfig } from './config'
import { createClient } from './create-client'
import type { EndpointProfile } from './endpoint-profile'

/**
 * One HTTP request of a {@link ProbeStep}: what it saw.
 *
 * @example
 * ```ts
 * for (const { status, error } of report.steps[0]!.requests) console.log(status ?? 'no response', error?.type ?? 'taken')
 * // 400 bad_request   (the tools refused natively)
 * // 200 taken         (the same request in prompt mode)
 * ```
 */
export interface ProbeRequest {
  /** The HTTP status; `undefined` when no response came (connection refused, timeout). */
  status: number | undefined
  /** How it failed: a refusal the next request adapted to (a refused `tool_choice` form, refused tools …), or the stage's end. */
  error?: { type: string; message: string }
  durationMs: number
}

/** One stage of {@link probeEndpoint}: what it sent, and how it ended. */
export interface ProbeStep {
  name: 'tool_choice' | 'second turn' | 'stream'
  ok: boolean
  /** The repairs and request changes of the stage (`tool-choice-required`, `echoed-message-field:reasoning_content` …). */
  fixes: string[]
  error?: { type: string; message: string }
  /** Each request the stage sent, in order (none when it was skipped). */
  requests: ProbeRequest[]
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
  /** The `max_tokens` of each request: a stage that ends in `output_truncated` spent it before writing a call (a model that reasons first). */
  maxTokens: number
  /**
   * How the last request constrained decoding: `'strict'` (strict tools), `'response_format'` (prompt
   * mode), or `null` (neither sent; one the endpoint refused is in `profile.fields`).
   */
  constrained: 'strict' | 'response_format' | null
}

const LIMIT = 6
const SPENT = `the probe's ${LIMIT} requests are spent`
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
 * endpoint demands it), and a streamed call. Resolves with the profile learnt and each stage's
 * outcome; it never throws for the endpoint's answers (a bad config is a `config_error`). A stage is
 * `ok` when the endpoint took its request, even if the model wrote no call (a reasoning model that
 * spends `maxTokens` thinking: `output_truncated`; a server that answers 200 to anything). What a
 * stage cannot tell apart stays out of the profile: nothing refused means nothing learnt.
 *
 * @example
 * ```ts
 * const { profile, steps } = await probeEndpoint({ baseURL: 'http://localhost:1234/v1', model: 'acme-reasoner-2' })
 * for (const step of steps) console.log(step.name, step.ok ? 'taken' : step.error?.type, step.fixes)
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
    customFetch: (input, init) => (requests < LIMIT ? (requests++, send(input, init)) : Promise.reject(new Error(SPENT))),
  })
  const steps: ProbeStep[] = []
  let last: ChatRequest | undefined
  client.events.on('request', ({ body }) => (last = body))
  const reasoningFields = new Set<string>()
  const tools = { answer }
  let step: ProbeStep | undefined
  client.events.on('response', ({ status, error, durationMs }) =>
    step?.requests.push({ status, ...(isInvokeError(error) ? { error: { type: error.type, message: error.message } } : {}), durationMs }),
  )
  const stage = async (name: ProbeStep['name'], run: () => Promise<InvokeResult>) => {
    step = { name, ok: false, fixes: [], requests: [] }
    if (requests >= LIMIT) return void steps.push({ ...step, error: { type: 'skipped', message: SPENT } })
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

  return { profile: client.profile, requests, steps, reasoningFields: [...reasoningFields], maxTokens, constrained: last ? (constrainedBy(last) ?? null) : null }
}
