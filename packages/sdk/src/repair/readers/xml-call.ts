/**
 * Calls written as a call element with parameter elements, or a JSON body: `<function=NAME>`,
 * `<function name="NAME">`, `<invoke name="NAME">`, DeepSeek's `<｜DSML｜invoke name="NAME">`, with
 * `<parameter=K>v</parameter>`, `<parameter name="K" string="false">v</parameter>`, a JSON body or
 * elements of any name, inside a wrapper tag (`<tool_call>`, `<minimax:tool_call>`, `<function_calls>`)
 * or not.
 *
 * Text rules of a parameter value (what is layout, what is the value; see `../reading/xml-value-text`),
 * as the chat templates write them:
 * - Qwen3-Coder / Qwen3 XML / Nemotron 3 `<parameter=K>\nV\n</parameter>` (`qwen-xml`) and Seed-OSS (the
 *   same tags inside `<seed:tool_call>`): the value sits on its own line (`ON_OWN_LINE`): the `\n` after
 *   the opening tag and the `\n` before the closing tag are layout, and so is a pretty-printed call's
 *   closing-tag indentation; everything else is the value. Seed-OSS's template writes
 *   `<parameter=K>V</parameter>`, but the model writes its values on their own lines, and vLLM's
 *   `seed_oss` parser strips those two newlines as its Qwen3-Coder parser does.
 * - MiniMax-M2, Step-3 and Glimmer `<invoke>` parameters (`minimax`), DeepSeek DSML (`dsml`) and
 *   GigaChat 3.5 GCML parameters: the value is exactly the text between the tags (`EXACT`).
 * - Other XML-ish calls and elements (no template to follow; MiniCPM 5's `<function name=…><param …>`
 *   puts every value holding a newline in CDATA, so the rule cannot touch it): the Qwen3 rule.
 * - In every one of them XML character references are decoded and a `<![CDATA[…]]>` section is its
 *   content as written.
 * - The text is then typed by the field's schema ({@link decodeArgument}): a string field gets the text
 *   as is. DSML's `string="true"` marks the text as the string itself; `string="false"` as JSON.
 *
 * Muse Glimmer frames each call as a harmony-like message `to=NAME`; a message `to=self` is reasoning,
 * so a call written there is a draft, and no call at all once the model writes a message `to=user`.
 */
import { isRecord } from '../../util/is-record'
import { setOwn } from '../../util/set-own'
import { parseLenientJson } from '../lenient-json'
import { cleanToolName } from '../match-tool-name'
import type { Reader } from '../reader'
import { createMarkupPreview } from '../reading/create-markup-preview'
import { decodeArgument } from '../reading/decode-value'
import { readElementTree } from '../reading/element-tree'
import { readJsonBody } from '../reading/json-body'
import { MAX_CALLS } from '../reading/limits'
import { addFound, readAlone, type BuiltInReader, type ExtractionContext } from '../reading/reading-context'
import { CALL_TAG_HINT, PARAMETER_TAGS, WRAPPER_TAGS, findClose, tagsOf, type Tag } from '../reading/xml-tags'
import { EXACT, ON_OWN_LINE, valueText, type ValueLayout } from '../reading/xml-value-text'

