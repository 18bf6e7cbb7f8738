import { createClient, isInvokeError, normalizeModelName, openaiAdapter, type Adapter, type AdapterContext, type ChatRequest, type InvokeResult, type ToolMode } from '@wildcall/sdk'
import { buildRequest, refusesTools, resolveEndpoint } from '@wildcall/sdk/internal'
import { createAllAdapters } from './create-all-adapters'
import { createBrowserAgentTools, createDoctorMessages, MACRO_TOOL_NAME } from './create-browser-actions'
import { UsageError, type CliIo } from './cli-io'
import { diffJson, formatChanges, type JsonChange } from './diff-json'
import { loadAdapterModules } from './load-adapters'
import { ExitCode } from './exit-code'
import { parseCommandArguments } from './parse-command-arguments'
import { runProbe } from './run-probe'
import { indent, redactText, describeAction } from './format-output'
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
  --adapter PATH      also load the adapters a module exports (your own, built to JavaScript); they
                      match before the bundled ones. Repeat for several modules.
  --json              print one JSON report on stdout (progress still goes to stderr)
  -q, --quiet         no progress on stderr
  -h, --help          show this help

Exit codes: 0 works (clean or repaired) · 1 fails, retrying will not help · 2 usage error ·
3 transient failure, a retry may help · 4 unreachable: no server answered at that address.
`

/** The kinds of outcome a doctor run can have. */
export type DoctorOutcome = 'clean' | 'repaired' | 'error_retryable' | 'error_final' | 'unreachable'

/** What `wildcall doctor --json` prints. */
export interface DoctorReport {
  baseURL: string
  model: string
  /** Whether the request was sent as a stream (`--stream`). */
  stream: boolean
  /** Adapters that matched, in patch order (the default `openai` adapter only for GPT models). */
  adapters: string[]
  /** What each matched adapter changed in the request, replayed one by one. */
  patches: Array<{ adapter: string; changes: JsonChange[] }>
  /** The body wildcall built, compared with the body it sent (after every adapter). */
  requestDiff: JsonChange[]
  /** The body sent (API key redacted). */
  request?: ChatRequest
  http?: { status: number; durationMs: number; bodyBytes: number; contentType: string | null }
  /** The response body as received, API key redacted. */
  rawResponse?: string
  outcome: DoctorOutcome
  fixes: string[]
  toolCall?: { name: string; args: unknown }
  /**
   * How tools reached the model: the `--tool-mode`, whether the endpoint refused them natively, and
   * then whether prompt mode gave a valid call (`undefined` when it was not needed or not tried).
   */
  tools: { mode: ToolMode; refused: boolean; promptMode?: 'works' | 'fails'; verdict: string }
  /**
   * Whether the last request constrained decoding (`by`: strict tools, `response_format`, or `null`
   * for neither), and whether the endpoint refused one (learnt: not sent again).
   */
  constrained: { by: 'strict' | 'response_format' | null; refused: string[]; verdict: string }
  error?: { type: string; message: string; retryable: boolean; status?: number; retryAfterMs?: number }
  verdict: string
  durationMs: number
  /**
   * The same facts under the names `@wildcall/otel` gives them in spans (the OpenTelemetry GenAI
   * conventions): `gen_ai.provider.name`, `gen_ai.request.model`, `server.address`, `server.port`,
   * `gen_ai.response.*`, `gen_ai.usage.*`, `error.type`, `wildcall.fix.codes`, `gen_ai.tool.name` …
   */
  attributes: GenAiAttributes
}

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

  const adapters = [...(await loadAdapterModules(values.adapter ?? [], 'doctor')), ...createAllAdapters()]
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

async function diagnose({ baseURL, model, apiKey, timeoutMs, stream, toolMode, adapters, progress }: DiagnoseInput): Promise<DoctorReport> {
  const tools = createBrowserAgentTools()
  const messages = createDoctorMessages()
  let http: DoctorReport['http']
  let rawResponse: string | undefined
  let bodyRead: Promise<void> | undefined
  let sent: ChatRequest | undefined
  // Whether a request went out without `tools` (prompt mode), and the first HTTP status seen.
  let prompted = false
  let firstStatus: number | undefined

  // Our own fetch around the real one: it sees the status, timing and body exactly as they arrive,
  // before the SDK classifies or repairs anything.
  const customFetch: typeof fetch = async (input, init) => {
    const startedAt = performance.now()
    const ticker = setInterval(() => progress(`… still waiting for ${model} (${Math.round((performance.now() - startedAt) / 1000)} s)`), 5000)
    ticker.unref?.()
    try {
      const response = await fetch(input, init)
      const record = (text: string | undefined) => {
        rawResponse = text === undefined ? undefined : redactText(text, apiKey)
        if (http) http.bodyBytes = text === undefined ? 0 : new TextEncoder().encode(text).length
      }
      // A stream is read by the SDK as it arrives: its copy is recorded on the side, not awaited here.
      const copy = response.clone().text().catch(() => undefined)
      const text = stream ? undefined : await copy
      const durationMs = Math.round(performance.now() - startedAt)
      http = { status: response.status, durationMs, bodyBytes: 0, contentType: response.headers.get('content-type') }
      firstStatus ??= response.status
      if (stream) bodyRead = copy.then(record)
      else record(text)
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
  client.events.on('response', (event) => (answered = event))
  client.events.on('request', ({ url, body }) => {
    sent = body
    if (!body.tools) prompted = true
    progress(`→ POST ${url} (model ${model}, adapters: ${client.adapters.join(', ') || 'none'}${stream ? ', stream' : ''})`)
  })

  const unpatched = buildRequest({ model, messages, tools, toolChoiceName: MACRO_TOOL_NAME })
  const patches = replayPatches(unpatched, [...adapters, openaiAdapter()], client.adapters, { baseURL, model, tools })

  const startedAt = performance.now()
  let result: InvokeResult | undefined
  let failure: unknown
  try {
    result = stream ? await client.stream(messages, tools, { toolChoiceName: MACRO_TOOL_NAME }).result : await client.invoke(messages, tools, { toolChoiceName: MACRO_TOOL_NAME })
  } catch (error) {
    failure = error
  }
  // The stream's copy ends with the stream; a server that keeps the connection open is not waited for.
  if (bodyRead) await Promise.race([bodyRead, new Promise((resolve) => setTimeout(resolve, 1_000).unref?.())])
  if (failure !== undefined && !isInvokeError(failure)) throw failure
  // A refusal of tools: in auto mode the client went on in prompt mode by itself; in native mode,
  // one more request in prompt mode says whether that would work here.
  const refused = (toolMode === 'auto' && prompted && firstStatus !== undefined && firstStatus >= 400) || refusesTools(failure)
  let promptMode: 'works' | 'fails' | undefined
  let promptFailure: unknown = failure
  if (refused && toolMode === 'native') {
    progress('… the endpoint refuses tools: trying prompt mode once')
    // The report stays about the native request: the probe's own HTTP record is set aside.
    const kept = { http, rawResponse, sent }
    const probe = client.invoke(messages, tools, { toolChoiceName: MACRO_TOOL_NAME, toolMode: 'prompt' })
    promptFailure = await probe.then(() => undefined, (error: unknown) => error)
    promptMode = promptFailure === undefined ? 'works' : 'fails'
    ;({ http, rawResponse, sent } = kept)
  } else if (refused) promptMode = result ? 'works' : 'fails'
  const durationMs = Math.round(performance.now() - startedAt)
  const toolsVerdict = !refused
    ? toolMode === 'prompt'
      ? 'TOOLS IN THE PROMPT (--tool-mode prompt): the endpoint was not asked to take tools.'
      : 'TOOLS ACCEPTED: the endpoint takes tools natively.'
    : promptMode === 'works'
      ? `TOOLS REFUSED, PROMPT MODE WORKS: ${model} gave a valid call from the tools described in the prompt. ${toolMode === 'auto' ? "toolMode 'auto' (the default) switches by itself" : "Use toolMode 'auto' or 'prompt'"}.`
      : `TOOLS REFUSED, PROMPT MODE FAILS: ${isInvokeError(promptFailure) ? `${promptFailure.type} — ${redactText(promptFailure.message, apiKey)}` : 'no valid call'}`
  const toolsReport: DoctorReport['tools'] = { mode: toolMode, refused, ...(promptMode ? { promptMode } : {}), verdict: toolsVerdict }
  const constrained = describeConstrained(sent, client.profile.fields)

  const base = {
    baseURL,
    model,
    stream,
    adapters: [...client.adapters],
    patches,
    requestDiff: sent ? diffJson(JSON.parse(redactText(JSON.stringify(unpatched), apiKey)), sent) : [],
    ...(sent ? { request: sent } : {}),
    ...(http ? { http } : {}),
    ...(rawResponse !== undefined ? { rawResponse } : {}),
    tools: toolsReport,
    constrained,
    durationMs,
  }
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
 * to say which adapter changed what. The real sent body stays the reference (`requestDiff`).
 */
function replayPatches(
  unpatched: ChatRequest,
  available: Adapter[],
  order: readonly string[],
  { baseURL, model, tools }: { baseURL: string; model: string; tools: AdapterContext['tools'] },
): DoctorReport['patches'] {
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
  return patches
}

/** The human-readable report. */
export function formatDoctorReport(report: DoctorReport): string {
  const lines: string[] = []
  lines.push(`wildcall doctor — ${report.baseURL} · model ${report.model}${report.stream ? ' · stream' : ''}`, '')
  lines.push(`Adapters matched (patch order): ${report.adapters.join(', ') || 'none (the request goes out as built)'}`)
  for (const patch of report.patches) {
    lines.push(patch.changes.length === 0 ? `  ${patch.adapter}: no change` : `  ${patch.adapter}: ${patch.changes.length} change(s)`)
    lines.push(...formatChanges(patch.changes).map((line) => `      ${line}`))
  }
  lines.push('', `Request diff (built by wildcall → sent after adapters): ${report.requestDiff.length === 0 ? 'no change' : `${report.requestDiff.length} change(s)`}`)
  lines.push(...formatChanges(report.requestDiff).map((line) => `  ${line}`))
  lines.push('')
  if (report.http) {
    lines.push(`HTTP: ${report.http.status} in ${report.http.durationMs} ms, ${report.http.bodyBytes} bytes${report.http.contentType ? ` (${report.http.contentType})` : ''}`)
  } else {
    lines.push('HTTP: no response')
  }
  if (report.rawResponse !== undefined) {
    lines.push('Raw response (API key redacted):')
    lines.push(indent(prettyBody(report.rawResponse), '  '))
  }
  lines.push('')
  lines.push(`Repairs applied: ${report.fixes.length === 0 ? 'none' : report.fixes.join(', ')}`)
  if (report.toolCall) lines.push(`Tool call: ${report.toolCall.name} → ${describeAction(report.toolCall.args)}`)
  if (report.error) {
    const { error } = report
    lines.push(`Error: ${error.type}${error.status !== undefined ? ` (HTTP ${error.status})` : ''}`)
    lines.push(`  retry can help: ${error.retryable ? 'yes' : 'no'}${error.retryAfterMs !== undefined ? ` (after ${(error.retryAfterMs / 1000).toFixed(1)} s)` : ''}`)
    lines.push(`  ${error.message}`)
  }
  lines.push('', `Tools: ${report.tools.verdict}`)
  lines.push(`Constrained decoding: ${report.constrained.verdict}`)
  lines.push(`Verdict: ${report.verdict}`, '')
  return lines.join('\n')
}

const MAX_BODY_CHARS = 4000

function prettyBody(text: string): string {
  let pretty = text
  try {
    pretty = JSON.stringify(JSON.parse(text), null, 2)
  } catch {
    // Not JSON (an HTML error page, …): shown as received.
  }
  return pretty.length > MAX_BODY_CHARS ? `${pretty.slice(0, MAX_BODY_CHARS)}\n… (${pretty.length - MAX_BODY_CHARS} more characters; use --json for all of it)` : pretty
}
