import { describe, expect, it } from 'vitest'
import { parseDuration, parseRetryAfter } from './retry-after'

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0)

describe('parseDuration', () => {
  it.each([
    ['7.66s', 7_660],
    ['2m59.56s', 179_560],
    ['1h2m', 3_720_000],
    ['250ms', 250],
    ['6m0s', 360_000],
    ['20', 20_000],
    ['20 seconds', 20_000],
    ['1 minute 30 seconds', 90_000],
    ['0.5s', 500],
  ])('should read %j as %i ms', (text, expected) => {
    expect(parseDuration(text)).toBe(expected)
  })

  it.each(['', 'soon', '5 parsecs', '-3s', 's5', '1.2.3s', 'NaN'])('should reject %j', (text) => {
    expect(parseDuration(text)).toBeUndefined()
  })
})

describe('parseRetryAfter', () => {
  it('should ignore a message that is not text', () => {
    expect(parseRetryAfter(undefined, 5 as never, NOW)).toBeUndefined()
    expect(parseRetryAfter(new Headers({ 'retry-after': '2' }), { text: 'wait' } as never, NOW)).toBe(2000)
  })

  it('should prefer retry-after-ms over every other source', () => {
    const headers = new Headers({ 'retry-after-ms': '30', 'retry-after': '5', 'x-ratelimit-reset-requests': '9s' })
    expect(parseRetryAfter(headers, 'try again in 40s', NOW)).toBe(30)
  })

  it('should read Retry-After as seconds', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': '3' }), undefined, NOW)).toBe(3_000)
    expect(parseRetryAfter(new Headers({ 'retry-after': '1.5' }), undefined, NOW)).toBe(1_500)
  })

  it('should read Retry-After as an HTTP date relative to now', () => {
    const date = new Date(NOW + 7_000).toUTCString()
    expect(parseRetryAfter(new Headers({ 'retry-after': date }), undefined, NOW)).toBe(7_000)
  })

  it('should treat an HTTP date in the past as no wait', () => {
    const date = new Date(NOW - 60_000).toUTCString()
    expect(parseRetryAfter(new Headers({ 'retry-after': date }), undefined, NOW)).toBe(0)
  })

  it('should read the rate-limit reset headers in Go duration form', () => {
    expect(parseRetryAfter(new Headers({ 'x-ratelimit-reset-tokens': '7.66s' }), undefined, NOW)).toBe(7_660)
    expect(parseRetryAfter(new Headers({ 'x-ratelimit-reset-requests': '2m59.56s' }), undefined, NOW)).toBe(179_560)
    expect(parseRetryAfter(new Headers({ 'x-ratelimit-reset': '250ms' }), undefined, NOW)).toBe(250)
    expect(parseRetryAfter(new Headers({ 'x-ratelimit-reset': '12' }), undefined, NOW)).toBe(12_000)
  })

  it('should pick the reset of the limit that ran out', () => {
    const headers = new Headers({
      'x-ratelimit-reset-requests': '2m59.56s',
      'x-ratelimit-remaining-requests': '14',
      'x-ratelimit-reset-tokens': '7.66s',
      'x-ratelimit-remaining-tokens': '0',
    })
    expect(parseRetryAfter(headers, undefined, NOW)).toBe(7_660)
  })

  it('should take the longer reset when it cannot tell which limit ran out', () => {
    const headers = new Headers({ 'x-ratelimit-reset-requests': '1s', 'x-ratelimit-reset-tokens': '7.66s' })
    expect(parseRetryAfter(headers, undefined, NOW)).toBe(7_660)
  })

  it('should read an epoch x-ratelimit-reset (seconds or milliseconds)', () => {
    expect(parseRetryAfter(new Headers({ 'x-ratelimit-reset': String(NOW + 4_000) }), undefined, NOW)).toBe(4_000)
    expect(parseRetryAfter(new Headers({ 'x-ratelimit-reset': String((NOW + 9_000) / 1_000) }), undefined, NOW)).toBe(9_000)
  })

  it.each([
    ['Rate limit reached for gpt-4o. Please try again in 9.816s. Visit https://platform.openai.com', 9_816],
    ['Too many requests, retry after 20 seconds', 20_000],
    ['Please retry in 37.213571528s.', 37_214],
    ['Please try again in 1m30s.', 90_000],
    ['Please try again in 250ms.', 250],
    ['{"error":{"details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"41s"}]}}', 41_000],
  ])('should read the delay out of the message %j', (message, expected) => {
    expect(parseRetryAfter(new Headers(), message, NOW)).toBe(expected)
  })

  it('should fall through a malformed header to the next source', () => {
    const headers = new Headers({ 'retry-after-ms': 'soon', 'retry-after': 'tomorrow-ish', 'x-ratelimit-reset-tokens': '2s' })
    expect(parseRetryAfter(headers, undefined, NOW)).toBe(2_000)
  })

  it.each([
    [{ 'retry-after': 'soon' }],
    [{ 'retry-after': '-5' }],
    [{ 'retry-after-ms': 'NaN' }],
    [{ 'retry-after': '' }],
    [{ 'x-ratelimit-reset-tokens': 'a while' }],
    [{}],
  ])('should return undefined for %j (ordinary backoff applies)', (headers) => {
    expect(parseRetryAfter(new Headers(headers), 'Please try again later.', NOW)).toBeUndefined()
  })

  it('should accept a plain record of headers in any case', () => {
    expect(parseRetryAfter({ 'Retry-After': '2' }, undefined, NOW)).toBe(2_000)
    expect(parseRetryAfter({ 'RETRY-AFTER-MS': '15' }, undefined, NOW)).toBe(15)
    expect(parseRetryAfter(undefined, undefined, NOW)).toBeUndefined()
  })
})
