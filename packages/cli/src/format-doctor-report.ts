import { formatChanges } from './diff-json'
import type { DoctorReport } from './doctor-report'
import { describeAction, indent } from './format-output'

/** The human-readable report. */
export function formatDoctorReport(report: DoctorReport): string {
  const lines: string[] = []
  lines.push(`wildcall doctor — ${report.baseURL} · model ${report.model}${report.stream ? ' · stream' : ''}`, '')
  lines.push(`Adapters matched (patch order): ${report.adapters.join(', ') || `none${report.promptChanges.length > 0 ? '' : ' (the request goes out as built)'}`}`)
  for (const patch of report.patches) {
    lines.push(patch.changes.length === 0 ? `  ${patch.adapter}: no change` : `  ${patch.adapter}: ${patch.changes.length} change(s)`)
    lines.push(...formatChanges(patch.changes).map((line) => `      ${line}`))
  }
  if (report.promptChanges.length > 0) {
    lines.push(`Prompt mode (the tools described in the system message, after the adapters): ${report.promptChanges.length} change(s)`)
    lines.push(...formatChanges(report.promptChanges).map((line) => `      ${line}`))
  }
  lines.push('', `Request diff (built by wildcall → sent after adapters${report.promptChanges.length > 0 ? ' and prompt mode' : ''}): ${report.requestDiff.length === 0 ? 'no change' : `${report.requestDiff.length} change(s)`}`)
  lines.push(...formatChanges(report.requestDiff).map((line) => `  ${line}`))
  lines.push('')
  // An earlier request of the call (auto mode: the native one the endpoint refused) before the one reported.
  // (In native mode the report is the first request's; a prompt-mode try after it is the Tools line's.)
  const earlier = report.exchanges.slice(0, report.tools.mode === 'native' ? 0 : -1)
  for (const [index, exchange] of earlier.entries()) {
    lines.push(`Request ${index + 1} (tools ${exchange.tools === 'native' ? 'sent natively' : 'in the prompt'}): ${exchange.http ? `HTTP ${exchange.http.status} in ${exchange.http.durationMs} ms` : 'no response'}${exchange.error ? ` — ${exchange.error.type}` : ''}`)
    if (exchange.rawResponse !== undefined) lines.push(indent(prettyBody(exchange.rawResponse), '  '))
    lines.push('')
  }
  if (earlier.length > 0) lines.push(`Request ${earlier.length + 1} (tools ${report.request?.tools ? 'sent natively' : 'in the prompt'}):`)
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

function prettyBody(body: unknown): string {
  const pretty = typeof body === 'string' ? body : JSON.stringify(body, null, 2)
  return pretty.length > MAX_BODY_CHARS ? `${pretty.slice(0, MAX_BODY_CHARS)}\n… (${pretty.length - MAX_BODY_CHARS} more characters; use --json for all of it)` : pretty
}
