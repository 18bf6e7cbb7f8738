/**
 * What is layout and what is value in the text between an XML-ish value's tags, as the chat templates
 * write it (each reader's JSDoc says which layout its formats use):
 * - {@link ON_OWN_LINE} (Qwen3-Coder / Qwen3 XML / Nemotron 3 `<parameter=K>\nV\n</parameter>`, and XML-ish
 *   elements with no template to follow): the `\n` after the opening tag and the `\n` before the closing
 *   tag are layout; in a pretty-printed call (the closing tag indented), that indentation after the last
 *   `\n` is layout too, and a value on one line loses the same indentation at its start. Every other
 *   newline, space or indentation is part of the value: a code block keeps its trailing newline and its
 *   inner indentation.
 * - {@link EXACT}: the value is exactly the text between the tags.
 * - In both, XML character references (`&lt; &gt; &amp; &quot; &apos; &#39; &#x3C;`) are decoded, a `&`
 *   or `<` that starts no reference or tag is kept, and a `<![CDATA[…]]>` section is its content as
 *   written — references and what would close a tag (`</param>`) included.
 */
import { decodeXmlReferences } from './decode-xml-references'
import { CDATA } from './xml-tags'

/** How a format lays a value out between its tags (see the module comment). */
export interface ValueLayout {
  /** One `\n` right after the opening tag and one right before the closing tag are layout. */
  newlines: boolean
}

/** The value is exactly the text between the tags. */
export const EXACT: ValueLayout = { newlines: false }
/** The value sits on its own line between the tags (Qwen3 XML). */
export const ON_OWN_LINE: ValueLayout = { newlines: true }

/**
 * The text of a value: layout dropped, CDATA sections kept as written, references decoded outside them.
 * With `newlines`, one `\n` after the opening tag is layout, and so is the last line break when only the
 * closing tag's indentation follows it; a value on one line then loses that same indentation too (a
 * pretty-printed call indents it to the tag's depth). What else the value holds is its own.
 */
export function valueText(raw: string, layout: ValueLayout): string {
  let text = raw
  if (layout.newlines) {
    if (text.charCodeAt(0) === 10) text = text.slice(1)
    const lineBreak = text.lastIndexOf('\n')
    const indent = text.slice(lineBreak + 1)
    if (lineBreak >= 0 && !indent.trim()) {
      text = text.slice(0, lineBreak)
      if (!text.includes('\n') && text.startsWith(indent)) text = text.slice(indent.length)
    }
  }
  // A CDATA section protects markup inside a value; its content is part of the value, as written.
  let value = ''
  for (let at = 0; ; ) {
    const open = text.indexOf(CDATA, at)
    const close = open < 0 ? -1 : text.indexOf(']]>', open)
    if (close < 0) return value + decodeXmlReferences(text.slice(at))
    value += decodeXmlReferences(text.slice(at, open)) + text.slice(open + 9, close)
    at = close + 3
  }
}
