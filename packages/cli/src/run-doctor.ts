import { createClient, isInvokeError, normalizeModelName, openaiAdapter, type Adapter, type AdapterContext, type ChatRequest, type InvokeResult, type ToolMode } from '@wildcall/sdk'
import { buildRequest, hermesPrompt, refusesTools, resolveEndpoint, toPromptBody } from '@wildcall/sdk/internal'
import { createAllAdapters } from './create-all-adapters'
import { createBrowserAgentTools, createDoctorMessages, MACRO_TOOL_NAME } from './create-browser-actions'
import { UsageError, type CliIo } from './cli-io'
import { diffJson } from './diff-json'
import type { DoctorExchange, DoctorHttp, DoctorOutcome, DoctorReport } from './doctor-report'
import { formatDoctorReport } from './format-doctor-report'
import { loadAdapterModules, parseAdapterOptions } from './load-adapters'
import { ExitCode } from './exit-code'
import { parseCommandArguments } from './parse-command-arguments'
import { runProbe } from './run-probe'
import { redactText, describeAction } from './format-output'
import { providerName, repairAttributes, responseAttributes, serverAttributes, type GenAiAttributes } from '@wildcall/otel/attributes'

export const DOCTOR_HELP = `Usage: wildcall doctor --base-url URL --model NAME [options]

Sends ONE real macro-tool request (a browser agent's first step on a tiny page) through every
wildcall adapter, and reports what happened:
  - which adapters matched, and what each changed in the request (a diff)
  - the HTTP status and timing, and the raw response (API key redacted)
  - the repairs applied to reach a valid call
  - the classified error, if any, and whether a retry can help
  - whether the endpoint accepts tools, and when it refuses them whether prompt mode (the tools
    described in the prompt) works there: a second request in prompt mode
  - a verdict

Options:
  --base-url URL      OpenAI-compatible base URL, e.g. https://api.deepseek.com/v1 (env WILDCALL_BASE_URL)
  --model NAME        model name as the provider spells it (env WILDCALL_MODEL)
  --api-key KEY       API key (env WILDCALL_API_KEY; prefer the env: flags end up in shell history)
  --timeout-ms MS     give up on the request after MS milliseconds (default 60000)
  --stream            send the request as a stream (stream: true), as client.stream() does
  --tool-mode MODE    auto (default: tools natively, in the prompt if the endpoint refuses them),
                      native (only the request's tools) or prompt (the tools in the prompt)
  --probe             instead, learn what the endpoint wants in at most 6 small requests (tool_choice
                      forms, a second turn with and without reasoning, a streamed call) and print
                      the profile a client can start from
  --profile PATH      with --probe: write that profile (JSON) to PATH, for createClient({ profile })
  --adapter NAME|PATH also load the adapters a module exports: an installed package (resolved from
                      the current folder) or a built JavaScript file; they match before the bundled
                      ones. Repeat for several modules.
  --adapter-options JSON
                      the options the --adapter factories are called with, e.g. '{"reasoning":true}'
  --json              print one JSON report on stdout (progress still goes to stderr)
  -q, --quiet         no progress on stderr
  -h, --help          show this help

Exit codes: 0 works (clean or repaired) · 1 fails, retrying will not help · 2 usage error ·
3 transient failure, a retry may help · 4 unreachable: no server answered at that address.
`

const EXIT_BY_OUTCOME: Record<DoctorOutcome, number> = {
  clean: ExitCode.ok,
  repaired: ExitCode.ok,
  error_retryable: ExitCode.transient,
  error_final: ExitCode.failure,
  unreachable: ExitCode.unreachable,
}

