/**
 * Kimi K3's token markup: every tag is `<|open|>NAME attributes<|sep|>` … `<|close|>NAME<|sep|>`, with no
 * whitespace anywhere: `<|open|>call tool="N" index="1"<|sep|>`, then per argument
 * `<|open|>argument key="K" type="T"<|sep|>V<|close|>argument<|sep|>` (or all of them as one
 * `<|open|>json type="object"<|sep|>{…}<|close|>json<|sep|>`), then `<|close|>call<|sep|>`.
 *
 * Text rules (the `Kimi-K3.jinja` template): an argument's value is exactly the text between its
 * tokens, nothing escaped and no layout; `type="string"` makes it the string itself, any other type
 * (`number`, `boolean`, `null`, `object`, `array`) JSON — text that is not JSON is typed by the field's
 * schema. Attribute values decode `&amp;` and `&quot;`. A call the text ends inside (before
 * `<|close|>call<|sep|>`) is cut off, never a call.
 */
import { decodeArgument, decodeXmlReferences } from './decode-value'
import { parseLenientJson } from './lenient-json'
import { MAX_CALLS, addFound, cleanToolName, setOwn } from './markup-shared'
import type { ExtractionContext } from './markup-shared'
import { readAttributes } from './markup-xml'

const OPEN = '<|open|>'
const SEP = '<|sep|>'
const CALL = `${OPEN}call `
const END = `<|close|>call${SEP}`

/** The tag `<|open|>KIND attributes<|sep|>` at `at`: its kind, attributes and end; undefined when it has no `<|sep|>` near. */
function readHead(text: string, at: number): { kind: string; attributes: Record<string, string>; end: number } | undefined {
  const end = text.slice(at, at + 600).indexOf(SEP)
  if (end < 0) return undefined
  const head = text.slice(at + OPEN.length, at + end)
  return { kind: head.split(' ', 1)[0]!, attributes: readAttributes(head), end: at + end + SEP.length }
}

/** JSON as written, else undefined. */
function json(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown }
  } catch {
    return undefined
  }
}

/** Finds `<|open|>call tool="N" …<|sep|>…<|close|>call<|sep|>` calls. */
export function recognizeKimiK3Calls(context: ExtractionContext): void {
  const { text } = context
  for (let at = text.indexOf(CALL); at >= 0 && context.found.length < MAX_CALLS; at = text.indexOf(CALL, at + 1)) {
    let part = readHead(text, at)
    const name = part && cleanToolName(decodeXmlReferences(part.attributes.tool ?? ''))
    if (!part || !name) {
      if (!part && at + 600 > text.length) context.truncated = true
      continue
    }
    const args: Record<string, unknown> = {}
    const fixes: string[] = []
    let value: unknown = args
    let cursor = part.end
    let cut = false
    while (!text.startsWith(END, cursor)) {
      part = text.startsWith(OPEN, cursor) ? readHead(text, cursor) : undefined
      const close = part ? text.indexOf(`<|close|>${part.kind}${SEP}`, part.end) : -1
      if (close < 0) {
        // The text ends inside the call (a value never closed, no tag after the last one): cut off.
        cut = part !== undefined || !text.includes(SEP, cursor)
        break
      }
      const raw = text.slice(part!.end, close)
      const type = part!.attributes.type
      if (part!.kind === 'json') value = parseLenientJson(raw)?.value
      else {
        const key = decodeXmlReferences(part!.attributes.key ?? '')
        const typed = type === 'string' ? { value: raw } : type ? json(raw) : undefined
        setOwn(args, key, typed ? typed.value : decodeArgument(context, name, key, raw, fixes))
      }
      cursor = close + part!.kind.length + 9 + SEP.length
    }
    if (cut) {
      context.truncated = true
      return
    }
    if (!text.startsWith(END, cursor)) continue
    const end = cursor + END.length
    addFound(context, { name, args: value, format: 'tool-markup:kimi-k3', fixes, start: at }, end)
    at = end - 1
  }
}
