import { writeFile } from 'node:fs/promises'
import { isInvokeError, probeEndpoint, type Adapter, type ProbeReport } from '@wildcall/sdk'
import { UsageError, type CliIo } from './cli-io'
import { ExitCode } from './exit-code'

/** What `wildcall doctor --probe` needs. */
export interface ProbeInput {
  baseURL: string
  model: string
  apiKey: string | undefined
  timeoutMs: number
  adapters: Adapter[]
  /** Where to write the profile (`--profile out.json`). */
  profilePath: string | undefined
  json: boolean
}

/**
 * What a probe's report means, in sentences: the `tool_choice` form taken, the history rules, the
 * reasoning seen, streaming, a model that spent `max_tokens` thinking, and an endpoint that refused
 * nothing (a server that answers 200 to anything looks the same: nothing is guessed).
 *
 * @example
 * ```ts
 * describeProbe(await probeEndpoint({ baseURL, model })).forEach((line) => console.log(line))
 * ```
 */
export function describeProbe(report: ProbeReport): string[] {
  const { profile, steps, reasoningFields } = report
  const lines: string[] = []
  const [choice, second, stream] = steps
  const requests = steps.flatMap((step) => step.requests)
  if (profile.toolMode === 'prompt') {
    const refusal = requests.find((request) => request.error && request.status !== undefined)
    lines.push(`Tools: refused natively${refusal ? ` (HTTP ${refusal.status}, ${refusal.error!.type})` : ''}; ${choice?.ok ? 'the tools described in the prompt were taken' : 'prompt mode was tried'}, so the profile says toolMode 'prompt'.`)
  }
  if (choice?.ok) lines.push(`tool_choice: ${profile.toolMode === 'prompt' ? 'not sent (prompt mode sends no tools)' : profile.toolChoice === 'auto' ? 'none is taken (the prompt asks for the call)' : `${profile.toolChoice ?? 'a named tool'} is taken`}.`)
  else lines.push(`The first request failed (${choice?.error?.type}): ${choice?.error?.message}`)
  if (steps.some((step) => step.error?.type === 'output_truncated')) {
    lines.push(`The model spent its ${report.maxTokens} max_tokens before writing a call: it reasons first. Give it a larger maxTokens; the request forms it was sent were still taken.`)
  }
  if (steps.some((step) => step.error?.type === 'no_tool_call')) lines.push('It answered without a tool call: the endpoint may ignore tools or tool_choice.')
  for (const field of profile.fields) lines.push(field.rename ? `Request: ${field.field} is sent as ${field.rename}.` : `Request: ${field.field} is refused, not sent.`)
  for (const [field, rule] of Object.entries(profile.messageFields)) lines.push(`History: ${field} must ${rule === 'echo' ? 'be sent back' : 'not be sent'}.`)
  if (reasoningFields.length > 0) lines.push(`It returns reasoning in ${reasoningFields.join(', ')}.`)
  if (second?.ok && Object.keys(profile.messageFields).length === 0 && reasoningFields.length > 0) lines.push('It takes a history without the reasoning.')
  if (stream) lines.push(stream.ok ? 'Streaming works.' : `Streaming failed (${stream.error?.type}).`)
  if (!steps.some((step) => step.ok)) {
    const statuses = [...new Set(requests.flatMap(({ status }) => (status === undefined ? [] : [`HTTP ${status}`])))]
    lines.push(`${statuses.length > 0 ? `No request was taken (${statuses.join(', ')})` : 'Nothing answered'}, so nothing was learnt: the profile below is empty.`)
  }
  if (steps.some((step) => step.ok)) lines.push(`Constrained decoding: ${report.constrained ? `${report.constrained === 'strict' ? 'strict tools are' : 'response_format is'} taken.` : 'none sent.'}`)
  // Only when every request was taken: a refusal the client adapted to is something learnt.
  if (choice?.ok && requests.every((request) => !request.error || request.status === undefined || request.status < 400)) {
    lines.push('Nothing was refused, so nothing was learnt: the endpoint took every form it was sent (a server that answers 200 to anything looks the same).')
  }
  return lines
}

/** `wildcall doctor --probe`: the bounded probe, printed, and its profile written where asked. */
export async function runProbe(input: ProbeInput, io: CliIo): Promise<number> {
  let report: ProbeReport
  try {
    report = await probeEndpoint({ baseURL: input.baseURL, model: input.model, ...(input.apiKey ? { apiKey: input.apiKey } : {}), timeoutMs: input.timeoutMs, adapters: input.adapters })
  } catch (error) {
    if (isInvokeError(error) && error.type === 'config_error') throw new UsageError(`doctor: ${error.message}`)
    throw error
  }
  const conclusions = describeProbe(report)
  if (input.profilePath) await writeFile(input.profilePath, `${JSON.stringify(report.profile, null, 2)}\n`)
  if (input.json) io.stdout(`${JSON.stringify({ ...report, conclusions }, null, 2)}\n`)
  else {
    const steps = report.steps.map((step) =>
      [
        `  ${step.name}: ${step.ok ? 'taken' : 'failed'}${step.error ? ` (${step.error.type})` : ''}${step.fixes.length > 0 ? ` · ${step.fixes.join(', ')}` : ''}`,
        ...step.requests.map(({ status, error }) => `    ${status === undefined ? 'no response' : `HTTP ${status}`}${error ? ` ${error.type}: ${error.message}` : ''}`),
      ].join('\n'),
    )
    const saved = input.profilePath ? `Profile written to ${input.profilePath}.\n` : ''
    io.stdout(`Probe of ${input.model} at ${input.baseURL}: ${report.requests} requests\n${steps.join('\n')}\n\n${conclusions.join('\n')}\n\nProfile (pass it as createClient({ profile })):\n${JSON.stringify(report.profile, null, 2)}\n${saved}`)
  }
  return report.steps.some((step) => step.ok) ? ExitCode.ok : ExitCode.failure
}