/** `wildcall doctor`: one real request, explained. Resolves with the exit code. */
export async function runDoctor(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArguments('doctor', args, {
    'base-url': { type: 'string' },
    model: { type: 'string' },
    'api-key': { type: 'string' },
    'timeout-ms': { type: 'string' },
    stream: { type: 'boolean' },
    'tool-mode': { type: 'string' },
    probe: { type: 'boolean' },
    profile: { type: 'string' },
    adapter: { type: 'string', multiple: true },
    'adapter-options': { type: 'string' },
    json: { type: 'boolean' },
    quiet: { type: 'boolean', short: 'q' },
    help: { type: 'boolean', short: 'h' },
  })
  if (values.help) {
    io.stdout(DOCTOR_HELP)
    return ExitCode.ok
  }
  const baseURL = values['base-url'] ?? io.env.WILDCALL_BASE_URL
  const model = values.model ?? io.env.WILDCALL_MODEL
  const apiKey = values['api-key'] ?? io.env.WILDCALL_API_KEY
  if (!baseURL) throw new UsageError('doctor: --base-url is required (or set WILDCALL_BASE_URL), e.g. --base-url https://api.openai.com/v1')
  if (!model) throw new UsageError('doctor: --model is required (or set WILDCALL_MODEL), e.g. --model gpt-4.1-mini')
  const timeoutMs = values['timeout-ms'] === undefined ? 60_000 : Number(values['timeout-ms'])
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new UsageError(`doctor: --timeout-ms must be a whole number of milliseconds > 0 (got "${values['timeout-ms']}")`)
  const toolMode = (values['tool-mode'] ?? 'auto') as ToolMode
  if (!['auto', 'native', 'prompt'].includes(toolMode)) throw new UsageError(`doctor: --tool-mode must be auto, native or prompt (got "${toolMode}")`)
  const progress = values.quiet ? () => {} : (text: string) => io.stderr(`${text}\n`)

  const adapters = [...(await loadAdapterModules(values.adapter ?? [], 'doctor', parseAdapterOptions(values['adapter-options'], 'doctor'))), ...createAllAdapters()]
  if (values.probe) return runProbe({ baseURL, model, apiKey, timeoutMs, adapters, profilePath: values.profile, json: values.json === true }, io)
  if (values.profile !== undefined) throw new UsageError('doctor: --profile goes with --probe, e.g. --probe --profile profile.json')
  const report = await diagnose({ baseURL, model, apiKey, timeoutMs, stream: values.stream === true, toolMode, adapters, progress })
  io.stdout(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatDoctorReport(report))
  return EXIT_BY_OUTCOME[report.outcome]
}

interface DiagnoseInput {
  baseURL: string
  model: string
  apiKey: string | undefined
  timeoutMs: number
  stream: boolean
  toolMode: ToolMode
  /** The adapters to choose from: `--adapter` modules first, then the bundled ones. */
  adapters: Adapter[]
  progress: (text: string) => void
}

// Codes of a request that never reached a server: nothing listens there, or the name does not resolve.
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT'])

/** The system error code of a failed connection, found along an error's `cause` chain. */
function unreachableCode(error: unknown): string | undefined {
  for (let at: unknown = error, depth = 0; typeof at === 'object' && at !== null && depth < 5; at = (at as { cause?: unknown }).cause, depth++) {
    const code = (at as { code?: unknown }).code
    if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return code
  }
  return undefined
}

