/**
 * Hermes / Qwen2.5 / Qwen3 wrappers around JSON: `<tool_call>{"name": …, "arguments": {…}}</tool_call>`
 * (also several values in one wrapper), `<tool_call>NAME\n{…}</tool_call>`, and the other wrapper tags
 * models use (`<function_call>`, `<tools>` …). A wrapper around a bare tool name is GLM's rendering of a
 * call without arguments (`tool-markup:glm`).
 *
 * Text rules: the body is JSON, read leniently; spaces, line breaks, commas, semicolons and fence
 * markers around and between the values are layout. Tags written inside the JSON's strings are text of
 * the body. Envelopes are left for the repair to unwrap.
 */
import { skipSpaces } from '../../text/char-codes'
import { cleanToolName } from '../match-tool-name'
import type { Reader } from '../reader'
import { readJsonBody } from '../reading/json-body'
import { MAX_CALLS } from '../reading/limits'
import { readName } from '../reading/read-name'
import { addFound, readAlone, type BuiltInReader, type ExtractionContext } from '../reading/reading-context'
import { WRAPPER_TAGS, findClose, tagsOf } from '../reading/xml-tags'

/** Hermes-style wrappers around JSON (`<tool_call>{…}</tool_call>` …) or around a bare tool name. */
export function recognizeWrappers(context: ExtractionContext): void {
  const { text } = context
  const tags = tagsOf(context)
  for (let index = 0; index < tags.length && context.found.length < MAX_CALLS; index++) {
    const tag = tags[index]!
    if (tag.close || !WRAPPER_TAGS.has(tag.local) || tag.value !== undefined || tag.attributes.name) continue
    let closeIndex = findClose(tags, index, tag.local)
    // Tags written inside the JSON body's strings (`{"text": "</tool_call>"}`) are text of the body: the
    // wrapper closes at the first tag after the JSON.
    let following = index + 1
    const bodyStart = skipSpaces(text, tag.end)
    const opener = text.charCodeAt(bodyStart)
    if ((opener === 123 || opener === 91) && following < tags.length) {
      const jsonEnd = context.scan.endOf(bodyStart)
      if (jsonEnd > tags[following]!.start) {
        while (following < tags.length && tags[following]!.start < jsonEnd) following++
        closeIndex = following < tags.length && tags[following]!.close && tags[following]!.local === tag.local ? following : -1
      }
    }
    let bodyEnd = text.length
    if (closeIndex >= 0) bodyEnd = tags[closeIndex]!.start
    else if (following < tags.length) bodyEnd = tags[following]!.start
    const body = text.slice(tag.end, bodyEnd)
    const trimmed = body.trim()
    const closeEnd = closeIndex >= 0 ? tags[closeIndex]!.end : bodyEnd

    // A bare tool name: GLM's rendering of a call without arguments.
    // Without its closer, only a body that runs to the end of the text is whole (servers strip stop tags).
    const whole = closeIndex >= 0 || index + 1 === tags.length
    if (whole && trimmed.length > 0 && readName(trimmed, 0) === trimmed.length && (closeIndex >= 0 || context.names?.has(cleanToolName(trimmed, context.names)))) {
      addFound(context, { name: cleanToolName(trimmed, context.names), args: {}, format: 'tool-markup:glm', fixes: [], start: tag.start }, closeEnd)
      continue
    }
    // A name, then JSON: `<tool_call>scroll\n{"down": true}</tool_call>`.
    const nameEnd = readName(text, skipSpaces(text, tag.end, bodyEnd))
    const nameStart = skipSpaces(text, tag.end, bodyEnd)
    if (nameEnd > nameStart) {
      // `name:`, or Kimi's call index `functions.name:0`.
      let afterName = skipSpaces(text, nameEnd, bodyEnd)
      if (text.charCodeAt(afterName) === 58) {
        afterName++
        while (afterName < bodyEnd && text.charCodeAt(afterName) >= 48 && text.charCodeAt(afterName) <= 57) afterName++
        afterName = skipSpaces(text, afterName, bodyEnd)
      }
      const json = readJsonBody(context, afterName, bodyEnd)
      if (json === 'truncated') {
        context.truncated = true
        continue
      }
      if (json && json.value !== null && typeof json.value === 'object') {
        addFound(context, { name: cleanToolName(text.slice(nameStart, nameEnd), context.names), args: json.value, format: 'tool-markup:hermes', fixes: json.fixes, start: tag.start }, closeEnd)
        if (closeIndex >= 0) index = closeIndex
        continue
      }
    }
    let cursor = tag.end
    let first = true
    while (cursor < bodyEnd && context.found.length < MAX_CALLS) {
      const json = readJsonBody(context, cursor, bodyEnd)
      if (json === 'truncated') {
        context.truncated = true
        break
      }
      if (!json) break
      const start = first ? tag.start : json.start
      const end = first && closeIndex >= 0 && skipSeparators(text, json.end, bodyEnd) >= bodyEnd ? closeEnd : json.end
      addFound(context, { args: json.value, format: 'tool-markup:hermes', fixes: json.fixes, start }, end)
      first = false
      cursor = skipSeparators(text, json.end, bodyEnd)
    }
    if (closeIndex >= 0) index = closeIndex
    else if (following > index + 1) index = following - 1
  }
}

/** Skips what may separate several JSON calls in one wrapper: spaces, commas, semicolons, fences. */
function skipSeparators(text: string, from: number, to: number): number {
  let cursor = from
  while (cursor < to) {
    const code = text.charCodeAt(cursor)
    if (code === 32 || code === 9 || code === 10 || code === 13 || code === 44 || code === 59 || code === 96) cursor++
    else break
  }
  return cursor
}

const reader: BuiltInReader = {
  name: 'hermes',
  formats: ['tool-markup:hermes'],
  recognize: recognizeWrappers,
  read: (text, context) => readAlone(reader, text, context),
}

/**
 * Hermes / Qwen2.5 wrappers around JSON: `<tool_call>{"name": …, "arguments": {…}}</tool_call>`, also
 * `<tool_call>NAME\n{…}</tool_call>` and the other wrapper tags models use (`<function_call>`,
 * `<tools>` …). The JSON inside is read leniently and left for the repair to unwrap.
 *
 * @example
 * ```ts
 * hermesReader.read('<tool_call>{"name": "done", "arguments": {}}</tool_call>', { names: undefined, claimed: () => false })
 * // [{ args: { name: 'done', arguments: {} }, format: 'tool-markup:hermes', … }]
 * ```
 */
export const hermesReader: Reader = reader
