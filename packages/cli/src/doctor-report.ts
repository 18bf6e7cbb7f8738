import type { ChatRequest, ToolMode } from '@wildcall/sdk'
import type { GenAiAttributes } from '@wildcall/otel/attributes'
import type { JsonChange } from './diff-json'

/** The kinds of outcome a doctor run can have. */
export type DoctorOutcome = 'clean' | 'repaired' | 'error_retryable' | 'error_final' | 'unreachable'

/** The HTTP side of one request: status, timing, size and type of its body. */
export interface DoctorHttp {
  status: number
  durationMs: number
  bodyBytes: number
  contentType: string | null
}

/** One request doctor sent, and what it saw. */
export interface DoctorExchange {
  /** `native`: the tools in `tools`; `prompt`: the tools described in the system message. */
  tools: 'native' | 'prompt'
  /** Absent when no response came (connection refused, timeout). */
  http?: DoctorHttp
  rawResponse?: unknown
  /** How it failed, when it did (a refusal of tools included). */
  error?: { type: string; message: string }
}

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
  /**
   * What prompt mode changed in the body, after the adapters: the tools out of the request and into
   * the system message (empty when the request went out with its tools).
   */
  promptChanges: JsonChange[]
  /** The body sent (API key redacted). */
  request?: ChatRequest
  http?: DoctorHttp
  /** The response body as received, API key redacted: JSON as JSON (save it for `wildcall repair`), anything else as text. */
  rawResponse?: unknown
  /**
   * Every request sent, in order, and what each saw: in auto mode the native request the endpoint
   * refused, then the one in prompt mode; `http`, `rawResponse` and `request` are the last one's.
   */
  exchanges: DoctorExchange[]
  outcome: DoctorOutcome
  fixes: string[]
  toolCall?: { name: string; args: unknown }
  /**
   * How tools reached the model: the `--tool-mode`; what the endpoint did with tools sent natively
   * (`unknown` when no answer said: nothing answered, or only errors such as a 429); then whether
   * prompt mode gave a valid call (`unknown` when it got no answer; absent when not needed).
   */
  tools: {
    mode: ToolMode
    native: 'accepted' | 'refused' | 'unknown' | 'not sent'
    refused: boolean
    promptMode?: 'works' | 'fails' | 'unknown'
    verdict: string
  }
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
