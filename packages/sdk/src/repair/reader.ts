/**
 * The reader contract: what a reader gets ({@link ReaderContext}), what it gives ({@link ReaderCall},
 * an {@link ExtractedCall} with its end), the {@link Reader} plugin itself and its streaming
 * {@link ReaderPreview}, and how the readers of a step are put in order ({@link composeReaders}).
 */

/** One call read from text, as the reading stage hands it to the repair. */
export interface ExtractedCall {
  /** The function name when the format carries one (markup, pythonic, Mistral …); undefined for a plain JSON value. */
  name?: string | undefined
  /**
   * Parsed arguments, or — for a JSON value found in text (plain, or inside a Hermes-style wrapper
   * or after a token such as `[TOOL_CALLS]`) — that value as is: envelopes such as
   * `{name, arguments}` are left for the caller to unwrap.
   */
  args: unknown
  /** Stable fix code of the format: `content-json` for JSON found in text, or `tool-markup:<family>`. */
  format: string
  /** Codes of repairs done while parsing (`lenient-json`, `python-literals`, `fenced` …). */
  fixes: string[]
  /** Offset in the text where the call starts; results are sorted by it. */
  start: number
  /**
   * For a JSON value without a name: a known tool or action name written just before it on the same
   * line (`scroll: {…}`, `` `scroll` with `{…}` ``). The caller tries it only when the value does not
   * resolve on its own.
   */
  nameHint?: string | undefined
  /**
   * For a JSON object without a name: the name written in a call's position right before it
   * (`web_search{…}`, `web_search({…})`, `web_search` alone on the line above), known or not. It is
   * the call's name unless the JSON names one itself.
   */
  calledName?: string | undefined
  /** The name of the reader that read it (`result.fixes` gets `reader:<name>`). */
  reader?: string | undefined
  /**
   * A call of a declared tool whose arguments (`args`, the text as written) no reading takes: it is
   * reported in `dropped` with why, never executed, and the other calls of its list stay.
   */
  unreadable?: boolean | undefined
}

/**
 * What a {@link Reader} gets beside the text: what the tools expect, and what earlier readers took.
 *
 * @example
 * ```ts
 * const reader: Reader = {
 *   name: 'at-call',
 *   formats: ['tool-markup:at-call'],
 *   read(text, context) {
 *     const match = /@(\w+)\((.*?)\)/.exec(text)
 *     if (!match || !context.names?.has(match[1]!) || context.claimed(match.index, match.index + match[0].length)) return undefined
 *     return [{ name: match[1], args: { text: match[2] }, format: 'tool-markup:at-call', fixes: [], start: match.index, end: match.index + match[0].length }]
 *   },
 * }
 * ```
 */
export interface ReaderContext {
  /** Known tool and action names: what decides whether `foo(x=1)` in prose or a bare `foo` is a call. */
  names: ReadonlySet<string> | undefined
  /** The field names of a known tool or action, for formats with no other mark of a call (`scroll down=true`). */
  fieldsOf?: (name: string) => ReadonlySet<string>
  /** Whether `[start, end)` overlaps a call an earlier reader took: that text is not read twice. */
  claimed(start: number, end: number): boolean
  /**
   * The input JSON Schema of a known tool or action. A reader of a format that writes values as text
   * passes the context to `decodeArgument` (from `@wildcall/sdk/readers`): the one schema-guided value
   * decoder of the built-in readers, so `{"a": 1}` stays text for a string field and is an object for
   * an object field.
   */
  schemaOf?: (name: string) => Record<string, unknown> | undefined
}

/**
 * One call a {@link Reader} found: the call, and where it is in the text. `args` may be a value the
 * repair unwraps further (an envelope `{ name, arguments }` when the format carries no name).
 *
 * @example
 * ```ts
 * const call: ReaderCall = { name: 'scroll', args: { down: true }, format: 'tool-markup:at-call', fixes: [], start: 0, end: 17 }
 * ```
 */
export interface ReaderCall extends ExtractedCall {
  /** Offset just after the call (its closer). */
  end: number
  /**
   * The text ends inside this call: the step fails with `output_truncated` unless another call
   * validates, and the cut call itself is never executed.
   */
  truncated?: boolean | undefined
}

