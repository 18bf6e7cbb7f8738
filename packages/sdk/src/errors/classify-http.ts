import { InvokeError, type InvokeErrorType } from './invoke-error'

/**
 * Classifies a failed HTTP response (or a 2xx carrying `{ error }`) into an {@link InvokeError}.
 * `bodyText` must already be redacted.
 */
export function classifyHttpError(status: number, headers: Headers, bodyText: string, body: unknown): InvokeError {
  const type: InvokeErrorType =
    status === 401 || status === 403 ? 'auth_error'
    : status === 402 ? 'quota_exceeded'
    : status === 404 ? 'model_not_found'
    : status === 429 ? 'rate_limit'
    : status >= 500 ? 'server_error'
    : status >= 400 ? 'bad_request'
    : 'invalid_schema'
  return new InvokeError(type, `HTTP ${status}: ${bodyText.slice(0, 300)}`, { status, rawResponse: body ?? bodyText })
}
