import { describe, expect, it } from 'vitest'
import { assertLinear, sizesBetween } from './measure-growth'
import type { Reader, ReaderCall, ReaderContext } from '../repair/reader'

/**
 * A call as a template renders it: a name and its arguments.
 *
 * @example
 * ```ts
 * const call: ReaderTestCall = { name: 'search', args: { query: 'a\nb<c', limit: 5 } }
 * ```
 */
export interface ReaderTestCall {
  name: string
  args: Record<string, unknown>
}

/**
 * Options of {@link testReader}.
 *
 * @example
 * ```ts
 * const options: ReaderTestOptions = { render: ({ name, args }) => `[TOOL_CALLS]${name}[ARGS]${JSON.stringify(args)}` }
 * ```
 */
export interface ReaderTestOptions {
  /** Writes one call the way the family's chat template does: the whole answer text. */
  render(call: ReaderTestCall): string
  /**
   * How the format writes scalars. `typed` (JSON-like formats): a value reads back as it was.
   * `text` (parameter markup): a top-level string, number, boolean or null may read back as the text
   * the template wrote (`5`, `True`, `None`), typed later by the schema-guided decoder; objects and
   * arrays still read back whole. Default `typed`.
   */
  scalars?: 'typed' | 'text'
  /** The calls to round-trip. Default: the kit's set (escapes, markup and JSON characters in strings, nesting, unicode, no arguments). */
  calls?: ReaderTestCall[]
  /** Further texts that hold no call at all, beside the kit's prose and code samples. */
  noCalls?: string[]
  /** Whether an answer may hold several calls (two are read back in order). Default `true`; `false` for formats of a whole answer. */
  several?: boolean
}

/**
 * Calls whose values carry what breaks readers: line breaks, markup and JSON characters, quotes,
 * spaces at the ends, unicode, nesting, several fields, none.
 */
const DEFAULT_CALLS: ReaderTestCall[] = [
  { name: 'search', args: { query: 'a\nb<c', limit: 5 } },
  { name: 'get_time', args: { tz: 'UTC' } },
  { name: 'click_element_by_index', args: { index: 3 } },
  { name: 'input_text', args: { text: 'He said "hi" & left: {x} [y] (z) <b>bold</b> = 1, \'single\'', clear: true } },
  { name: 'search', args: { query: 'weather', filter: { tags: ['a', 'b c'], nested: { ratio: 1.5, ok: false } } } },
  { name: 'input_text', args: { text: 'ünïcödé 漢字 🙂 — “quotes”' } },
  { name: 'input_text', args: { text: 'line one\n\nline three\n  indented' } },
  // Newlines and spaces at the ends are the value's own, never the format's layout.
  { name: 'input_text', args: { text: '\n  def f():\n    return 1\n\n' } },
  { name: 'done', args: {} },
]

const PROSE = [
  'I will search for the weather first, then get_time in Tokyo, and click_element_by_index 3 if needed.',
  'Done. Nothing else to do here — the page (and its form) is filled in.',
  'To search, call the search tool with a query; input_text takes text and clear.',
  'Key points:\n- search: looks things up\n- done: finishes\n\nLet me know what you think.',
  'The value of x = 5 and y = 10; use `a < b` and `[c]` freely.',
]

const CODE_SAMPLES = [
  '```js\n// search is defined in utils.js\nconst result = await fetch(url, { method: "POST", body: JSON.stringify(data) })\nif (result.ok) console.log(result.status)\n```',
  '```python\nimport json\nprint(json.dumps(data, indent=2), end="")\nfor item in items:\n    total += item.price\n```',
  '```html\n<div class="search"><input type="text" name="query"/><button>Search</button></div>\n```',
  '```sh\n$ curl -s https://example.com/api | jq .items\n```',
]

const context = (names: ReadonlySet<string>, fields: Map<string, Set<string>>, claimed: ReaderContext['claimed'] = () => false): ReaderContext => ({
  names,
  fieldsOf: (name) => fields.get(name) ?? new Set(),
  claimed,
})

/**
 * Calls whose string value is itself a rendered call, closer included, kept where the format writes
 * that value as a JSON string: such a format must end a call where its JSON ends, not at the first
 * closing tag, which may sit inside a string. (Formats of raw text values cannot tell the two apart.)
 */
function nestedCalls(calls: readonly ReaderTestCall[], render: ReaderTestOptions['render']): ReaderTestCall[] {
  const [first, second = first] = calls
  if (!first || !second) return []
  const candidates: ReaderTestCall[] = [
    { name: first.name, args: { text: render(first) } },
    { name: second.name, args: { text: `before ${render(second)} after`, note: render(first) } },
  ]
  return candidates.filter((call) => {
    const text = render(call)
    return Object.values(call.args).every((value) => text.includes(JSON.stringify(value)))
  })
}

