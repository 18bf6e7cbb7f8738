import { trimEndOf } from '../text/trim-end-of'

/**
 * Headers as `fetch` gives them, or a plain record (adapters and tests).
 *
 * @example
 * ```ts
 * parseRetryAfter({ 'x-ratelimit-reset-tokens': '1m30s', 'x-ratelimit-remaining-tokens': '0' }) // 90000
 * parseRetryAfter(response.headers) // a fetch Headers works the same
 * ```
 */
export type HeadersLike = Headers | Readonly<Record<string, string | readonly string[] | undefined>>

// Each unit's spellings, in one group per unit; the group that matched gives its length in ms.
const UNITS = /^(?:(ms|msecs?|millis(?:econds?)?)|(s|secs?|seconds?)|(m|mins?|minutes?)|(h|hrs?|hours?)|(d|days?))$/
const UNIT_MS = [1, 1_000, 60_000, 3_600_000, 86_400_000]

const DURATION_PART = /(\d+(?:\.\d+)?)\s*([a-z]+)/gy
const NUMBER = /^\d+(?:\.\d+)?$/

/**
 * Parses a Go-style or spoken duration into milliseconds: `7.66s`, `2m59.56s`, `1h2m`, `250ms`,
 * `20 seconds`, `1 minute 30 seconds`. A bare number is seconds. Anything else is `undefined`.
 *
 * @example
 * ```ts
 * parseDuration('2m59.56s') // 179560
 * ```
 */
export function parseDuration(text: string): number | undefined {
  const value = text.trim().toLowerCase()
  if (value === '') return undefined
  if (NUMBER.test(value)) return Number(value) * 1_000
  let total = 0
  let index = 0
  DURATION_PART.lastIndex = 0
  while (index < value.length) {
    DURATION_PART.lastIndex = index
    const part = DURATION_PART.exec(value)
    if (!part) return undefined
    const unit = UNITS.exec(part[2]!)?.findIndex((group, index) => index > 0 && group !== undefined)
    if (!unit) return undefined
    total += Number(part[1]) * UNIT_MS[unit - 1]!
    index = DURATION_PART.lastIndex
    while (value[index] === ' ' || value[index] === ',') index++
  }
  return total
}

function readHeader(headers: HeadersLike | undefined, name: string): string | undefined {
  if (!headers) return undefined
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined
  const record = headers as Record<string, string | readonly string[] | undefined>
  for (const key of Object.keys(record)) {
    if (key.toLowerCase() !== name) continue
    const value = record[key]
    return Array.isArray(value) ? value[0] : (value as string | undefined)
  }
  return undefined
}

const toDelay = (ms: number | undefined): number | undefined => (ms !== undefined && Number.isFinite(ms) && ms >= 0 ? Math.ceil(ms) : undefined)

// HTTP dates (`Wed, 21 Oct 2015 07:28:00 GMT`) and ISO timestamps; a lone number is never a date.
function parseDate(value: string, now: number): number | undefined {
  if (!/\d{1,2}:\d{2}/.test(value) || !/\d{4}/.test(value)) return undefined
  const time = Date.parse(value)
  return Number.isNaN(time) ? undefined : Math.max(0, time - now)
}

function parseRetryAfterHeader(value: string, now: number): number | undefined {
  const trimmed = value.trim()
  return NUMBER.test(trimmed) ? Number(trimmed) * 1_000 : parseDate(trimmed, now)
}

// `x-ratelimit-reset` is a duration for most providers, but some send an epoch (seconds or ms).
function parseResetHeader(value: string, now: number): number | undefined {
  const trimmed = value.trim()
  if (NUMBER.test(trimmed)) {
    const number = Number(trimmed)
    if (number >= 1e12) return Math.max(0, number - now)
    if (number >= 1e9) return Math.max(0, number * 1_000 - now)
    return number * 1_000
  }
  return parseDuration(trimmed) ?? parseDate(trimmed, now)
}

/** The reset delay of the limit that ran out: the one whose `remaining` is 0, else the longest. */
function parseResetHeaders(headers: HeadersLike | undefined, now: number): number | undefined {
  const delays: number[] = []
  for (const limit of ['requests', 'tokens']) {
    const reset = readHeader(headers, `x-ratelimit-reset-${limit}`)
    const delay = reset === undefined ? undefined : toDelay(parseResetHeader(reset, now))
    if (delay === undefined) continue
    if (readHeader(headers, `x-ratelimit-remaining-${limit}`)?.trim() === '0') return delay
    delays.push(delay)
  }
  if (delays.length > 0) return Math.max(...delays)
  const reset = readHeader(headers, 'x-ratelimit-reset')
  return reset === undefined ? undefined : toDelay(parseResetHeader(reset, now))
}

// "Please try again in 9.816s", "retry after 20 seconds", "Please retry in 37.2s", "Resets in 16 days", and Google's
// RetryInfo `"retryDelay": "37s"` when the whole body is given as the message.
const MESSAGE_PATTERNS = [
  /(?:(?:try|retry)(?:\s+again)?|resets?)\s+(?:in|after)\s+((?:\d+(?:\.\d+)?\s*[a-z]+[\s,]*)+|\d+(?:\.\d+)?)/i,
  /"retryDelay"\s*:\s*"([^"]{1,32})"/i,
]

/**
 * How long the server asks the client to wait before retrying, in milliseconds, or `undefined`
 * when it does not say (or says it in a form that cannot be read: ordinary backoff applies then).
 * Reads, in order: `retry-after-ms`, `Retry-After` (seconds or an HTTP date),
 * `x-ratelimit-reset-requests` / `-tokens` / `x-ratelimit-reset` (`7.66s`, `2m59.56s`, `1h2m`,
 * `250ms`, seconds), then "try again in 9.816s" / "retry after 20 seconds" in `message`.
 *
 * @example
 * ```ts
 * parseRetryAfter(new Headers({ 'retry-after': '3' })) // 3000
 * parseRetryAfter(undefined, 'Rate limit reached. Please try again in 9.816s.') // 9816
 * ```
 */
export function parseRetryAfter(headers: HeadersLike | undefined, message?: string, now: number = Date.now()): number | undefined {
  const milliseconds = readHeader(headers, 'retry-after-ms')?.trim()
  if (milliseconds !== undefined && NUMBER.test(milliseconds)) return toDelay(Number(milliseconds))
  const retryAfter = readHeader(headers, 'retry-after')
  const fromRetryAfter = retryAfter === undefined ? undefined : toDelay(parseRetryAfterHeader(retryAfter, now))
  if (fromRetryAfter !== undefined) return fromRetryAfter
  const fromReset = parseResetHeaders(headers, now)
  if (fromReset !== undefined) return fromReset
  if (!message || typeof message !== 'string') return undefined
  for (const pattern of MESSAGE_PATTERNS) {
    const found = pattern.exec(message.slice(0, 20_000))
    const delay = found ? toDelay(parseDuration(trimEndOf(found[1]!, /[\s,.]/))) : undefined
    if (delay !== undefined) return delay
  }
  return undefined
}