/** `<function=NAME>`, `<invoke name="NAME">`, `<｜DSML｜invoke name="NAME">` … with parameters or a JSON body. */
export function recognizeXmlCalls(context: ExtractionContext): void {
  const { text } = context
  const tags = tagsOf(context)
  for (let index = 0; index < tags.length && context.found.length < MAX_CALLS; index++) {
    const tag = tags[index]!
    // A tag MiniMax M3's marker opens is its reader's, whole or cut off.
    if (tag.close || PARAMETER_TAGS.has(tag.local) || text.endsWith('[>[', tag.start)) continue
    const rawName = tag.value ?? tag.attributes.name
    if (!rawName) continue
    const name = cleanToolName(rawName, context.names)
    if (!name || (!CALL_TAG_HINT.test(tag.local) && !context.names?.has(name))) continue

    let closeIndex = findClose(tags, index, tag.local)
    // Without its closer the body runs to the next call tag of the same kind, or to the end.
    let bodyEndTag = closeIndex
    if (closeIndex < 0) {
      bodyEndTag = tags.length
      for (let next = index + 1; next < tags.length; next++) {
        const candidate = tags[next]!
        // So does a wrapper opened between elements: the next call's `<tool_call>` (its own closer stripped too).
        if (!candidate.close && (candidate.local === tag.local || (WRAPPER_TAGS.has(candidate.local) && tags[next - 1]!.close))) {
          bodyEndTag = next
          break
        }
        // A closing wrapper (`</tool_call>`) ends the call too.
        if (candidate.close && !PARAMETER_TAGS.has(candidate.local)) {
          bodyEndTag = next
          break
        }
      }
      closeIndex = -1
    }
    const bodyEnd = bodyEndTag < tags.length ? tags[bodyEndTag]!.start : text.length
    const callEnd = closeIndex >= 0 ? tags[closeIndex]!.end : bodyEnd

    const args: Record<string, unknown> = {}
    const fixes: string[] = []
    const layout = tag.marked || tag.local === 'invoke' ? EXACT : ON_OWN_LINE
    let parameterCount = 0
    let truncated = false
    for (let inner = index + 1; inner < bodyEndTag; inner++) {
      const parameter = tags[inner]!
      if (parameter.close || !PARAMETER_TAGS.has(parameter.local)) continue
      const key = parameter.value ?? parameter.attributes.name
      if (key === undefined) continue
      const parameterClose = findClose(tags, inner, parameter.local, bodyEndTag)
      let valueEnd: number
      if (parameterClose >= 0) {
        valueEnd = tags[parameterClose]!.start
      } else {
        // An unclosed parameter that runs into the end of the text was cut off.
        let next = inner + 1
        while (next < bodyEndTag && !(PARAMETER_TAGS.has(tags[next]!.local) && !tags[next]!.close)) next++
        valueEnd = next < bodyEndTag ? tags[next]!.start : bodyEnd
        if (valueEnd >= text.length) truncated = true
      }
      setOwn(args, key, readParameter(context, layout, name, key, parameter, text.slice(parameter.end, valueEnd), fixes))
      parameterCount++
      if (parameterClose >= 0) inner = parameterClose
    }
    if (truncated) {
      context.truncated = true
      continue
    }

    let value: unknown = args
    let jsonBody = false
    let treeBody = false
    if (parameterCount === 0) {
      const body = readJsonBody(context, tag.end, bodyEnd)
      if (body === 'truncated') {
        context.truncated = true
        continue
      }
      if (body) {
        value = body.value
        fixes.push(...body.fixes)
        jsonBody = true
      } else {
        const rest = text.slice(tag.end, bodyEnd).trim()
        if (rest.length === 0 && closeIndex < 0 && bodyEnd >= text.length) {
          // `<function=scroll>` and nothing after it: cut off right after the opener.
          context.truncated = true
          continue
        }
        // A bare value (`<function=wait>3</function>`) is left for the single-field rule.
        if (rest.length > 0 && !rest.includes('<')) value = rest
        // Elements of any name as the parameters: `<action name="scroll"><down>true</down></action>`.
        else if (rest.startsWith('<') && rest.endsWith('>')) {
          const tree = readElementTree(text, text.indexOf('<', tag.end), bodyEnd, fixes)
          treeBody = isRecord(tree)
          if (treeBody) value = tree
        }
        // An opener with no closer and nothing a call holds after it (parameters, JSON, elements) is text
        // (`'<function=f>'` in another format's string), not a call.
        if (closeIndex < 0 && !treeBody) continue
      }
    }
    const format = tag.marked
      ? 'dsml'
      : tag.local === 'invoke'
        ? 'minimax'
        : jsonBody || (tag.value === undefined && parameterCount === 0 && !treeBody)
          ? 'function-tag'
          : tag.value !== undefined
            ? 'qwen-xml'
            : 'xml'
    const start = enclosingWrapperStart(text, tags, index) ?? tag.start
    addFound(context, { name, args: value, format: `tool-markup:${format}`, fixes, start }, Math.max(callEnd, enclosingWrapperEnd(tags, index, closeIndex) ?? callEnd))
    if (closeIndex >= 0) index = closeIndex
  }
}