/** The call a reading names, and its arguments, unwrapping an envelope `{ name, arguments }` of a format that carries no name of its own. */
function normalise(call: ReaderCall): { name?: string; args: unknown } {
  if (call.name !== undefined) return { name: call.name, args: call.args }
  const value = call.args
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const record = value as Record<string, unknown>
    if (typeof record.name === 'string') return { name: record.name, args: record.arguments ?? record.parameters ?? {} }
    const keys = Object.keys(record)
    if (keys.length === 1) return { name: keys[0], args: record[keys[0]!] }
  }
  return { args: value }
}

/** Whether `read` is `expected` as written: exactly, or (for `text` scalars) the text a template writes for it. */
function sameValue(read: unknown, expected: unknown, scalars: 'typed' | 'text', top: boolean): boolean {
  if (scalars === 'text' && top && typeof read === 'string' && (expected === null || typeof expected !== 'object')) {
    if (read === String(expected)) return true
    if (typeof expected === 'boolean') return read.toLowerCase() === String(expected)
    if (expected === null) return /^(?:null|none)$/i.test(read)
    if (typeof expected === 'number') return Number(read) === expected
    return false
  }
  if (Array.isArray(expected)) return Array.isArray(read) && read.length === expected.length && expected.every((item, index) => sameValue(read[index], item, scalars, false))
  if (typeof expected === 'object' && expected !== null) {
    if (typeof read !== 'object' || read === null || Array.isArray(read)) return false
    const keys = Object.keys(expected)
    return Object.keys(read).length === keys.length && keys.every((key) => Object.hasOwn(read, key) && sameValue((read as Record<string, unknown>)[key], (expected as Record<string, unknown>)[key], scalars, top))
  }
  return Object.is(read, expected)
}

/** A few simple renderings of a call in formats other readers own: Hermes JSON, `<function=…>` markup, a pythonic list, Mistral tokens. */
function otherFormats(call: ReaderTestCall): string[] {
  const json = JSON.stringify(call.args)
  const parameters = Object.entries(call.args)
    .map(([key, value]) => `<parameter=${key}>\n${typeof value === 'string' ? value : JSON.stringify(value)}\n</parameter>\n`)
    .join('')
  const keywords = Object.entries(call.args)
    .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
    .join(', ')
  return [
    `<tool_call>\n{"name": "${call.name}", "arguments": ${json}}\n</tool_call>`,
    `<tool_call>\n<function=${call.name}>\n${parameters}</function>\n</tool_call>`,
    `[${call.name}(${keywords})]`,
    `[TOOL_CALLS]${call.name}[ARGS]${json}`,
  ]
}

/**
 * The conformance kit for a {@link Reader}: registers vitest tests that check it
 * - has a name and the fix codes of its formats,
 * - reads back every call rendered the way its family's template writes it, with identical values,
 *   the calls of an answer in order, and text around them ignored (round trip),
 * - invents nothing: no call naming a known tool from prose or code samples, no call from another
 *   format's rendering that names a different tool than the one written, nothing thrown,
 * - stays linear on floods of its own openers and of markup and JSON characters.
 * Run it in the reader's own test file, like `testAdapter`.
 *
 * @example
 * ```ts
 * import { testReader } from '@wildcall/sdk/testing/vitest'
 * import { atReader } from './at-reader'
 *
 * testReader(atReader, {
 *   render: ({ name, args }) => `@@${name}${Object.entries(args).map(([key, value]) => ` ${key}=${value}`).join('')}@@`,
 *   scalars: 'text',
 *   calls: [{ name: 'scroll', args: { down: true, pages: 2 } }],
 * })
 * ```
 */
export function testReader(reader: Reader, options: ReaderTestOptions): void {
  registerReaderSuite({ describe, it }, reader, options)
}

/** What the readers' kit needs of a test runner: vitest's `describe` and `it` (with `it.each`, `it.skipIf`). */
export interface ReaderSuiteRunner {
  describe: (name: string, body: () => void) => void
  it: Pick<typeof it, 'each' | 'skipIf'> & ((name: string, body: () => unknown) => void)
}

