import type { ChatResponse, ChatResponseMessage, ChatStreamChunk, ChatStreamToolCallDelta, ChatToolCall, ChatUsage } from '../types'
import type { StreamEvent } from './stream-run'
import { markerTail, opensReasoning, readContentPart, REASONING_TAG } from '../repair/split-reasoning'
import type { ReaderPreview } from '../repair/reader'
import { combinePreviews } from './combine-previews'
import { isRecord } from '../util/is-record'
import { createDeltaLists } from './merge-delta-lists'
import { createPartialJsonReader, type PartialJsonReader } from '../repair/parse-partial-json'
import { createTextBuffer } from '../text/text-buffer'

/** Builds one chat-completions response out of stream chunks, emitting deltas as they come. */
export interface StreamAssembler {
  /** Adds one parsed chunk (already passed through the adapters' `fixChunk`). */
  push(chunk: ChatStreamChunk): void
  /**
   * Scans what was pushed since the last flush in one piece: the content for a call written into it
   * (previews and reasoning markers), and the argument bytes of each call whose `partial` preview is
   * due (bytes wait until one is). The stream flushes after each network read, so the deltas that
   * arrived together are scanned together; `text`, `reasoning` and `arguments` events still come one
   * per delta. `finish` flushes first.
   */
  flush(): void
  /** Flushes the last `partial` previews and returns the whole response, as a non-streaming server would have sent it. */
  finish(): ChatResponse
  /**
   * Whether the stream so far stops inside a call's arguments (a tool call's, or JSON written into
   * content) with no finish reason: if it ends here, the connection was cut, not the model.
   */
  endsInsideCall(): boolean
}

/** Options of {@link createStreamAssembler}. */
export interface StreamAssemblerOptions {
  /**
   * Re-parse a call's arguments for a `partial` event once this many bytes arrived since the last
   * parse, or an eighth of the arguments so far when that is more: previews stay fine-grained for
   * short arguments while a long one costs a linear total, never a quadratic one. Default 8.
   */
  partialStepBytes?: number
  /** The readers' incremental previews of calls written into content as markup (`Reader.preview`). Default: none. */
  previews?: ReadonlyArray<(from: number) => ReaderPreview>
  /** Stream `<think>` blocks written into the text as `reasoning` events, not `text` (prompt mode). Default `false`. */
  reasoningInText?: boolean
  /** Wire name → the tool's own name (`wireNames`): events name a tool as it was declared. Default: names as sent. */
  toOwn?: ReadonlyMap<string, string> | undefined
}

interface CallState {
  /** Position in `tool_calls` (the `index` of its events). */
  position: number
  id?: string
  type?: string
  name: string
  /** The arguments' text so far, scanned as it comes (for a call in content: from its `{`). */
  json: PartialJsonReader
  /** Argument bytes not yet scanned: they wait until a preview is due, and are scanned in one piece then. */
  pending: string
  /** Set when a server sent the arguments as an object rather than a JSON string. */
  object?: Record<string, unknown>
  parsedLength: number
  /** The JSON reader's version last shown. */
  shownVersion?: number
  /** The last preview shown, serialised (markup and object arguments, which have no version). */
  lastPartial?: string
  /** A call written into content: its JSON may be an envelope `{ name, arguments }`. */
  inContent?: boolean
  /** A call written into content as named-parameter markup: its arguments are read from the content. */
  markup?: boolean
  /**
   * Provider fields of the call beside `id`/`type`/`function` (Gemini's `extra_content` with the
   * thought signature its next request must echo), kept as first sent.
   */
  extra?: Record<string, unknown>
}

// Delta fields the assembler reads itself.
const DELTA_FIELDS: ReadonlySet<string> = new Set(['role', 'content', 'reasoning_content', 'reasoning', 'refusal', 'tool_calls', 'function_call'])

const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value !== ''
// Names the call once its name is known; written out whole, as a spread or an added key would cost
// another object per delta.
const argumentsEvent = (delta: string, index: number, name: string): StreamEvent => (name ? { type: 'arguments', delta, index, name } : { type: 'arguments', delta, index })

/**
 * Assembles a chat-completions stream the way real servers send it: tool-call fragments with or
 * without `index` (a fragment without one continues the last call unless it brings a new id or a
 * different name), `id` and `name` in the first fragment, a later one or never, argument bytes
 * before the id, `arguments: null` (DashScope's closing fragment), arguments as an object,
 * `reasoning_content` or `reasoning`, usage in a trailing chunk without choices, `finish_reason`
 * only at the end or never. A call is complete only when `finish` is called.
 *
 * @example
 * ```ts
 * const assembler = createStreamAssembler((event) => console.log(event))
 * for (const chunk of chunks) assembler.push(chunk)
 * const response = assembler.finish() // { choices: [{ message, finish_reason }], usage }
 * ```
 */