/** A body as JSON when it is JSON, else as the text it is (an HTML page, an event stream). */
function readBody(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

async function diagnose({ baseURL, model, apiKey, timeoutMs, stream, toolMode, adapters, progress }: DiagnoseInput): Promise<DoctorReport> {
  const tools = createBrowserAgentTools()
  const messages = createDoctorMessages()
  // One record per request, in order: the `request` event opens it, the fetch and `response` event fill it in.
  const exchanges: Array<DoctorExchange & { request: ChatRequest; failure?: unknown }> = []
  const reads: Array<Promise<void>> = []

  // Our own fetch around the real one: it sees the status, timing and body exactly as they arrive,
  // before the SDK classifies or repairs anything.
  const customFetch: typeof fetch = async (input, init) => {
    const exchange = exchanges.at(-1)
    const startedAt = performance.now()
    const ticker = setInterval(() => progress(`… still waiting for ${model} (${Math.round((performance.now() - startedAt) / 1000)} s)`), 5000)
    ticker.unref?.()
    try {
      const response = await fetch(input, init)
      const durationMs = Math.round(performance.now() - startedAt)
      const http: DoctorHttp = { status: response.status, durationMs, bodyBytes: 0, contentType: response.headers.get('content-type') }
      if (exchange) exchange.http = http
      // A stream is read by the SDK as it arrives: its copy is recorded on the side, not awaited here.
      const copy = response
        .clone()
        .text()
        .then((text) => {
          http.bodyBytes = new TextEncoder().encode(text).length
          if (exchange) exchange.rawResponse = readBody(redactText(text, apiKey))
        }, () => undefined)
      if (stream) reads.push(copy)
      else await copy
      progress(`← HTTP ${response.status} after ${durationMs} ms${stream ? ' (streaming)' : ''}`)
      return response
    } finally {
      clearInterval(ticker)
    }
  }

  let client: ReturnType<typeof createClient>
  try {
    client = createClient({ baseURL, model, ...(apiKey ? { apiKey } : {}), maxRetries: 0, timeoutMs, adapters, customFetch, toolMode })
  } catch (error) {
    // A config error here is how the command was called (a malformed URL, …): a usage error.
    if (isInvokeError(error) && error.type === 'config_error') throw new UsageError(`doctor: ${error.message}`)
    throw error
  }
  let answered: import('@wildcall/sdk').ClientEvents['response'] | undefined
  client.events.on('response', (event) => {
    answered = event
    const exchange = exchanges.at(-1)
    if (exchange && isInvokeError(event.error)) {
      exchange.failure = event.error
      exchange.error = { type: event.error.type, message: redactText(event.error.message, apiKey) }
    }
  })
  client.events.on('request', ({ url, body }) => {
    exchanges.push({ tools: body.tools ? 'native' : 'prompt', request: body })
    progress(`→ POST ${url} (model ${model}, adapters: ${client.adapters.join(', ') || 'none'}${body.tools ? '' : ', tools in the prompt'}${stream ? ', stream' : ''})`)
  })

  const unpatched = buildRequest({ model, messages, tools, toolChoiceName: MACRO_TOOL_NAME })
  const available = [...adapters, openaiAdapter()]
  const { patches, patched } = replayPatches(unpatched, available, client.adapters, { baseURL, model, tools })

  const startedAt = performance.now()
  let result: InvokeResult | undefined
  let failure: unknown
  try {
    result = stream ? await client.stream(messages, tools, { toolChoiceName: MACRO_TOOL_NAME }).result : await client.invoke(messages, tools, { toolChoiceName: MACRO_TOOL_NAME })
  } catch (error) {
    failure = error
  }
  // The stream's copy ends with the stream; a server that keeps the connection open is not waited for.
  if (reads.length > 0) await Promise.race([Promise.all(reads), new Promise((resolve) => setTimeout(resolve, 1_000).unref?.())])
  if (failure !== undefined && !isInvokeError(failure)) throw failure
  // The report is about the last request of the call itself (in auto mode, the one in prompt mode).
  const main = exchanges.at(-1)
  const native = exchanges.filter((exchange) => exchange.tools === 'native')
  const refused = native.some((exchange) => refusesTools(exchange.failure))
  // A refusal in native mode: one more request in prompt mode says whether that would work here.
  let promptFailure: unknown = failure
  let promptResult = result
  if (refused && toolMode === 'native') {
    progress('… the endpoint refuses tools: trying prompt mode once')
    const probe = client.invoke(messages, tools, { toolChoiceName: MACRO_TOOL_NAME, toolMode: 'prompt' })
    promptResult = await probe.then((value) => value, (error: unknown) => ((promptFailure = error), undefined))
    if (promptResult) promptFailure = undefined
  }
  const prompted = exchanges.filter((exchange) => exchange.tools === 'prompt').at(-1)
  const durationMs = Math.round(performance.now() - startedAt)
  const answeredOk = (exchange: { http?: DoctorHttp } | undefined) => exchange?.http !== undefined && exchange.http.status < 300
  const nativeVerdict: DoctorReport['tools']['native'] = toolMode === 'prompt' ? 'not sent' : refused ? 'refused' : native.some(answeredOk) ? 'accepted' : 'unknown'
  // Prompt mode failed only when the model answered and no valid call came of it (or a final error):
  // a request that got no answer, or a 429, says nothing about it.
  const promptMode: DoctorReport['tools']['promptMode'] =
    !refused && toolMode !== 'prompt' ? undefined : promptResult ? 'works' : !answeredOk(prompted) && isInvokeError(promptFailure) && promptFailure.retryable ? 'unknown' : 'fails'
  const seen = native.at(-1)
  const toolsVerdict =
    nativeVerdict === 'not sent'
      ? 'TOOLS IN THE PROMPT (--tool-mode prompt): the endpoint was not asked to take tools.'
      : nativeVerdict === 'accepted'
        ? `TOOLS ACCEPTED: the endpoint took the request with tools (HTTP ${native.find(answeredOk)!.http!.status}).`
        : nativeVerdict === 'unknown'
          ? `TOOLS UNKNOWN: ${seen?.http ? `the only answer was HTTP ${seen.http.status}${seen.error ? ` (${seen.error.type})` : ''}, which does not say` : 'nothing answered, so nothing says'} whether the endpoint takes tools.`
          : promptMode === 'works'
            ? `TOOLS REFUSED, PROMPT MODE WORKS: ${model} gave a valid call from the tools described in the prompt. ${toolMode === 'auto' ? "toolMode 'auto' (the default) switches by itself" : "Use toolMode 'auto' or 'prompt'"}.`
            : `TOOLS REFUSED, PROMPT MODE ${promptMode === 'unknown' ? 'UNKNOWN' : 'FAILS'}: ${isInvokeError(promptFailure) ? `${promptFailure.type} — ${redactText(promptFailure.message, apiKey)}` : 'no valid call'}`
  const toolsReport: DoctorReport['tools'] = { mode: toolMode, native: nativeVerdict, refused, ...(promptMode ? { promptMode } : {}), verdict: toolsVerdict }
  const sent = main?.request
  // Prompt mode comes after the adapters: replayed on their body, it is what changed the rest.
  const promptChanges = sent && !sent.tools ? diffJson(patched, toPromptBody(patched, available.find((adapter) => client.adapters.includes(adapter.name) && adapter.prompt)?.prompt ?? hermesPrompt, MACRO_TOOL_NAME)) : []
  const constrained = describeConstrained(sent, client.profile.fields)

  const base = {
    baseURL,
    model,
    stream,
    adapters: [...client.adapters],
    patches,
    requestDiff: sent ? diffJson(JSON.parse(redactText(JSON.stringify(unpatched), apiKey)), sent) : [],
    promptChanges,
    ...(sent ? { request: sent } : {}),
    ...(main?.http ? { http: main.http } : {}),
    ...(main?.rawResponse !== undefined ? { rawResponse: main.rawResponse } : {}),
    exchanges: exchanges.map(({ tools, http, rawResponse, error }) => ({ tools, ...(http ? { http } : {}), ...(rawResponse !== undefined ? { rawResponse } : {}), ...(error ? { error } : {}) })),
    tools: toolsReport,
    constrained,
    durationMs,
  }
  const http = main?.http
  const { url } = resolveEndpoint(baseURL)
  const attributes: GenAiAttributes = {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': providerName(url, client.adapters),
    'gen_ai.request.model': model,
    ...serverAttributes(url),
    ...(stream ? { 'gen_ai.request.stream': true } : {}),
    ...(http ? { 'http.response.status_code': http.status } : {}),
    ...(answered ? responseAttributes(answered) : failure === undefined ? {} : { 'error.type': (failure as { type: string }).type }),
    ...(result ? { ...repairAttributes(result.fixes), 'gen_ai.tool.name': result.toolCall.name } : {}),
  }
  if (result) {
    const outcome: DoctorOutcome = result.fixes.length === 0 ? 'clean' : 'repaired'
    const action = describeAction(result.toolCall.args)
    return {
      ...base,
      attributes,
      outcome,
      fixes: result.fixes,
      toolCall: { name: result.toolCall.name, args: result.toolCall.args },
      verdict: result.fixes.includes('prompt-tools')
        ? `WORKS IN PROMPT MODE: ${model} answered the tools described in the prompt with a valid ${result.toolCall.name} call (${action}), read from its text (${result.fixes.join(', ')}).`
        : outcome === 'clean'
          ? `WORKS: ${model} answered with a valid ${result.toolCall.name} call (${action}) and needed no repair.`
          : `WORKS WITH REPAIRS: ${model}'s call (${action}) was valid only after ${result.fixes.length} repair(s): ${result.fixes.join(', ')}. wildcall applies them for you on every step.`,
    }
  }
  const error = failure as import('@wildcall/sdk').InvokeError
  const unreachable = error.type === 'network_error' && !http ? unreachableCode(error) : undefined
  const outcome: DoctorOutcome = unreachable ? 'unreachable' : error.retryable ? 'error_retryable' : 'error_final'
  const wait = error.retryAfterMs !== undefined ? ` The server asks to wait ${(error.retryAfterMs / 1000).toFixed(1)} s.` : ''
  // The SDK's advice names the option; here the knob is the flag.
  const redacted = redactText(error.message, apiKey)
  const message = error.type === 'timeout' ? redacted.replace(/\btimeoutMs\b/g, '--timeout-ms') : redacted
  const verdicts: Record<Exclude<DoctorOutcome, 'clean' | 'repaired'>, string> = {
    unreachable: `UNREACHABLE: nothing answered at ${baseURL} (${unreachable}). Check the host and port of --base-url, that the server is running, and your network or proxy.`,
    error_retryable: `TRANSIENT FAILURE: ${error.type} — a retry may help (the SDK retries this type by itself).${wait}`,
    error_final: `FAILS: ${error.type} — retrying will not help. ${message}`,
  }
  return {
    ...base,
    attributes,
    outcome,
    fixes: [],
    error: {
      type: error.type,
      message,
      retryable: error.retryable,
      ...(error.status !== undefined ? { status: error.status } : {}),
      ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}),
    },
    verdict: verdicts[outcome as keyof typeof verdicts],
  }
}