/**
 * One parameter of a call tag, by its format's text rules: Qwen3 XML and Seed-OSS `<parameter=K>` values
 * sit on their own line; MiniMax and Step-3 `<invoke>` and
 * DSML parameters are exact. DSML's `string="true"` is the string itself, `string="false"` JSON.
 */
function readParameter(context: ExtractionContext, layout: ValueLayout, name: string, key: string, parameter: Tag, raw: string, fixes: string[]): unknown {
  const text = valueText(raw, layout)
  const flag = parameter.attributes.string
  if (flag === 'true') return text
  if (flag === 'false') {
    const parsed = parseLenientJson(text.trim())
    if (parsed !== undefined) return parsed.value
  }
  return decodeArgument(context, name, key, text, fixes)
}

/** The start of a wrapper tag (`<tool_call>`, `<minimax:tool_call>`) directly around the call tag: only spaces between (not `[{"query": "`). */
function enclosingWrapperStart(text: string, tags: readonly Tag[], index: number): number | undefined {
  const previous = tags[index - 1]
  if (previous && !previous.close && WRAPPER_TAGS.has(previous.local) && previous.value === undefined && !previous.attributes.name && !text.slice(previous.end, tags[index]!.start).trim()) return previous.start
  return undefined
}

function enclosingWrapperEnd(tags: readonly Tag[], index: number, closeIndex: number): number | undefined {
  if (closeIndex < 0) return undefined
  const previous = tags[index - 1]
  const next = tags[closeIndex + 1]
  if (previous && next && next.close && next.local === previous.local && WRAPPER_TAGS.has(previous.local)) return next.end
  return undefined
}

const reader: BuiltInReader = {
  name: 'xml-call',
  formats: ['tool-markup:qwen-xml', 'tool-markup:minimax', 'tool-markup:dsml', 'tool-markup:function-tag', 'tool-markup:xml'],
  recognize: recognizeXmlCalls,
  preview: createMarkupPreview,
  read: (text, context) => readAlone(reader, text, context),
}

/**
 * Calls written as a call element with parameter elements, or a JSON body:
 * - Qwen3-Coder and Seed-OSS `<function=NAME><parameter=KEY>value</parameter></function>` (`qwen-xml`),
 * - MiniMax and Claude-style `<invoke name="NAME"><parameter name="KEY">value</parameter></invoke>` (`minimax`),
 * - DeepSeek V3.2 DSML `<｜DSML｜invoke name="NAME">` with `string="true|false"` parameters (`dsml`),
 * - `<function=NAME>{json}</function>` (`function-tag`), inside `<tool_call>` or `<function_calls>` or not.
 * Layout, per format (see the module comment): Qwen3-Coder / Nemotron 3 put a value on its own line, so the
 * newline after the opening tag and the one before the closing tag are dropped (a pretty-printed call's
 * closing-tag indentation too, and for a one-line value the same indentation before it); Seed-OSS,
 * MiniMax-M2, DSML, GCML and Glimmer values are exactly the text between the tags. Everything else a
 * value holds is its own; a `<![CDATA[…]]>` section is its text as written. The schema types the text
 * (an object or array field gets JSON parsed). Streams a preview of the parameters as they arrive.
 *
 * @example
 * ```ts
 * xmlCallReader.read('<function=scroll>\n<parameter=down>\ntrue\n</parameter>\n</function>', { names: new Set(['scroll']), claimed: () => false })
 * // [{ name: 'scroll', args: { down: 'true' }, format: 'tool-markup:qwen-xml', … }]
 * ```
 */
export const xmlCallReader: Reader = reader