export function createStreamAssembler(emit: (event: StreamEvent) => void, options: StreamAssemblerOptions = {}): StreamAssembler {
  const stepBytes = options.partialStepBytes ?? 8
  // The name an event shows: the tool's own, not the one it was sent under.
  const own = (name: string) => (name && options.toOwn?.get(name)) || name
  const calls: CallState[] = []
  const byIndex = new Map<number, CallState>()
  let last: CallState | undefined
  // Appended to and never searched: every scan below reads only the new delta (a search of a
  // growing string copies it whole on each delta, a quadratic total).
  const content = createTextBuffer()
  // The end of content where a think marker cut by the delta boundary starts.
  let contentTail = ''
  // A call written into content (no tool_calls): its JSON from its `{`, outside any <think> block.
  let contentCall: CallState | undefined
  // Or written as markup (`<parameter=KEY>`, `<arg_key>`): read incrementally, previewed from there.
  const newPreview = (from: number) => combinePreviews(options.previews ?? [], from)
  let markup = newPreview(0)
  let thinking = false
  const reasoningContent = createTextBuffer()
  const reasoning = createTextBuffer()
  const refusal = createTextBuffer()
  let role: string | undefined
  let functionCall: { name: string; arguments: string } | undefined
  let finishReason: string | null = null
  let usage: ChatUsage | undefined
  // The response's own fields, each as first sent (`object` is always `chat.completion`).
  let id: unknown
  let created: unknown
  let model: unknown
  let fingerprint: unknown
  // Provider lists in deltas (`reasoning_details`), kept whole so a history can echo them.
  const deltaLists = createDeltaLists(DELTA_FIELDS)

  function startCall(): CallState {
    const call: CallState = { position: calls.length, name: '', json: createPartialJsonReader(), pending: '', parsedLength: 0 }
    calls.push(call)
    return call
  }

  // The size of a call's arguments so far, scanned or not (for markup: its text in the content).
  const sizeOf = (call: CallState) => (call.markup ? content.length - markup.start : call.json.length + call.pending.length)
  // Whether enough arrived since the last preview for another: a linear total of parsing, never quadratic.
  const isDue = (call: CallState, size: number) => size - call.parsedLength >= Math.max(stepBytes, size >> 3)

  function scanArguments(call: CallState) {
    call.json.push(call.pending)
    call.pending = ''
  }

  function emitPartial(call: CallState, force: boolean) {
    let args: unknown
    if (call.object) args = call.object
    else {
      const size = sizeOf(call)
      if (size === call.parsedLength || (!force && !isDue(call, size))) return
      call.parsedLength = size
      // A markup call is read from the content: it never has bytes waiting.
      scanArguments(call)
      if (!call.markup) {
        // The JSON reader knows when its value changed: no need to compare serialised previews.
        const version = call.json.version()
        if (version === call.shownVersion) return
        call.shownVersion = version
      }
      const parsed = call.markup ? { value: markup.read() } : call.json.read()
      if (!parsed) return
      args = parsed.value
      // `{"name": "get_wea` shows nothing yet, not even whose call it is.
      if (call.inContent && !force && isRecord(args) && Object.keys(args).length === 0) return
      if (call.inContent && isRecord(args) && typeof args.name === 'string') {
        const inner = args.arguments ?? args.parameters
        if (isRecord(inner)) {
          call.name = args.name
          args = inner
          // `{"name": "click", ` of an envelope whose arguments have not begun: no preview of them yet.
        } else if (!force && Object.keys(args).length === 1) return
      }
    }
    if (call.markup || call.object) {
      const serialised = JSON.stringify(args)
      if (serialised === call.lastPartial) return
      call.lastPartial = serialised
    }
    emit({ type: 'partial', args, index: call.position, ...(call.name ? { name: own(call.name) } : {}) })
  }

  /**
   * Previews a call the model writes into content as JSON (bare, fenced or in `<tool_call>`) or as
   * named-parameter markup, so its reflection shows live too. Only the new delta is scanned (with
   * the few characters before it where a reasoning marker may start); the repair at the end decides
   * what it was.
   */
  function pushContent(delta: string) {
    if (calls.length > 0) return
    let fresh = delta
    // Every reasoning marker starts with `<` or `[`: a delta without one, after no tail, holds none.
    if (contentTail || delta.includes('<') || delta.includes('[')) {
      const window = contentTail + delta
      let end = 0
      REASONING_TAG.lastIndex = 0
      for (let match = REASONING_TAG.exec(window); match; match = REASONING_TAG.exec(window)) {
        end = match.index + match[0].length
        // A call before a closing </think> was a draft inside the reasoning (the template opened it).
        thinking = opensReasoning(match)
        contentCall = undefined
        markup = newPreview(content.length - window.length + end)
        fresh = window.slice(end)
      }
      contentTail = window.slice(markerTail(window, end))
    }
    if (thinking) return
    if (contentCall?.markup === false) {
      contentCall.json.push(fresh)
      emitPartial(contentCall, false)
      return
    }
    markup.push(fresh)
    if (markup.start >= 0) {
      contentCall ??= { position: 0, name: '', json: createPartialJsonReader(), pending: '', parsedLength: 0, markup: true }
      contentCall.name = markup.name ?? ''
      emitPartial(contentCall, false)
      return
    }
    const start = fresh.indexOf('{')
    if (start < 0) return
    // `<function=NAME>` before a JSON body names the call.
    contentCall = { position: 0, name: markup.name ?? '', json: createPartialJsonReader(), pending: '', parsedLength: 0, inContent: true, markup: false }
    contentCall.json.push(fresh.slice(start))
    emitPartial(contentCall, false)
  }

  // Content of this read not yet added to `content`: the deltas of one read are kept and scanned for
  // a call as one piece (`flush`), so the readers' previews cost a call per read, not per delta.
  let unscanned = ''
  function pushText(delta: string) {
    if (options.reasoningInText) emitText(delta)
    else emit({ type: 'text', delta })
    unscanned += delta
  }
  function flushContent() {
    if (unscanned === '') return
    const piece = unscanned
    unscanned = ''
    content.append(piece)
    pushContent(piece)
  }
  // Calls whose next preview is due: each previewed once per read, its bytes scanned then (a call
  // listed twice is previewed once). A read that makes no preview due scans nothing.
  const dueCalls: CallState[] = []
  function flush() {
    flushContent()
    // Many bytes that wait are scanned now all the same: a rope of small deltas kept alive from read
    // to read costs the garbage collector more than the scan.
    if (last && last.pending.length >= 256) scanArguments(last)
    if (dueCalls.length === 0) return
    for (const call of dueCalls) emitPartial(call, false)
    dueCalls.length = 0
  }

  // The end of the text so far where a reasoning marker may start: held back until it is known.
  let held = ''
  let inThink = false
  const emitPart = (text: string) => text && emit({ type: inThink ? 'reasoning' : 'text', delta: text })
  /** Emits text, its reasoning blocks (every spelling `splitReasoning` reads) as reasoning and the markers not at all. */
  function emitText(delta: string) {
    const window = held + delta
    let from = 0
    REASONING_TAG.lastIndex = 0
    for (let match = REASONING_TAG.exec(window); match; match = REASONING_TAG.exec(window)) {
      emitPart(window.slice(from, match.index))
      inThink = opensReasoning(match)
      from = match.index + match[0].length
    }
    const tail = markerTail(window, from)
    emitPart(window.slice(from, tail))
    held = window.slice(tail)
  }

  function pushToolCall(fragment: ChatStreamToolCallDelta) {
    const fn = isRecord(fragment.function) ? fragment.function : {}
    const id = nonEmpty(fragment.id) ? fragment.id : undefined
    const name = nonEmpty(fn.name) ? fn.name : undefined
    let call: CallState | undefined
    if (typeof fragment.index === 'number' && Number.isInteger(fragment.index)) {
      call = byIndex.get(fragment.index)
      // Some servers number every call 0: a different id means another call all the same.
      if (call && id && call.id && id !== call.id) call = undefined
      if (!call) {
        call = startCall()
        byIndex.set(fragment.index, call)
      }
    } else {
      call = last
      const newId = id && call?.id && id !== call.id
      const newName = name && call?.name && name !== call.name
      if (!call || newId || newName) call = startCall()
    }
    last = call
    for (const key in fragment) {
      // Compared one by one: a Set lookup per fragment and key costs more.
      if (key !== 'index' && key !== 'function' && key !== 'id' && key !== 'type' && key !== '__proto__' && fragment[key] != null && call.extra?.[key] === undefined) {
        ;(call.extra ??= Object.create(null) as Record<string, unknown>)[key] = fragment[key]
      }
    }
    if (id && !call.id) call.id = id
    if (nonEmpty(fragment.type)) call.type = fragment.type
    if (name && name !== call.name) {
      // A server that repeats the growing name replaces it; one that splits it appends the piece.
      call.name = call.name && !name.startsWith(call.name) ? call.name + name : name
    }
    const args = fn.arguments
    if (typeof args === 'string' && args !== '') {
      // Once a server sent the arguments whole as an object, later string bytes would only repeat them.
      if (call.object) return
      call.pending += args
      if (dueCalls.at(-1) !== call && isDue(call, sizeOf(call))) dueCalls.push(call)
      emit(argumentsEvent(args, call.position, own(call.name)))
    } else if (isRecord(args)) {
      scanArguments(call)
      call.object = args
      emit(argumentsEvent(JSON.stringify(args), call.position, own(call.name)))
      emitPartial(call, true)
    }
  }

  return {
    flush,
    endsInsideCall() {
      flush()
      if (finishReason !== null) return false
      const call = calls.at(-1)
      if (call) {
        scanArguments(call)
        return !call.object && !call.json.complete()
      }
      if (functionCall) {
        const reader = createPartialJsonReader()
        reader.push(functionCall.arguments)
        return !reader.complete()
      }
      return contentCall?.markup === false && !contentCall.json.complete()
    },
    push(chunk) {
      if (!isRecord(chunk)) return
      // Named reads and locals, not a loop over keys: a keyed read or store per chunk and key is slow.
      if (id === undefined) id = chunk.id
      if (created === undefined) created = chunk.created
      if (model === undefined) model = chunk.model
      if (fingerprint === undefined) fingerprint = chunk.system_fingerprint
      if (isRecord(chunk.usage)) usage = chunk.usage
      if (!Array.isArray(chunk.choices)) return
      for (const choice of chunk.choices) {
        // One choice is requested; a server that sends more is answered by the first.
        if (!isRecord(choice) || (typeof choice.index === 'number' && choice.index !== 0)) continue
        if (nonEmpty(choice.finish_reason)) finishReason = choice.finish_reason
        // A few servers send the last piece as a whole `message` instead of a `delta`.
        const delta = isRecord(choice.delta) ? choice.delta : isRecord(choice.message) ? choice.message : undefined
        if (!delta) continue
        if (nonEmpty(delta.role)) role = delta.role
        deltaLists.push(delta)
        const thinking = delta.reasoning_content
        if (nonEmpty(thinking)) {
          reasoningContent.append(thinking)
          emit({ type: 'reasoning', delta: thinking })
        }
        // Some servers fill both fields with the same text: show it once, keep both as sent.
        if (nonEmpty(delta.reasoning)) {
          reasoning.append(delta.reasoning)
          if (delta.reasoning !== thinking) emit({ type: 'reasoning', delta: delta.reasoning })
        }
        if (nonEmpty(delta.content)) pushText(delta.content)
        else if (Array.isArray(delta.content)) {
          for (const part of delta.content) {
            // Typed reasoning parts (Magistral's `thinking`) are reasoning, as `invoke` reads them.
            const read = readContentPart(part)
            if (read.reasoning) {
              reasoning.append(read.reasoning)
              emit({ type: 'reasoning', delta: read.reasoning })
            } else if (isRecord(part) && nonEmpty(read.text)) pushText(read.text)
          }
        }
        if (nonEmpty(delta.refusal)) refusal.append(delta.refusal)
        if (Array.isArray(delta.tool_calls)) {
          flushContent()
          for (const fragment of delta.tool_calls) if (isRecord(fragment)) pushToolCall(fragment)
        }
        const legacy = delta.function_call
        if (isRecord(legacy)) {
          functionCall ??= { name: '', arguments: '' }
          if (nonEmpty(legacy.name) && !functionCall.name) functionCall.name = legacy.name
          if (nonEmpty(legacy.arguments)) {
            functionCall.arguments += legacy.arguments
            emit(argumentsEvent(legacy.arguments, 0, own(functionCall.name)))
          }
        }
      }
    },
    finish() {
      flush()
      emitPart(held)
      for (const call of calls) emitPartial(call, true)
      if (contentCall && calls.length === 0) emitPartial(contentCall, true)
      const message: ChatResponseMessage = { ...deltaLists.result(), role: role ?? 'assistant', content: content.length === 0 ? null : content.toString() }
      if (calls.length > 0) {
        message.tool_calls = calls.map((call, index): ChatToolCall => ({
          ...call.extra,
          ...(call.id ? { id: call.id } : {}),
          type: call.type ?? 'function',
          index,
          function: { name: call.name, arguments: call.object ?? call.json.text() },
        }))
      }
      if (functionCall) message.function_call = functionCall
      if (reasoningContent.length > 0) message.reasoning_content = reasoningContent.toString()
      if (reasoning.length > 0) message.reasoning = reasoning.toString()
      if (refusal.length > 0) message.refusal = refusal.toString()
      const meta: Record<string, unknown> = { id, object: 'chat.completion', created, model, system_fingerprint: fingerprint }
      for (const key in meta) if (meta[key] === undefined) delete meta[key]
      return {
        ...meta,
        choices: [{ index: 0, message, finish_reason: finishReason }],
        ...(usage ? { usage } : {}),
      }
    },
  }
}