/** Whether `sent` constrained decoding (strict tools, `response_format`), and what the endpoint refused of it. */
function describeConstrained(sent: ChatRequest | undefined, fields: Array<{ field: string }>): DoctorReport['constrained'] {
  const by = sent?.response_format ? 'response_format' : sent?.tools?.some((tool) => tool.function.strict) ? 'strict' : null
  const refused = fields.map(({ field }) => field).filter((field) => field === 'strict' || field === 'response_format')
  const verdict = by
    ? `YES: ${by === 'strict' ? 'strict tools' : 'response_format'} sent and taken — the call is constrained to the schema where the server enforces it.`
    : refused.length > 0
      ? `REFUSED: the endpoint refused ${refused.join(' and ')}; wildcall learnt it and sends it no more.`
      : 'NO: neither strict tools nor response_format was sent (the SDK option strict: true sends strict tools to any endpoint).'
  return { by, refused, verdict }
}

/**
 * Applies each matched adapter's `patchRequest` in the client's order to a copy of the built body,
 * to say which adapter changed what, and the body they leave. The real sent body stays the reference (`requestDiff`).
 */
function replayPatches(
  unpatched: ChatRequest,
  available: Adapter[],
  order: readonly string[],
  { baseURL, model, tools }: { baseURL: string; model: string; tools: AdapterContext['tools'] },
): { patches: DoctorReport['patches']; patched: ChatRequest } {
  const endpoint = resolveEndpoint(baseURL)
  const context: AdapterContext = {
    model,
    modelId: normalizeModelName(model),
    baseURL: endpoint.baseURL,
    host: endpoint.host,
    adapters: order,
    tools,
    stream: false,
    toolChoiceName: MACRO_TOOL_NAME,
  }
  let body = structuredClone(unpatched)
  const patches: DoctorReport['patches'] = []
  for (const name of order) {
    const adapter = available.find((candidate) => candidate.name === name)
    if (!adapter?.patchRequest) {
      patches.push({ adapter: name, changes: [] })
      continue
    }
    const before = body
    const copy = structuredClone(body)
    try {
      // Hooks may mutate and return nothing, or return a new body.
      body = adapter.patchRequest(copy, context) ?? copy
    } catch {
      // The real invoke reports a throwing hook as a config_error: nothing to attribute here.
      patches.push({ adapter: name, changes: [] })
      continue
    }
    patches.push({ adapter: name, changes: diffJson(before, body) })
  }
  return { patches, patched: body }
}
