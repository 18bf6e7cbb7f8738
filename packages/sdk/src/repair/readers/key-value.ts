/**
 * A known tool or action name followed by `key = value` pairs: a TOML-ish table (`[scroll]` then
 * `down = true` lines, `tool-markup:toml`) or one command-like line (`scroll down=true num_pages=2`,
 * `tool-markup:key-value`). Nothing else marks these as calls, so a reading is taken only when every
 * key is a field of that tool's schema. Each value's text (a quoted value without its quotes) is typed by
 * the field's schema through `decodeArgument`: `note=None` is null only where `note` admits null.
 */
import { trimEndOf } from '../../text/trim-end-of'
import { parseKeyValueText } from '../lenient-json'
import { cleanToolName } from '../match-tool-name'
import type { Reader } from '../reader'
import { decodePairs } from '../reading/decode-value'
import { fenceAround } from '../reading/fences'
import { addFound, readAlone, type BuiltInReader, type ExtractionContext } from '../reading/reading-context'

// `[name]` alone on a line (a TOML table), or a line `name …` (a command line, maybe in backticks or
// after a `$` prompt). Simple and linear: the code decides what follows the name, and no two runs
// of spaces touch (`[ \t]*` beside `[ \t`]*` split a long run of spaces in quadratically many ways).
const HEAD = /^[ \t]*(?:\[([A-Za-z_][\w.:-]*)\][ \t]*|(?:[$`][ \t`]*)?([A-Za-z_][\w.:-]*)[ \t]+((?:[^ \t\r\n\u2028\u2029].*)?))$/gm

/** TOML-ish tables and command-like lines of known names whose every key is a field; only when nothing else was found. */
export function recognizeKeyValueCalls(context: ExtractionContext): void {
  const { text, names, fieldsOf } = context
  if (context.found.length > 0 || !names || !fieldsOf || !text.includes('=')) return
  for (const match of text.matchAll(HEAD)) {
    const name = cleanToolName(match[1] ?? match[2]!, names)
    const fields = names.has(name) && fieldsOf(name)
    if (!fields) continue
    let end = match.index + match[0].length
    let body = match[3] === undefined ? undefined : trimEndOf(match[3], ' \t`')
    if (body === undefined) {
      // The table's `key = value` lines, up to the first line that is not one.
      const lines = text.slice(end + 1, end + 4096).split('\n')
      let count = 0
      while (count < lines.length && lines[count]!.includes('=')) end += lines[count++]!.length + 1
      body = lines.slice(0, count).join('\n')
    }
    // `--key=value` as a command line writes it.
    const pairs = body.includes('=') && !body.includes('`') ? parseKeyValueText(body.replace(/(^|\s)--?\b/g, '$1'), fields) : undefined
    if (!pairs) continue
    const start = match.index + match[0].length - match[0].trimStart().length
    const fixes: string[] = fenceAround(context, start) ? ['fenced'] : []
    addFound(context, { name, args: decodePairs(context, name, pairs, fixes), format: `tool-markup:${match[1] ? 'toml' : 'key-value'}`, fixes, start }, end)
  }
}

const reader: BuiltInReader = {
  name: 'key-value',
  formats: ['tool-markup:key-value', 'tool-markup:toml'],
  stage: 'fallback',
  recognize: recognizeKeyValueCalls,
  read: (text, context) => readAlone(reader, text, context),
}

/**
 * A known name followed by `key = value` pairs: a TOML-ish table (`[scroll]` then `down = true` lines)
 * or one command-like line (`scroll down=true`). Taken only when every key is a field of that tool
 * (it needs `fieldsOf`) and nothing else was found.
 *
 * @example
 * ```ts
 * keyValueReader.read('scroll down=true', { names: new Set(['scroll']), fieldsOf: () => new Set(['down']), claimed: () => false })
 * ```
 */
export const keyValueReader: Reader = reader
