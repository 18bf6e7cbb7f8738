import type { Reader, ReaderCall, ReaderPreview } from '@wildcall/sdk'

const OPEN = '<<call:'
const CLOSE = '<</call>>'
// `<<call:NAME>>`: a bounded name, so a flood of openers costs linear time.
const OPENER = /<<call:([\w.-]{1,64})>>/g

/** `@key value` lines into a record: each value is the rest of its line, text for the schema to type. */
function readFields(body: string): Record<string, string> | undefined {
  const fields: Record<string, string> = {}
  for (const line of body.split('\n')) {
    const trimmed = line.trim()
    if (trimmed === '') continue
    const match = /^@([\w-]+)(?: (.*))?$/.exec(trimmed)
    // A line that is not a field means this is not Acme's field form: read nothing rather than guess.
    if (!match) return undefined
    Object.defineProperty(fields, match[1]!, { value: match[2] ?? '', enumerable: true, writable: true, configurable: true })
  }
  return fields
}

/**
 * Reads the (made-up) Acme markup. A call opens with `<<call:NAME>>` and closes with `<</call>>`;
 * between them either JSON arguments or one `@key value` line per field:
 *
 * ```
 * <<call:input_text>>
 * @index 3
 * @text acme anvils
 * <</call>>
 * ```
 *
 * Field values stay text (`'3'`): the SDK's schema-guided coercion types them. JSON bodies are
 * handed over as written, for the SDK's lenient JSON decoding. A call without its closer is cut
 * off: it is reported `truncated`, and never executed. While a call in the field form streams, the
 * reader's `preview` shows the fields written so far.
 *
 * @example
 * ```ts
 * const client = createClient({ baseURL, model: 'house-model', readers: [acmeReader] })
 * ```
 */
export const acmeReader: Reader = {
  name: 'acme',
  formats: ['tool-markup:acme'],
  read(text, context) {
    const calls: ReaderCall[] = []
    if (!text.includes(OPEN)) return calls
    OPENER.lastIndex = 0
    for (let match = OPENER.exec(text); match; match = OPENER.exec(text)) {
      const start = match.index
      const bodyStart = start + match[0].length
      const close = text.indexOf(CLOSE, bodyStart)
      if (close < 0) {
        calls.push({ name: match[1], args: undefined, format: 'tool-markup:acme', fixes: [], start, end: text.length, truncated: true })
        break
      }
      const end = close + CLOSE.length
      OPENER.lastIndex = end
      if (context.claimed(start, end)) continue
      const body = text.slice(bodyStart, close).trim()
      const args = body === '' ? {} : body.startsWith('{') ? body : readFields(body)
      if (args !== undefined) calls.push({ name: match[1], args, format: 'tool-markup:acme', fixes: [], start, end })
    }
    return calls
  },
  preview(from) {
    // `scan` reads whole lines once each; the line still being written is read by `read`, which the
    // stream calls less and less often as the text grows, so the total stays linear.
    let cursor = from
    let inCall = false
    const closed: Record<string, string> = {}
    const preview: ReaderPreview = {
      start: -1,
      scan(content) {
        let lineEnd = content.indexOf('\n', cursor)
        while (lineEnd >= 0) {
          const line = content.slice(cursor, lineEnd).trim()
          const opener = /^<<call:([\w.-]{1,64})>>$/.exec(line)
          if (!inCall && opener) {
            inCall = true
            preview.name = opener[1]
          } else if (inCall && line === CLOSE) {
            inCall = false
          } else if (inCall) {
            const field = /^@([\w-]+)(?: (.*))?$/.exec(line)
            if (field) {
              if (preview.start < 0) preview.start = cursor
              Object.defineProperty(closed, field[1]!, { value: field[2] ?? '', enumerable: true, writable: true, configurable: true })
            }
          }
          cursor = lineEnd + 1
          lineEnd = content.indexOf('\n', cursor)
        }
        if (inCall && preview.start < 0 && content.startsWith('@', cursor)) preview.start = cursor
      },
      read(content) {
        const args: Record<string, unknown> = { ...closed }
        const open = inCall ? /^@([\w-]+) (.+)$/.exec(content.slice(cursor)) : null
        if (open) Object.defineProperty(args, open[1]!, { value: open[2], enumerable: true, writable: true, configurable: true })
        return args
      },
    }
    return preview
  },
}
