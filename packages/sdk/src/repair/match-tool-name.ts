/**
 * Tool-name matching: what a name a model wrote means among the names it may call. `cleanToolName`
 * strips what readers see around a name (`functions.`, `:0`); `matchName` resolves a name against the
 * known tools and actions (namespaces, quotes, case and separators), for the repair and the macro tool.
 */
import { isNameStartCode, isWordCode } from '../text/char-codes'

/**
 * Strips the namespaces models put in front of a tool name (`functions.scroll`,
 * `default_api.scroll`) and Kimi's call index suffix (`scroll:0`). A name of `names` (a tool declared
 * as `functions.roots`) keeps its namespace.
 */
export function cleanToolName(name: string, names?: ReadonlySet<string>): string {
  const trimmed = name.trim().replace(/:\d+$/, '')
  return names?.has(trimmed) ? trimmed : trimmed.replace(/^(?:functions?|default_api|tools?)\./, '')
}

/**
 * Where the name starts once the namespaces before it are cut (`functions.`, `default_api:`,
 * `mcp__server__`): the last point, before a letter or `_`, that a chain of `word.`, `word:`,
 * `word-part.` or `word__` segments reaches. One pass; the regex this replaces,
 * `^(?:[\w-]+[.:]|\w+__)+`, took exponential time on `1__1__…1` (`\w` holds `_`).
 */
function namespaceEnd(name: string): number {
  let cut = 0
  // Where the current segment started (always a reachable point), and whether it is all word characters so far.
  let segmentStart = 0
  let word = true
  for (let index = 0; index < name.length; index++) {
    const code = name.charCodeAt(index)
    if (code === 46 || code === 58) {
      // `..` or a leading `.`: an empty segment ends the chain.
      if (index === segmentStart) break
      segmentStart = index + 1
      word = true
      if (isNameStartCode(name.charCodeAt(index + 1))) cut = index + 1
    } else if (code === 45) word = false
    else if (!isWordCode(code)) break
    // `word__` ends a segment at any `__` (a run of underscores holds several), while only word characters came before.
    else if (word && code === 95 && index - segmentStart >= 2 && name.charCodeAt(index - 1) === 95 && isNameStartCode(name.charCodeAt(index + 1))) cut = index + 1
  }
  return cut
}

const looseName = (name: string) => name.toLowerCase().replace(/[-_\s]/g, '')

/**
 * The one of `known` that `name` means: itself; else without quotes, a namespace (`functions.`,
 * `default_api.`, `tools:`, `mcp__server__`) or a `:0` suffix; else the one known name it equals
 * ignoring case, `-`, `_` and spaces (`Scroll`, `input-text`, `inputText`). A name that loosely
 * equals two known names means neither.
 */
export function matchName(name: string, known: ReadonlySet<string> | Readonly<Record<string, unknown>>): string | undefined {
  const set = known instanceof Set
  const has = (candidate: string) => (set ? known.has(candidate) : Object.hasOwn(known, candidate))
  const trimmed = name.trim()
  if (has(trimmed)) return trimmed
  // No real tool name is this long (OpenAI caps them at 64); do not scan a runaway string.
  if (!trimmed || name.length > 256) return undefined
  let cleaned = trimmed
    .replace(/^["'`]|["'`]$/g, '')
    .replace(/:\d+$/, '')
  cleaned = cleaned.slice(namespaceEnd(cleaned)).trim()
  if (has(cleaned)) return cleaned
  const loose = looseName(cleaned)
  let match: string | undefined
  for (const candidate of set ? known : Object.keys(known)) {
    if (looseName(candidate) !== loose) continue
    if (match !== undefined) return undefined
    match = candidate
  }
  return match
}
