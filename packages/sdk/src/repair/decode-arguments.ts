/**
 * Argument text as a value: JSON parsed (leniently when needed, any number of times), `key=value`
 * text as an object of the tool's fields. Used by every stage that meets argument text: the decoding
 * of a candidate's arguments, each envelope layer opened, and a tool's input shaped by its schema.
 */
import { pushFix } from './coerce'
import { isTruncatedJson, parseKeyValueText, parseLenientJson } from './lenient-json'

export type Decoded = { value: unknown } | { unclosed: true } | { unparseable: string }

/**
 * Arguments as a value: JSON text parsed (leniently when needed, any number of times), empty as `{}`.
 * With `fields` (the named tool's, looked up only when needed), text that is no JSON — `"down=true"`,
 * `"index: 3, text: hi"` — becomes an object when every key is one of them.
 */
export function decodeArguments(raw: unknown, fixes: string[], fields?: () => ReadonlySet<string>): Decoded {
  if (raw === undefined || raw === null) {
    pushFix(fixes, 'empty-arguments')
    return { value: {} }
  }
  if (typeof raw !== 'string') return { value: raw }
  let text = raw.trim()
  if (text === '' || text === 'null' || text === 'None') {
    pushFix(fixes, 'empty-arguments')
    return { value: {} }
  }
  let value: unknown
  for (let round = 0; round < 8; round++) {
    let parsed: unknown
    let ok = true
    try {
      parsed = JSON.parse(text)
    } catch {
      ok = false
    }
    if (!ok) {
      const lenient = parseLenientJson(text)
      if (lenient === undefined) {
        if (round > 0) return { value: text }
        return isTruncatedJson(text) ? { unclosed: true } : argumentPairs(text, fields, fixes)
      }
      for (const code of lenient.fixes) pushFix(fixes, code)
      parsed = lenient.value
    }
    value = parsed
    if (typeof parsed !== 'string') break
    const inner = parsed.trim()
    const first = inner.charCodeAt(0)
    // Another layer only when the string itself holds JSON; otherwise it is a bare value.
    if (first !== 123 && first !== 91 && first !== 34) break
    pushFix(fixes, 'double-encoded-arguments')
    text = inner
  }
  return { value }
}

/** Text that is no JSON as an object of `fields` (`argument-pairs`), else unparseable. */
function argumentPairs(text: string, fields: (() => ReadonlySet<string>) | undefined, fixes: string[]): Decoded {
  const pairs = fields && parseKeyValueText(text, fields())
  if (!pairs) return { unparseable: text }
  pushFix(fixes, 'argument-pairs')
  return { value: pairs }
}
