import { readFile } from 'node:fs/promises'
import { createClient, isInvokeError, type ClientEvents, type InvokeResult, type ToolSet } from '@wildcall/sdk'
import { repairAttributes, responseAttributes, type GenAiAttributes } from '@wildcall/otel/attributes'
import { createAllAdapters } from './create-all-adapters'
import { createBrowserAgentTools, createDoctorMessages, MACRO_TOOL_NAME } from './create-browser-actions'
import { UsageError, type CliIo } from './cli-io'
import { ExitCode } from './exit-code'
import { describeAction, describeReflection } from './format-output'
import { loadAdapterModules, parseAdapterOptions } from './load-adapters'
import { loadTools } from './load-tools'
import { parseCommandArguments } from './parse-command-arguments'

export const REPAIR_HELP = `Usage: wildcall repair FILE|- [options]

Runs wildcall's response handling (finish classification, the matching adapters' fixes, the repair
layer, schema validation) on a SAVED response, offline, and prints the action and the fix codes.
For bug reports ("this is what the model sent") and for adapter authors.

FILE (or - for stdin) holds one of:
  - a whole chat-completions response (JSON with "choices"), or an error body ({"error": …})
  - just the assistant message (JSON with "content" and/or "tool_calls")
  - the model's raw text (anything that is not JSON is treated as the message content)
  - any of these as a JSON string (a response saved JSON-encoded)

Options:
  --tools FILE        the tool set: an OpenAI "tools" array, a request body with "tools" (e.g.
                      "request" of \`wildcall doctor --json\`), or { name: { description, parameters } }
                      with JSON Schema parameters. A macro tool's schema is unpacked into a macro tool.
                      Default: the built-in AgentOutput macro tool with 8 browser actions.
  --tool-choice NAME  the tool the request named in tool_choice (default: AgentOutput with the default
                      tools, or the only tool of --tools)
  --model NAME        run the adapters matching this model too (default: only the default adapter)
  --base-url URL      run the provider adapters matching this host too (e.g. https://openrouter.ai/api/v1)
  --adapter NAME|PATH also load the adapters a module exports: an installed package (resolved from
                      the current folder) or a built JavaScript file; they match before the bundled
                      ones. Repeat for several modules.
  --adapter-options JSON
                      the options the --adapter factories are called with, e.g. '{"reasoning":true}'
  --json              print one JSON result on stdout
  -h, --help          show this help

Exit codes: 0 a valid call (clean or repaired) · 1 unrepairable (the error type is printed) ·
2 usage error (missing or unreadable file, bad --tools).
`

const OFFLINE_BASE_URL = 'http://offline.invalid/v1'
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** What `wildcall repair --json` prints. */
export interface RepairReport {
  ok: boolean
  /** What the input was recognised as. */
  input: 'response' | 'message' | 'text'
  adapters: string[]
  fixes: string[]
  toolCall?: { name: string; args: unknown }
  action?: string
  error?: { type: string; message: string; retryable: boolean }
  /**
   * The same facts under the names `@wildcall/otel` gives them in spans: `wildcall.fix.codes`,
   * `wildcall.reader`, `gen_ai.tool.name`, `gen_ai.response.finish_reasons`, `error.type` …
   */
  attributes: GenAiAttributes
}

