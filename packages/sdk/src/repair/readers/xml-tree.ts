/**
 * A wrapper or call element whose body is nothing but elements — `<tool_call><name>scroll</name>
 * <arguments><down>true</down></arguments></tool_call>`, `<function_calls><invoke><tool_name>…
 * </tool_name><parameters>…</parameters></invoke></function_calls>` — read as the object its element
 * tree spells (`../reading/element-tree`), for the repair's envelope rules to name.
 *
 * Text rules: a leaf follows the Qwen3 rule (`ON_OWN_LINE`: one line break after the opening tag and
 * before the closing tag are layout), references decoded, and stays text for the schema-guided
 * coercion (text that is a JSON object or array is parsed: `guessed-value-type`); a repeated element is
 * a list; a lone call or wrapper element is descended into. Without its closer (servers strip the stop
 * tag) the tree runs to the next opener of its name, or the end.
 */
import { skipSpaces } from '../../text/char-codes'
import type { Reader } from '../reader'
import { readElementTree } from '../reading/element-tree'
import { MAX_CALLS } from '../reading/limits'
import { addFound, readAlone, type BuiltInReader, type ExtractionContext } from '../reading/reading-context'
import { CALL_TAG_HINT, PARAMETER_TAGS, WRAPPER_TAGS, tagsOf } from '../reading/xml-tags'

/**
 * A wrapper or call tag whose body is nothing but elements — `<tool_call><name>scroll</name>
 * <arguments><down>true</down></arguments></tool_call>`, `<function_calls><invoke><tool_name>…
 * </tool_name><parameters>…</parameters></invoke></function_calls>` — read as the object its element
 * tree spells, for the envelope rules downstream to name. Leaves stay text for schema coercion.
 */
export function recognizeElementTrees(context: ExtractionContext): void {
  const { text } = context
  const tags = tagsOf(context)
  for (let index = 0; index < tags.length && context.found.length < MAX_CALLS; index++) {
    const tag = tags[index]!
    if (tag.close || tag.value !== undefined || tag.attributes.name || PARAMETER_TAGS.has(tag.local)) continue
    if (!WRAPPER_TAGS.has(tag.local) && !CALL_TAG_HINT.test(tag.local)) continue
    // The next tag of its name closes it; without its closer (servers strip the stop tag) the tree runs
    // to the next opener of its name, or the end.
    let next = index + 1
    while (next < tags.length && tags[next]!.local !== tag.local) next++
    const closed = next < tags.length && tags[next]!.close
    const bodyEnd = next < tags.length ? tags[next]!.start : text.length
    const start = skipSpaces(text, tag.end, bodyEnd)
    if (text.charCodeAt(start) !== 60) continue
    const fixes: string[] = []
    const tree = readElementTree(text, start, bodyEnd, fixes, !closed)
    if (tree === 'truncated') context.truncated ||= bodyEnd >= text.length
    else if (tree !== undefined) addFound(context, { args: tree, format: 'tool-markup:xml-tree', fixes, start: tag.start }, closed ? tags[next]!.end : bodyEnd)
    if (closed) index = next
  }
}

const reader: BuiltInReader = {
  name: 'xml-tree',
  formats: ['tool-markup:xml-tree'],
  recognize: recognizeElementTrees,
  read: (text, context) => readAlone(reader, text, context),
}

/**
 * A wrapper or call element whose body is nothing but elements — `<tool_call><name>scroll</name>
 * <arguments><down>true</down></arguments></tool_call>` — read as the object its element tree spells,
 * for the repair's envelope rules to name. Leaves stay text for the schema-guided coercion.
 *
 * @example
 * ```ts
 * xmlTreeReader.read('<tool_call><name>done</name><arguments></arguments></tool_call>', { names: undefined, claimed: () => false })
 * ```
 */
export const xmlTreeReader: Reader = reader