/** Registers the readers' conformance suite with a test runner; {@link testReader} calls it with vitest's. */
export function registerReaderSuite({ describe, it }: ReaderSuiteRunner, reader: Reader, options: ReaderTestOptions): void {
  const scalars = options.scalars ?? 'typed'
  const given = options.calls ?? DEFAULT_CALLS
  const calls = [...given, ...nestedCalls(given, options.render)]
  const names = new Set(calls.map((call) => call.name))
  const fields = new Map<string, Set<string>>()
  for (const call of calls) for (const key of Object.keys(call.args)) (fields.get(call.name) ?? fields.set(call.name, new Set()).get(call.name)!).add(key)
  const read = (text: string) => reader.read(text, context(names, fields)) ?? []
  const complete = (text: string) => read(text).filter((call) => !call.truncated)

  describe(`testReader: ${reader.name}`, () => {
    it('should have a name and the fix codes of its formats', () => {
      expect(typeof reader.name).toBe('string')
      expect(reader.name).toMatch(/^[\w.:-]+$/)
      expect(Array.isArray(reader.formats) && reader.formats.length > 0).toBe(true)
      expect(typeof reader.read).toBe('function')
    })

    it.each(calls.map((call) => [`${call.name} ${JSON.stringify(call.args).slice(0, 60)}`, call] as const))('should read back %s exactly as rendered', (_label, call) => {
      const text = options.render(call)
      const found = complete(text)
      expect(found, `read nothing from ${JSON.stringify(text)}`).toHaveLength(1)
      const { name, args } = normalise(found[0]!)
      expect(name).toBe(call.name)
      expect(sameValue(args, call.args, scalars, true), `read ${JSON.stringify(args)} from ${JSON.stringify(text)}`).toBe(true)
      expect(found[0]!.start).toBeGreaterThanOrEqual(0)
      expect(found[0]!.end).toBeGreaterThan(found[0]!.start)
      expect(found[0]!.end).toBeLessThanOrEqual(text.length)
      if (reader.formats.length > 0) expect(reader.formats).toContain(found[0]!.format)
    })

    it.skipIf(options.several === false)('should read two calls of one answer in order, with text around them', () => {
      const [first, second] = [calls[0]!, calls.find((call) => call.name !== calls[0]!.name) ?? calls[1] ?? calls[0]!]
      const text = `Let me do that.\n\n${options.render(first)}\n${options.render(second)}\n`
      const found = complete(text).map(normalise)
      expect(found.map((call) => call.name)).toEqual([first.name, second.name])
    })

    it('should skip text an earlier reader took (context.claimed)', () => {
      const before = 'Taken by an earlier reader:\n'
      const text = `${before}${options.render(calls[0]!)}\n`
      const taken = { start: before.length, end: text.length - 1 }
      const overlapping = reader.read(text, context(names, fields, (start, end) => start < taken.end && taken.start < end)) ?? []
      expect(overlapping, `read ${JSON.stringify(overlapping)} from text context.claimed() reports as taken: skip a call whose range context.claimed(start, end) says an earlier reader took`).toEqual([])
    })

    it.each([...PROSE, ...CODE_SAMPLES, ...(options.noCalls ?? [])].map((text) => [text.slice(0, 50), text] as const))('should invent no call from %j', (_label, text) => {
      for (const call of read(text)) {
        const { name } = normalise(call)
        expect(name !== undefined && names.has(name), `invented ${JSON.stringify(call)}`).toBe(false)
      }
    })

    it('should read no different tool from a call written in another format', () => {
      for (const call of given) {
        for (const text of otherFormats(call)) {
          for (const found of read(text)) {
            const { name } = normalise(found)
            if (name !== undefined && names.has(name)) expect(name, `read ${JSON.stringify(found)} from ${JSON.stringify(text)}`).toBe(call.name)
          }
        }
      }
    })

    const rendered = options.render(calls[0]!)
    const floods: Array<[string, (size: number) => string]> = [
      ['its own opener', (size) => rendered.slice(0, Math.max(1, rendered.length >> 1)).repeat(Math.ceil(size / Math.max(1, rendered.length >> 1)))],
      ['its whole call', (size) => `${rendered}\n`.repeat(Math.ceil(size / (rendered.length + 1)))],
      ['<', (size) => '<'.repeat(size)],
      ['{', (size) => '{'.repeat(size)],
      ['(', (size) => 'f('.repeat(size / 2)],
      ['spaces and line breaks', (size) => ' \n'.repeat(size / 2)],
    ]
    it.each(floods)('should read a flood of %s in linear time', (label, make) => {
      // Time against size, fitted over 30 kB to 300 kB: an exponent near 1 when linear, 2 when quadratic.
      try {
        assertLinear((size) => {
          const text = make(size)
          return () => read(text)
        }, sizesBetween(30_000, 300_000), { what: `The reader's time on a flood of ${label}` })
      } catch (error) {
        throw new Error(`${(error as Error).message}. Bound every scan, and never rescan from each opener.`)
      }
    })
  })
}