/** `wildcall repair`: the repair layer on a saved response. Resolves with the exit code. */
export async function runRepair(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArguments('repair', args, {
    tools: { type: 'string' },
    'tool-choice': { type: 'string' },
    model: { type: 'string' },
    'base-url': { type: 'string' },
    adapter: { type: 'string', multiple: true },
    'adapter-options': { type: 'string' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  })
  if (values.help) {
    io.stdout(REPAIR_HELP)
    return ExitCode.ok
  }
  if (positionals.length !== 1) throw new UsageError('repair: give exactly one FILE, or - to read standard input.')
  const file = positionals[0]!
  const text = file === '-' ? await io.readStdin() : await readInputFile(file)
  const { body, input } = toResponseBody(text)

  let tools: ToolSet
  let toolChoiceName: string | undefined
  if (values.tools) {
    tools = loadTools(parseJsonFile(await readInputFile(values.tools), values.tools), values.tools)
    const names = Object.keys(tools)
    toolChoiceName = values['tool-choice'] ?? (names.length === 1 ? names[0] : undefined)
  } else {
    tools = createBrowserAgentTools()
    toolChoiceName = values['tool-choice'] ?? MACRO_TOOL_NAME
  }
  if (toolChoiceName !== undefined && !Object.prototype.hasOwnProperty.call(tools, toolChoiceName)) {
    throw new UsageError(`repair: --tool-choice "${toolChoiceName}" is not one of the tools (${Object.keys(tools).join(', ')}).`)
  }

  // The saved body is served to the real invoke pipeline by a fetch that never touches the network,
  // so the result is exactly what the SDK would have returned for that response.
  const client = createClient({
    baseURL: values['base-url'] ?? OFFLINE_BASE_URL,
    model: values.model ?? 'unknown-model',
    maxRetries: 0,
    adapters: [...(await loadAdapterModules(values.adapter ?? [], 'repair', parseAdapterOptions(values['adapter-options'], 'repair'))), ...createAllAdapters()],
    customFetch: async () => new Response(body, { status: 200, headers: { 'content-type': 'application/json' } }),
  })
  let result: InvokeResult | undefined
  let report: RepairReport
  let answered: ClientEvents['response'] | undefined
  client.events.on('response', (event) => (answered = event))
  try {
    result = await client.invoke(createDoctorMessages(), tools, toolChoiceName === undefined ? {} : { toolChoiceName })
    report = {
      ok: true,
      input,
      adapters: result.adapters,
      fixes: result.fixes,
      toolCall: { name: result.toolCall.name, args: result.toolCall.args },
      action: describeAction(result.toolCall.args),
      attributes: { ...(answered ? responseAttributes(answered) : {}), ...repairAttributes(result.fixes), 'gen_ai.tool.name': result.toolCall.name },
    }
  } catch (error) {
    if (!isInvokeError(error)) throw error
    const attributes = { ...(answered ? responseAttributes(answered) : {}), 'error.type': error.type }
    report = { ok: false, input, adapters: [...client.adapters], fixes: [], error: { type: error.type, message: error.message, retryable: error.retryable }, attributes }
  }
  io.stdout(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatRepairReport(report))
  return report.ok ? ExitCode.ok : ExitCode.failure
}

async function readInputFile(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8')
  } catch (error) {
    const code = (error as { code?: string }).code
    throw new UsageError(`cannot read ${file}${code ? ` (${code})` : ''}.`)
  }
}

function parseJsonFile(text: string, file: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    throw new UsageError(`repair: ${file} is not JSON.`)
  }
}

/** A chat-completions body for whatever was saved: a response as is, a message or raw text wrapped. */
function toResponseBody(text: string): { body: string; input: RepairReport['input'] } {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return { body: wrapMessage({ role: 'assistant', content: text }), input: 'text' }
  }
  // A response saved as a JSON string (`jq .rawResponse` of an older report, a log line): the text it holds.
  if (typeof parsed === 'string') return toResponseBody(parsed)
  const first = Array.isArray(parsed) ? parsed[0] : parsed
  if (isObject(first) && ('choices' in first || 'error' in first)) return { body: text, input: 'response' }
  if (isObject(parsed) && isObject(parsed.message)) return { body: JSON.stringify({ choices: [{ index: 0, ...parsed }] }), input: 'message' }
  if (isObject(parsed) && ('content' in parsed || 'tool_calls' in parsed || 'function_call' in parsed || 'role' in parsed)) {
    return { body: wrapMessage(parsed), input: 'message' }
  }
  // Any other JSON (a bare call object, an array of calls) is what a model wrote as its content.
  return { body: wrapMessage({ role: 'assistant', content: text }), input: 'text' }
}

function wrapMessage(message: Record<string, unknown>): string {
  return JSON.stringify({ object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: null }] })
}

/** The human-readable result. */
export function formatRepairReport(report: RepairReport): string {
  const lines = [`Input: ${report.input === 'response' ? 'a chat-completions response' : report.input === 'message' ? 'an assistant message' : 'raw model text'}`]
  lines.push(`Adapters: ${report.adapters.join(', ') || 'none (pass --model or --base-url to run the ones that match)'}`)
  if (report.ok && report.toolCall) {
    lines.push(`Tool call: ${report.toolCall.name}`)
    for (const [key, value] of describeReflection(report.toolCall.args)) lines.push(`  ${key}: ${value}`)
    lines.push(`Action: ${report.action}`)
    lines.push(`Fixes: ${report.fixes.length === 0 ? 'none (the response was already valid)' : report.fixes.join(', ')}`)
  } else if (report.error) {
    lines.push(`Unrepairable: ${report.error.type} (retrying the model ${report.error.retryable ? 'may help' : 'will not help'})`)
    lines.push(`  ${report.error.message}`)
  }
  return `${lines.join('\n')}\n`
}
