/**
 * GLM-4.5+ argument pairs: `NAME<arg_key>KEY</arg_key><arg_value>VALUE</arg_value>…`, usually inside
 * `<tool_call>`, the name written as text right before the first key.
 *
 * Text rules: an `<arg_value>` is exactly the text between its tags (`EXACT` of
 * `../reading/xml-value-text`), XML character references decoded and a `<![CDATA[…]]>` section kept as
 * written; a key is its trimmed text. The text is typed by the field's schema ({@link decodeArgument}).
 * Tags of other names inside a value are text: only a value tag closes a value.
 */
import { setOwn } from '../../util/set-own'
import { cleanToolName } from '../match-tool-name'
import type { Reader } from '../reader'
import { createMarkupPreview } from '../reading/create-markup-preview'
import { decodeArgument } from '../reading/decode-value'
import { MAX_CALLS } from '../reading/limits'
import { readName } from '../reading/read-name'
import { addFound, readAlone, type BuiltInReader, type ExtractionContext } from '../reading/reading-context'
import { WRAPPER_TAGS, tagsOf } from '../reading/xml-tags'
import { EXACT, valueText } from '../reading/xml-value-text'

/** GLM-4.5+: `NAME<arg_key>k</arg_key><arg_value>v</arg_value>…`, usually inside `<tool_call>`. */
export function recognizeArgumentPairs(context: ExtractionContext): void {
  const { text } = context
  const tags = tagsOf(context)
  for (let index = 0; index < tags.length && context.found.length < MAX_CALLS; index++) {
    const first = tags[index]!
    if (first.close || first.local !== 'arg_key') continue
    const previous = tags[index - 1]
    const nameFrom = previous ? previous.end : 0
    // The name is the text right before the first key, after the previous tag or token or line.
    let nameText = text.slice(Math.max(nameFrom, first.start - 256), first.start)
    const lineBreak = nameText.lastIndexOf('\n', nameText.trimEnd().length - 1)
    if (!previous && lineBreak >= 0) nameText = nameText.slice(lineBreak + 1)
    for (const token of context.tokens) {
      if (token.end <= first.start && token.end > first.start - nameText.length) nameText = text.slice(token.end, first.start)
    }
    const rawName = nameText.trim()
    if (rawName.length === 0 || readName(rawName, 0) !== rawName.replace(/:\d+$/, '').length) continue
    const name = cleanToolName(rawName, context.names)

    const args: Record<string, unknown> = {}
    const fixes: string[] = []
    // Tags of other names inside a value (`x<y=>` in text) are text: only a value tag closes a value.
    const pairTag = (from: number) => {
      let at = from
      while (at < tags.length && tags[at]!.local !== 'arg_key' && tags[at]!.local !== 'arg_value') at++
      return at
    }
    const isTag = (at: number, local: string, close: boolean) => at < tags.length && tags[at]!.local === local && tags[at]!.close === close
    let cursor = index
    let last = index
    let end = first.end
    let truncated = false
    while (isTag(cursor, 'arg_key', false)) {
      const keyClose = cursor + 1
      const valueOpen = cursor + 2
      const valueClose = pairTag(valueOpen + 1)
      // A key or value the text ends inside is cut off; a pair of another shape is no GLM call.
      if (!isTag(keyClose, 'arg_key', true)) {
        truncated = keyClose >= tags.length
        break
      }
      if (!isTag(valueOpen, 'arg_value', false)) {
        truncated = valueOpen >= tags.length
        break
      }
      if (!isTag(valueClose, 'arg_value', true)) {
        truncated = true
        break
      }
      const key = text.slice(tags[cursor]!.end, tags[keyClose]!.start).trim()
      setOwn(args, key, decodeArgument(context, name, key, valueText(text.slice(tags[valueOpen]!.end, tags[valueClose]!.start), EXACT), fixes))
      end = tags[valueClose]!.end
      last = valueClose
      cursor = valueClose + 1
    }
    if (truncated) {
      context.truncated = true
      break
    }
    if (last === index) continue
    const wrapper = previous && !previous.close && WRAPPER_TAGS.has(previous.local) ? previous : undefined
    const after = tags[last + 1]
    if (wrapper && after && after.close && after.local === wrapper.local) end = after.end
    addFound(context, { name, args, format: 'tool-markup:glm', fixes, start: wrapper ? wrapper.start : first.start - nameText.length }, end)
    index = last
  }
}

const reader: BuiltInReader = {
  name: 'glm',
  formats: ['tool-markup:glm'],
  recognize: recognizeArgumentPairs,
  preview: createMarkupPreview,
  read: (text, context) => readAlone(reader, text, context),
}

/**
 * GLM-4.5+ argument pairs: `NAME<arg_key>KEY</arg_key><arg_value>value</arg_value>…`, usually inside
 * `<tool_call>`. Values keep their text; objects and arrays are parsed. Streams a preview.
 *
 * @example
 * ```ts
 * glmReader.read('<tool_call>scroll\n<arg_key>down</arg_key>\n<arg_value>true</arg_value>\n</tool_call>', { names: undefined, claimed: () => false })
 * ```
 */
export const glmReader: Reader = reader
