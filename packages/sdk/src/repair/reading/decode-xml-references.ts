/** XML character references, as the XML-ish markup formats and HTML error pages write them. */

const NAMED_REFERENCES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }
// Anchored on `&`, bounded, no nested quantifiers: one linear pass.
const REFERENCE = /&(?:(lt|gt|amp|quot|apos)|#(\d{1,7})|#[xX]([\da-fA-F]{1,6}));/g

/**
 * XML character references decoded: `&lt; &gt; &amp; &quot; &apos;`, `&#39;`, `&#x3C;`. A `&` that
 * starts no reference stays as written; a decoded `&` never starts another one.
 *
 * @example
 * ```ts
 * decodeXmlReferences('a &lt; b &amp; c & d') // 'a < b & c & d'
 * ```
 */
export function decodeXmlReferences(text: string): string {
  if (!text.includes('&')) return text
  return text.replace(REFERENCE, (reference, name: string | undefined, decimal: string | undefined, hex: string | undefined) => {
    if (name) return NAMED_REFERENCES[name]!
    const code = decimal ? Number(decimal) : Number.parseInt(hex!, 16)
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : reference
  })
}
