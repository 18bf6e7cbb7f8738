/**
 * The tag scan of the XML-ish markup readers (xml-call, GLM, Hermes, xml-tree) and the streamed markup
 * preview: one pass over the text finds the tags a reader looks at — call tags (`<function=NAME>`,
 * `<invoke name="NAME">`, DeepSeek's `<｜DSML｜invoke name="NAME">`), parameter tags, GLM's
 * `<arg_key>`/`<arg_value>` and wrapper tags (`<tool_call>`, `<function_calls>` …). Namespaced tags
 * (`<minimax:tool_call>`) are read by their local name; no tag starts inside a `<![CDATA[…]]>` section.
 */
import type { ExtractionContext } from './reading-context'

/** A tag as the scan found it. */
export interface Tag {
  start: number
  end: number
  close: boolean
  /** Written with a special-token prefix, as DeepSeek's DSML `<｜DSML｜invoke …>`. */
  marked: boolean
  /** Local name in lower case (`tool_call` for `<minimax:tool_call>`). */
  local: string
  /** The namespace prefix in lower case (`seed` for `<seed:tool_call>`), if any. */
  ns?: string
  /** The value of `<name=VALUE>`. */
  value?: string
  attributes: Record<string, string>
}

// `<`, optional `/`, an optional `｜DSML｜`-style token prefix, an optional namespace, the name, then
// either `=VALUE` or attributes. Bounded and anchored on `<`, so the scan is linear: no `\s*` before
// the `>` (the attribute text already takes the spaces; the two traded a long run 400 ways).
// regex-bounded: a match attempt reads at most ~530 characters from its `<` and stops at the next `<` (test: packages/sdk/src/linear-time.test.ts)
const TAG = /<(\/?)(?:｜[^｜<>\n]{1,24}｜)?(?:([A-Za-z_][\w-]{0,40}):)?([A-Za-z_][\w.-]{0,60})((?:=|\s)[^<>]{0,400})?\/?>/g
// regex-bounded: run only on the text of one tag, at most 400 characters (TAG) or a 500-character window (readAttributeElements) (test: packages/sdk/src/linear-time.test.ts)
export const ATTRIBUTE = /([\w:.-]{1,40})\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>/]+))/g

/** Elements that hold one parameter of a call. */
export const PARAMETER_TAGS = new Set(['parameter', 'param', 'argument', 'arg'])
/** A local name that marks a call element. */
export const CALL_TAG_HINT = /function|invoke|tool|call|action|command/
/** Elements models wrap calls in (`<tool_call>`, `<function_calls>` …). */
export const WRAPPER_TAGS = new Set([
  'tool_call',
  'tool_calls',
  'toolcall',
  'function_call',
  'function_calls',
  'functioncall',
  'tool',
  'tools',
  'tool_use',
  'call',
  'calls',
  'response',
  'json',
  'xml',
  'action',
  'actions',
])

const NO_ATTRIBUTES: Record<string, string> = Object.freeze(Object.create(null) as Record<string, string>)

/** The `key="value"` attributes of a tag's text, keys in lower case, values as written. */
export function readAttributes(text: string): Record<string, string> {
  const attributes = Object.create(null) as Record<string, string>
  for (const attribute of text.matchAll(ATTRIBUTE)) attributes[attribute[1]!.toLowerCase()] = attribute[2] ?? attribute[3] ?? attribute[4] ?? ''
  return attributes
}

/** Opens a CDATA section: text up to `]]>` is the value as written. */
export const CDATA = '<![CDATA['

/** Every tag some reader looks at, in order; none inside a CDATA section. */
export function findTags(text: string): Tag[] {
  const tags: Tag[] = []
  if (!text.includes('<')) return tags
  // A CDATA section is text: no tag starts inside it (`<![CDATA[</param>]]>`). One pass over the sections, in step with the tags.
  let cdataStart = text.indexOf(CDATA)
  let cdataEnd = cdataStart < 0 ? -1 : text.indexOf(']]>', cdataStart)
  for (const match of text.matchAll(TAG)) {
    while (cdataStart >= 0 && cdataEnd >= 0 && cdataEnd + 3 <= match.index) {
      cdataStart = text.indexOf(CDATA, cdataEnd + 3)
      cdataEnd = cdataStart < 0 ? -1 : text.indexOf(']]>', cdataStart)
    }
    if (cdataStart >= 0 && cdataStart < match.index && cdataEnd >= 0) continue
    const rest = match[4]?.trim() ?? ''
    const local = match[3]!.toLowerCase()
    // Only tags some reader looks at are kept: a flood of `<think>` or `<b>` costs no objects.
    if (!rest && !PARAMETER_TAGS.has(local) && !WRAPPER_TAGS.has(local) && local !== 'arg_key' && local !== 'arg_value' && !CALL_TAG_HINT.test(local)) continue
    const attributes = rest && !rest.startsWith('=') ? readAttributes(rest) : NO_ATTRIBUTES
    let value: string | undefined
    if (rest.startsWith('=')) {
      value = rest
        .slice(1)
        .trim()
        .replace(/^["']|["']$/g, '')
    }
    tags.push({
      start: match.index,
      end: match.index + match[0].length,
      close: match[1] === '/',
      marked: match[0].includes('｜'),
      local,
      ...(match[2] ? { ns: match[2].toLowerCase() } : {}),
      value,
      attributes,
    })
  }
  return withoutTagsInValues(tags)
}

/**
 * A call tag inside a parameter's value (`<parameter=note>use <function=f> here</parameter>`) is text of
 * that value, as the format's own parsers read it: the tags between a parameter (or `<arg_value>`) opener
 * and the next tag that ends its value — its own tag again, open or closed, or the closer of a call or
 * wrapper — are dropped. A value that never ends keeps its tags (a cut-off call is read as before).
 */
function withoutTagsInValues(tags: Tag[]): Tag[] {
  let kept: Tag[] | undefined
  for (let index = 0; index < tags.length; index++) {
    const tag = tags[index]!
    kept?.push(tag)
    if (tag.close || !(PARAMETER_TAGS.has(tag.local) || tag.local === 'arg_value')) continue
    let end = index + 1
    while (end < tags.length) {
      const next = tags[end]!
      if (next.local === tag.local || (next.close && (WRAPPER_TAGS.has(next.local) || CALL_TAG_HINT.test(next.local)))) break
      end++
    }
    if (end >= tags.length || end === index + 1) continue
    kept ??= tags.slice(0, index + 1)
    index = end - 1
  }
  return kept ?? tags
}

/** The tags of the text, computed once per context. */
const tagCache = new WeakMap<ExtractionContext, Tag[]>()
export function tagsOf(context: ExtractionContext): Tag[] {
  let tags = tagCache.get(context)
  if (!tags) {
    tags = findTags(context.text)
    tagCache.set(context, tags)
  }
  return tags
}

/** Index of the tag closing `tags[from]`: the next `</local>`, not past another opener of the same name. */
export function findClose(tags: readonly Tag[], from: number, local: string, limit = tags.length): number {
  for (let index = from + 1; index < limit; index++) {
    const tag = tags[index]!
    if (tag.local !== local) continue
    if (tag.close) return index
    return -1
  }
  return -1
}
