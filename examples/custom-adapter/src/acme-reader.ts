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
    // Each pushed piece is read once: whole lines as they complete, and the line still being
    // written is kept (`line`) and read by `read`, so the total work stays linear.
    let lineStart = from
    let line = ''
    let inCall = false
    const closed: Record<string, string> = {}
    const setField = (target: Record<string, unknown>, key: string, value: string) =>
      Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
    const preview: ReaderPreview = {
      start: -1,
      push(piece) {
        let cursor = 0
        let lineEnd = piece.indexOf('\n')
        while (lineEnd >= 0) {
          const whole = (line + piece.slice(cursor, lineEnd)).trim()
          const opener = /^<<call:([\w.-]{1,64})>>$/.exec(whole)
          if (!inCall && opener) {
            inCall = true
            preview.name = opener[1]
          } else if (inCall && whole === CLOSE) {
            inCall = false
          } else if (inCall) {
            const field = /^@([\w-]+)(?: (.*))?$/.exec(whole)
            if (field) {
              if (preview.start < 0) preview.start = lineStart
              setField(closed, field[1]!, field[2] ?? '')
            }
          }
          lineStart += line.length + (lineEnd - cursor) + 1
          line = ''
          cursor = lineEnd + 1
          lineEnd = piece.indexOf('\n', cursor)
        }
        line += piece.slice(cursor)
        if (inCall && preview.start < 0 && line.startsWith('@')) preview.start = lineStart
      },
      read() {
        const args: Record<string, unknown> = { ...closed }
        const open = inCall ? /^@([\w-]+) (.+)$/.exec(line) : null
        if (open) setField(args, open[1]!, open[2]!)
        return args
      },
    }
    return preview
  },
}
