import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { collectSecrets, redact } from './redact'

describe('redact', () => {
  it('should replace every occurrence of each secret, whatever characters it starts with', () => {
    for (const secret of ['sk-bench-key', 'abcdefghij', 'abcdefgh1', 'Bearer0123', 'lower-Case9', 'sk-proj-Xa81bQz0LmN3vT7w']) {
      const secrets = collectSecrets(secret)
      const text = `{"a":"${secret}","b":"x${secret}${secret}y","c":"${secret.slice(0, -1)}"}`
      expect(redact(text, secrets)).toBe(`{"a":"[REDACTED]","b":"x[REDACTED][REDACTED]y","c":"${secret.slice(0, -1)}"}`)
      expect(redact(text.replaceAll(secret, secret.slice(1)), secrets)).toBe(text.replaceAll(secret, secret.slice(1)))
    }
  })

  it('should find a secret wherever it is, with its anchor or its start repeated around it', () => {
    // The anchor of `sk-Q…` is `-Q…`: texts full of `-`, `s`, `k` and near-misses must still give every copy.
    const secret = 'sk-Qz81-bench'
    const secrets = collectSecrets(secret, { authorization: `Bearer ${secret}` })
    const noise = fc.array(fc.constantFrom('s', 'k', '-', 'Q', 'z', '8', '1', 'sk-', '-Q', 'sk-Qz8', '"', ' '), { maxLength: 40 }).map((pieces) => pieces.join(''))
    fc.assert(
      fc.property(fc.array(noise, { minLength: 1, maxLength: 5 }), (parts) => {
        // No part can spell the secret (no `b` in them): exactly the copies put between them go.
        expect(redact(parts.join(secret), secrets)).toBe(parts.join('[REDACTED]'))
      }),
    )
  })

  it('should leave a text without secrets as the same string, and work with no secrets at all', () => {
    const text = '{"model":"gpt-4.1-mini","messages":[{"role":"user","content":"sk- is how keys start"}]}'
    expect(redact(text, collectSecrets('sk-live-0123456789'))).toBe(text)
    expect(redact(text, [])).toBe(text)
  })
})