/**
 * A response-side plugin: reads one text format (a model family's native tool-call markup) into
 * calls. The repair runs every reader of a step over the answer text, in one place and order:
 * `markup` readers first (the caller's and the adapters' own before the built-in ones), then the
 * JSON values of the text, then `fallback` readers over what nothing else took. Calls from all of
 * them are tried in text order and the first one that validates is the step.
 *
 * A reader returns only what the text spells: it never invents a call, a name or a value, and it
 * returns nothing for prose, code samples and other formats. Prove it with `testReader` from
 * `@wildcall/sdk/testing`. A value its format writes as text may stay text (the schema coercion types
 * it), or be decoded the way the built-in readers do: `decodeArgument(context, name, key, text, fixes)`
 * from `@wildcall/sdk/readers` types it by the field's schema (`context.schemaOf`).
 *
 * @example
 * ```ts
 * // `@@scroll down=true@@`: a made-up markup, read for every client created with it.
 * const atReader: Reader = {
 *   name: 'at-at',
 *   formats: ['tool-markup:at-at'],
 *   read(text) {
 *     const calls: ReaderCall[] = []
 *     for (const match of text.matchAll(/@@(\w+)((?: \w+=\S+)*)@@/g)) {
 *       const args = Object.fromEntries(match[2]!.trim().split(' ').filter(Boolean).map((pair) => pair.split('=')))
 *       calls.push({ name: match[1], args, format: 'tool-markup:at-at', fixes: [], start: match.index, end: match.index + match[0].length })
 *     }
 *     return calls
 *   },
 * }
 * const client = createClient({ baseURL, model, readers: [atReader] })
 * ```
 */
export interface Reader {
  /** Unique name, reported in `result.fixes` as `reader:<name>`. A name given twice runs once. */
  name: string
  /** The fix codes of the formats it reads (`tool-markup:<family>`). */
  formats: readonly string[]
  /**
   * When it runs: `markup` (the default) before the JSON values of the text, so JSON inside the
   * markup is the call's own; `json` for readers of JSON values; `fallback` after both and only
   * over text nothing else took (syntax that also occurs in prose or inside JSON strings).
   */
  stage?: 'markup' | 'json' | 'fallback'
  /** The calls in `text`, with their positions, or nothing. Must not throw; must stay linear in the text. */
  read(text: string, context: ReaderContext): readonly ReaderCall[] | undefined
  /**
   * Optional incremental preview for `client.stream()`: the arguments of a call while it is still
   * being written. `from` is where to start reading in the streamed content.
   */
  preview?(from: number): ReaderPreview
}

/**
 * Reads a call while it streams: each piece of content is pushed once, in order, so the preview
 * keeps its own state and the work stays linear in the length of the answer.
 *
 * @example
 * ```ts
 * const preview = reader.preview!(0)
 * preview.push(delta) // each new piece of content
 * if (preview.start >= 0) console.log(preview.name, preview.read())
 * ```
 */
export interface ReaderPreview {
  /** Where the call's arguments start in the content, or -1 while none has. */
  start: number
  /** The call's name, once written. */
  name?: string
  /** Reads the next piece of the content (starting at the `from` the preview was made with). */
  push(piece: string): void
  /** The arguments so far. */
  read(): Record<string, unknown>
}

/**
 * The readers of one step, in the order they run: readers not in `defaults` first (in the order
 * given), then `defaults`. A name given twice runs once: a reader named like a default one takes
 * that one's place, so a built-in reader an adapter declares runs where the built-in set puts it and
 * the results do not depend on who named it.
 */
export function composeReaders(extra: readonly Reader[] | undefined, defaults: readonly Reader[]): readonly Reader[] {
  if (!extra || extra.length === 0) return defaults
  const given = new Map<string, Reader>()
  for (const reader of extra) if (!given.has(reader.name)) given.set(reader.name, reader)
  const defaultNames = new Set(defaults.map((reader) => reader.name))
  const readers: Reader[] = []
  for (const [name, reader] of given) if (!defaultNames.has(name)) readers.push(reader)
  for (const reader of defaults) if (!readers.some((taken) => taken.name === reader.name)) readers.push(given.get(reader.name) ?? reader)
  return readers
}
