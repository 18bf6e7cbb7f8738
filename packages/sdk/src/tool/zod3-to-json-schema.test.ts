import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { z as z3, type ZodTypeAny } from 'zod3'
import { zodToJsonSchema } from 'zod-to-json-schema'
import { isInvokeError } from '../errors/invoke-error'
import { compactJsonSchema, toToolJsonSchema } from './schema'
import { zod3Schema } from './zod3-schema'
import { zod3ToJsonSchema } from './zod3-to-json-schema'

/** What the SDK sent for a zod 3 schema before: zod-to-json-schema, then the same compaction. */
function reference(schema: ZodTypeAny): Record<string, unknown> {
  // `as never`: zod-to-json-schema is typed against zod 4's `zod/v3`, not the zod 3 package.
  return compactJsonSchema(zodToJsonSchema(schema as never, { $refStrategy: 'none', effectStrategy: 'input', pipeStrategy: 'input' }))
}

function converted(schema: ZodTypeAny): Record<string, unknown> {
  return compactJsonSchema(zod3ToJsonSchema(schema))
}

/** Equal as values and as the text the model reads (key order included). */
function expectSameAsReference(schema: ZodTypeAny): void {
  const expected = reference(schema)
  const actual = converted(schema)
  expect(actual).toEqual(expected)
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected))
}

enum Colour {
  Red = 'red',
  Green = 'green',
}
enum Level {
  Low,
  High = 10,
}
enum Mixed {
  Off = 0,
  On = 'on',
}
const Direction = { Up: 'UP', Down: 'DOWN' } as const

interface TreeNode {
  name: string
  children?: TreeNode[]
}
const Tree: z3.ZodType<TreeNode> = z3.object({ name: z3.string(), children: z3.array(z3.lazy(() => Tree)).optional() })
const Expression: ZodTypeAny = z3.union([z3.number(), z3.object({ op: z3.enum(['+', '-']), left: z3.lazy(() => Expression), right: z3.lazy(() => Expression) })])

const index = () => z3.number().int().min(0).describe('Element index from the page state')
/** The browser fixture's actions (packages/sdk/src/repair/__fixtures__/browser-tools.ts), in zod 3. */
const browserActions = {
  done: z3.object({ text: z3.string().describe('Final answer for the user'), success: z3.boolean().default(true) }),
  wait: z3.object({ seconds: z3.number().int().min(0).max(60).default(3) }),
  ask_user: z3.object({ question: z3.string() }),
  click_element_by_index: z3.object({ index: index(), while_holding_ctrl: z3.boolean().default(false) }),
  input_text: z3.object({ index: index(), text: z3.string(), clear: z3.boolean().default(true) }),
  select_dropdown_option: z3.object({ index: index(), text: z3.string() }),
  scroll: z3.object({ down: z3.boolean().default(true), num_pages: z3.number().min(0.1).max(10).default(1), index: z3.number().int().min(0).optional() }),
  scroll_horizontally: z3.object({ right: z3.boolean().default(true), pixels: z3.number().int().min(1).max(5000).default(300), index: z3.number().int().min(0).optional() }),
}
const reflection = {
  evaluation_previous_goal: z3.string().optional().describe('One sentence: did the last action work?'),
  memory: z3.string().optional(),
  next_goal: z3.string().optional(),
}

const Base = z3.object({ id: z3.string().uuid(), tags: z3.array(z3.string()).default([]) })

/** [name, schema]: every type and check the converter reads, alone and nested. */
const corpus: Array<[string, ZodTypeAny]> = [
  // strings
  ['string', z3.string()],
  ['string min/max', z3.string().min(1).max(20)],
  ['string length', z3.string().length(5)],
  ['string bounds merged', z3.string().min(2).min(4).max(10).max(8).length(6)],
  ['string email', z3.string().email()],
  ['string url', z3.string().url()],
  ['string uuid', z3.string().uuid()],
  ['string datetime', z3.string().datetime({ offset: true })],
  ['string date/time/duration', z3.object({ date: z3.string().date(), time: z3.string().time(), duration: z3.string().duration() })],
  ['string regex', z3.string().regex(/^[a-z]+\d*$/i)],
  ['string two formats', z3.string().email().url().uuid()],
  ['string three patterns', z3.string().regex(/a/).startsWith('https://').endsWith('.json')],
  ['string includes', z3.string().includes('a+b (c)')],
  ['string ip', z3.object({ any: z3.string().ip(), v4: z3.string().ip({ version: 'v4' }), v6: z3.string().ip({ version: 'v6' }) })],
  ['string cidr', z3.object({ any: z3.string().cidr(), v4: z3.string().cidr({ version: 'v4' }), v6: z3.string().cidr({ version: 'v6' }) })],
  ['string ids', z3.object({ cuid: z3.string().cuid(), cuid2: z3.string().cuid2(), ulid: z3.string().ulid(), nanoid: z3.string().nanoid(), jwt: z3.string().jwt() })],
  ['string encodings', z3.object({ base64: z3.string().base64(), base64url: z3.string().base64url(), emoji: z3.string().emoji() })],
  ['string transforms', z3.string().trim().toLowerCase().toUpperCase().min(1)],
  ['string described', z3.string().describe('A search query')],
  // numbers
  ['number', z3.number()],
  ['int', z3.number().int()],
  ['int range', z3.number().int().min(0).max(10)],
  ['exclusive bounds', z3.number().gt(0).lt(1)],
  ['signs', z3.object({ a: z3.number().positive(), b: z3.number().nonnegative(), c: z3.number().negative(), d: z3.number().nonpositive() })],
  ['multipleOf', z3.object({ a: z3.number().multipleOf(5), b: z3.number().step(0.5) })],
  ['safe and finite', z3.number().int().safe().finite()],
  ['last bound wins', z3.number().min(1).min(3).max(9).lte(7).gt(2)],
  ['bigint', z3.bigint()],
  ['bigint checks', z3.bigint().min(0n).max(100n).multipleOf(5n)],
  ['bigint exclusive', z3.bigint().gt(-5n).lt(5n)],
  // other primitives
  ['boolean', z3.boolean()],
  ['date', z3.date().min(new Date(0))],
  ['coerced date', z3.object({ when: z3.coerce.date() })],
  ['null', z3.null()],
  ['undefined', z3.undefined()],
  ['any', z3.any()],
  ['unknown', z3.unknown()],
  ['never', z3.never()],
  ['nan', z3.nan()],
  ['void root', z3.void()],
  ['symbol and function properties dropped', z3.object({ kept: z3.string(), symbol: z3.symbol(), run: z3.function(), nothing: z3.void() })],
  // literals and enums
  ['literals', z3.object({ s: z3.literal('click'), n: z3.literal(3), b: z3.literal(true), big: z3.literal(10n) })],
  ['enum', z3.enum(['low', 'medium', 'high'])],
  ['native enums', z3.object({ colour: z3.nativeEnum(Colour), level: z3.nativeEnum(Level), mixed: z3.nativeEnum(Mixed), direction: z3.nativeEnum(Direction) })],
  // objects
  ['object required/optional/default', z3.object({ a: z3.string(), b: z3.number().optional(), c: z3.boolean().default(false) })],
  ['nested objects', z3.object({ outer: z3.object({ inner: z3.object({ leaf: z3.string().describe('deep') }).describe('middle') }) })],
  ['strict', z3.object({ a: z3.string() }).strict()],
  ['passthrough', z3.object({ a: z3.string() }).passthrough()],
  ['strip', z3.object({ a: z3.string() }).strict().strip()],
  ['catchall', z3.object({ a: z3.string() }).catchall(z3.number().int())],
  ['catchall unrepresentable', z3.object({ a: z3.string() }).catchall(z3.function())],
  ['empty object', z3.object({})],
  ['partial/required', z3.object({ p: Base.partial(), r: Base.partial().required() })],
  ['extend/merge/pick/omit', z3.object({ e: Base.extend({ more: z3.number() }), m: Base.merge(z3.object({ x: z3.null() })), p: Base.pick({ id: true }), o: Base.omit({ id: true }) })],
  ['optional by validation', z3.object({ any: z3.any(), unknown: z3.unknown(), pre: z3.preprocess((value) => value ?? 1, z3.number()), caught: z3.string().catch('x'), undef: z3.undefined(), or: z3.union([z3.string(), z3.undefined()]) })],
  // arrays, tuples, records, maps, sets
  ['array', z3.array(z3.string())],
  ['array checks', z3.object({ a: z3.array(z3.number()).min(1).max(5), b: z3.array(z3.number()).length(3), c: z3.array(z3.number()).nonempty() })],
  ['array of any/unknown', z3.object({ any: z3.array(z3.any().describe('lost')), unknown: z3.array(z3.unknown()) })],
  ['array of optional', z3.array(z3.string().optional())],
  ['array of unrepresentable', z3.array(z3.function())],
  ['tuple', z3.tuple([z3.string(), z3.number().int()])],
  ['tuple with rest', z3.tuple([z3.string()]).rest(z3.boolean())],
  ['tuple dropping a part', z3.tuple([z3.string(), z3.symbol()])],
  ['records', z3.object({ plain: z3.record(z3.number()), checked: z3.record(z3.string().min(2).regex(/^[a-z]+$/), z3.boolean()), enumKeys: z3.record(z3.enum(['a', 'b']), z3.string()), branded: z3.record(z3.string().min(1).describe('key').brand('Key'), z3.number()), unrepresentable: z3.record(z3.string(), z3.void()) })],
  ['map', z3.map(z3.string(), z3.object({ n: z3.number() }))],
  ['set', z3.set(z3.string()).min(1).max(3)],
  // wrappers
  ['optional at root', z3.string().optional()],
  ['nullables', z3.object({ s: z3.string().nullable(), checked: z3.string().min(1).nullable(), object: z3.object({ a: z3.number() }).nullable(), both: z3.number().nullable().optional(), inner: z3.string().optional().nullable(), nothing: z3.void().nullable() })],
  ['nullable described inside', z3.object({ a: z3.string().describe('kept').nullable(), b: z3.nullable(z3.string().describe('lost')) })],
  ['defaults', z3.object({ a: z3.string().default('x').describe('described default'), b: z3.object({ n: z3.number() }).default({ n: 1 }), c: z3.string().optional().default('y'), d: z3.array(z3.string()).default(() => ['fresh']), e: z3.string().default('a').default('b') })],
  ['catch/readonly/brand', z3.object({ c: z3.number().catch(0), r: z3.array(z3.string()).readonly(), b: z3.string().brand('UserId') })],
  ['effects', z3.object({ refined: z3.string().refine((value) => value.length > 0), superRefined: z3.number().superRefine(() => undefined), transformed: z3.string().transform(Number).describe('outer wins'), pre: z3.preprocess(String, z3.string().min(1)) })],
  ['pipeline', z3.object({ n: z3.string().pipe(z3.coerce.number()), optional: z3.string().optional().pipe(z3.string().optional()) })],
  ['promise', z3.promise(z3.string())],
  ['lazy non-recursive', z3.object({ later: z3.lazy(() => z3.string().min(1)).describe('lazy'), optional: z3.lazy(() => z3.number()).optional() })],
  ['recursive tree', Tree],
  ['mutually recursive expression', Expression],
  // unions and intersections
  ['union of primitives', z3.union([z3.string(), z3.number(), z3.boolean(), z3.null()])],
  ['union with repeated type', z3.union([z3.string(), z3.string(), z3.bigint()])],
  ['union with a checked member', z3.union([z3.string().min(1), z3.number()])],
  ['union of literals', z3.union([z3.literal('a'), z3.literal(1), z3.literal(null), z3.literal(true), z3.literal('a'), z3.literal(2n)])],
  ['union of literals, one described', z3.union([z3.literal('a').describe('first'), z3.literal('b')])],
  ['union of enums', z3.union([z3.enum(['a', 'b']), z3.enum(['b', 'c'])])],
  ['mixed union', z3.union([z3.string(), z3.object({ a: z3.number() }), z3.array(z3.string())])],
  ['union with optional and unrepresentable', z3.union([z3.string().optional(), z3.function(), z3.number()])],
  ['union of nothing representable', z3.object({ gone: z3.union([z3.function(), z3.symbol()]), kept: z3.string() })],
  ['discriminated union', z3.discriminatedUnion('type', [z3.object({ type: z3.literal('click'), index: index() }), z3.object({ type: z3.literal('type'), text: z3.string() }).describe('Type text')])],
  ['intersection of objects', z3.intersection(z3.object({ a: z3.string() }), z3.object({ b: z3.number() }).passthrough())],
  ['nested intersection', z3.object({ a: z3.string() }).and(z3.object({ b: z3.number() })).and(z3.object({ c: z3.boolean() }).strict())],
  ['intersection with patterned string', z3.intersection(z3.string().regex(/a/).regex(/b/), z3.string().max(3))],
  ['intersection with an unrepresentable side', z3.intersection(z3.function(), z3.object({ a: z3.string() }))],
  // the shapes tools use
  ...Object.entries(browserActions).map(([name, schema]): [string, ZodTypeAny] => [`browser action ${name}`, schema]),
  ['macro-like object of actions', z3.object({ ...reflection, action: z3.object(Object.fromEntries(Object.entries(browserActions).map(([name, schema]) => [name, schema.optional()]))).strict() })],
  ['macro-like union of one-key actions', z3.object({ ...reflection, action: z3.array(z3.union(Object.entries(browserActions).map(([name, schema]) => z3.object({ [name]: schema })) as unknown as [ZodTypeAny, ZodTypeAny])).min(1) })],
  ['discriminated macro', z3.object({ thought: z3.string(), action: z3.discriminatedUnion('name', [z3.object({ name: z3.literal('done'), input: browserActions.done }), z3.object({ name: z3.literal('wait'), input: browserActions.wait.default({}) })]) })],
  ['search tool', z3.object({ query: z3.string().min(1).describe('What to search for'), limit: z3.number().int().positive().max(50).default(10), filters: z3.object({ site: z3.string().url().optional(), after: z3.string().date().optional(), kinds: z3.array(z3.enum(['news', 'blog', 'paper'])).optional() }).partial().optional() }).describe('Search the web')],
]

describe('zod3ToJsonSchema', () => {
  let warn: ReturnType<typeof vi.spyOn>
  // zod-to-json-schema warns on every recursive reference it meets.
  beforeAll(() => {
    warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
  })
  afterAll(() => warn.mockRestore())

  describe('against zod-to-json-schema', () => {
    it('should hold a corpus of more than 60 schemas', () => {
      expect(corpus.length).toBeGreaterThan(60)
      expect(new Set(corpus.map(([name]) => name)).size).toBe(corpus.length)
    })

    it.each(corpus)('should convert %s as zod-to-json-schema did', (_name, schema) => {
      expectSameAsReference(schema)
      // What the model is sent for the wrapped schema: the same, key order included.
      expect(JSON.stringify(toToolJsonSchema(zod3Schema(schema)))).toBe(JSON.stringify(converted(schema)))
    })

    it('should agree on generated schemas', () => {
      fc.assert(
        fc.property(arbitrarySchema(), (schema) => {
          expectSameAsReference(schema)
        }),
        { numRuns: 300 },
      )
    })
  })

  // Deliberate differences, each where zod-to-json-schema's answer misleads the model or crashes.
  describe('where it differs from zod-to-json-schema', () => {
    it('should describe z.literal(null) as null and z.literal(undefined) as nothing, not as an object', () => {
      expect(reference(z3.literal(null))).toEqual({ type: 'object' })
      expect(converted(z3.literal(null))).toEqual({ type: 'null' })
      expect(converted(z3.object({ gone: z3.literal(undefined) }))).toEqual({ type: 'object', properties: { gone: { not: {} } }, additionalProperties: false })
      expect(reference(z3.union([z3.literal('a'), z3.literal(undefined)]))).toEqual({ anyOf: [{ type: 'string', const: 'a' }, { type: 'object' }] })
      expect(converted(z3.union([z3.literal('a'), z3.literal(undefined)]))).toEqual({ anyOf: [{ type: 'string', const: 'a' }, { not: {} }] })
    })

    it('should not turn a w in startsWith/endsWith/includes into \\w (any word character)', () => {
      // zod-to-json-schema's list of letters that need no escape misses w and W.
      expect(reference(z3.string().startsWith('www.'))).toEqual({ type: 'string', pattern: String.raw`^\w\w\w\.` })
      expect(converted(z3.string().startsWith('www.'))).toEqual({ type: 'string', pattern: String.raw`^www\.` })
      expect(new RegExp(converted(z3.string().includes('W-w')).pattern as string).test('W-w')).toBe(true)
    })

    it('should stop at a lazy that returns itself, which zod-to-json-schema cannot convert', () => {
      const Loop: ZodTypeAny = z3.lazy(() => Loop)
      expect(() => reference(Loop)).toThrow(RangeError)
      // Not required: zod's own isOptional() overflows on it too, and zod-to-json-schema reads that as optional.
      expect(converted(z3.object({ loop: Loop }))).toEqual({ type: 'object', properties: { loop: {} }, additionalProperties: false })
    })
  })

  describe('recursion', () => {
    it('should describe a recursive reference as anything, once, like before', () => {
      expect(converted(Tree)).toEqual({
        type: 'object',
        properties: { name: { type: 'string' }, children: { type: 'array', items: {} } },
        required: ['name'],
        additionalProperties: false,
      })
    })

    it('should stop a getter that builds a new schema on every call at its second visit', () => {
      const node = (): ZodTypeAny => z3.object({ value: z3.number(), next: z3.lazy(node).optional() })
      expect(converted(node())).toEqual({
        type: 'object',
        properties: { value: { type: 'number' }, next: { type: 'object', properties: { value: { type: 'number' }, next: {} }, required: ['value'], additionalProperties: false } },
        required: ['value'],
        additionalProperties: false,
      })
    })

    it('should bound nested lazies whose getters are new every time', () => {
      const node = (depth: number): ZodTypeAny => z3.object({ depth: z3.literal(depth), next: z3.lazy(() => node(depth + 1)) })
      const json = JSON.stringify(converted(node(0)))
      expect(json).toContain('"const":8')
      expect(json).not.toContain('"const":9')
    })

    it('should refuse, as a config error, a fresh-lazy tree too large to describe', () => {
      const node = (): ZodTypeAny => z3.object(Object.fromEntries(['a', 'b', 'c', 'd', 'e', 'f'].map((key) => [key, z3.lazy(() => node())])))
      const error = catchError(() => zod3ToJsonSchema(node()))
      expect(isInvokeError(error) && error.type).toBe('config_error')
      expect((error as Error).message).toMatch(/more than 10000 parts: a z\.lazy getter builds a new schema on every call\. Return one schema object from it/)
    })
  })

  describe('malformed schemas', () => {
    it('should report a part that is not a zod 3 schema as a config error naming where it is', () => {
      const mixed = z3.object({ outer: z3.object({ inner: z.string() as unknown as ZodTypeAny }) })
      const error = catchError(() => zod3ToJsonSchema(mixed))
      expect(isInvokeError(error) && error.type).toBe('config_error')
      expect((error as Error).message).toBe('[wildcall] A tool input schema has a part at "outer.inner" that is not a zod 3 schema (it is a zod 4 one). Build the whole schema with one zod version, 3.25+ or 4.')
      expect((catchError(() => zod3ToJsonSchema({ _def: {} })) as Error).message).toMatch(/^\[wildcall\] A tool input schema is not a zod 3 schema\./)
    })

    it('should turn a part that throws when read into a config error, not a TypeError', () => {
      const broken = z3.object({ a: z3.string() })
      ;(broken._def as { shape: unknown }).shape = undefined
      const throwing = z3.object({ a: z3.string().default(() => { throw new Error('no default today') }) })
      for (const schema of [broken, throwing]) {
        const error = catchError(() => zod3ToJsonSchema(schema))
        expect(isInvokeError(error) && error.type).toBe('config_error')
        expect((error as Error).message).toMatch(/^\[wildcall\] A zod 3 tool input schema could not be converted to JSON Schema \(.+\)\. Build it from zod 3\.25\+ constructors/)
      }
    })
  })

  describe('through zod3Schema and toToolJsonSchema', () => {
    it('should send the converted schema and make bigints JSON numbers', () => {
      const schema = z3.object({ id: z3.bigint().min(1n).default(5n), kind: z3.literal(7n) })
      const json = toToolJsonSchema(zod3Schema(schema))
      expect(JSON.parse(JSON.stringify(json))).toEqual({
        type: 'object',
        properties: { id: { type: 'integer', format: 'int64', minimum: 1, default: 5 }, kind: { type: 'integer', const: 7 } },
        required: ['kind'],
        additionalProperties: false,
      })
    })

    it('should keep a field named __proto__ as a field', () => {
      const json = toToolJsonSchema(zod3Schema(z3.object({ ['__proto__']: z3.string(), ok: z3.number() }))) as { properties: Record<string, unknown>; required: string[] }
      expect(Object.getPrototypeOf(json.properties)).toBe(Object.prototype)
      expect(Object.keys(json.properties)).toEqual(['__proto__', 'ok'])
      expect(JSON.stringify(json)).toContain('"__proto__":{"type":"string"}')
      expect(json.required).toEqual(['__proto__', 'ok'])
    })
  })
})

function catchError(run: () => unknown): unknown {
  try {
    run()
  } catch (error) {
    return error
  }
  throw new Error('expected a throw')
}

/** Random zod 3 schemas from the constructors and checks tool inputs use. */
function arbitrarySchema(): fc.Arbitrary<ZodTypeAny> {
  const text = fc.constantFrom('a', 'id', 'x-y', 'Query.', '2024')
  const key = fc.constantFrom('a', 'b', 'query', 'index', 'items', 'when')
  const description = fc.option(fc.constantFrom('An index', 'What to type', ''), { nil: undefined })
  const stringCheck = fc.oneof(
    fc.nat(20).map((value) => (schema: z3.ZodString) => schema.min(value)),
    fc.nat(20).map((value) => (schema: z3.ZodString) => schema.max(value)),
    fc.nat(20).map((value) => (schema: z3.ZodString) => schema.length(value)),
    fc.constantFrom<(schema: z3.ZodString) => z3.ZodString>(
      (schema) => schema.email(),
      (schema) => schema.url(),
      (schema) => schema.uuid(),
      (schema) => schema.datetime(),
      (schema) => schema.ip(),
      (schema) => schema.cuid(),
      (schema) => schema.regex(/^[a-z]+$/),
      (schema) => schema.trim(),
    ),
    text.map((value) => (schema: z3.ZodString) => schema.startsWith(value)),
    text.map((value) => (schema: z3.ZodString) => schema.includes(value)),
  )
  const numberCheck = fc.oneof(
    fc.constant((schema: z3.ZodNumber) => schema.int()),
    fc.integer({ min: -50, max: 50 }).map((value) => (schema: z3.ZodNumber) => schema.min(value)),
    fc.integer({ min: -50, max: 50 }).map((value) => (schema: z3.ZodNumber) => schema.lt(value)),
    fc.double({ min: 0.5, max: 10, noNaN: true }).map((value) => (schema: z3.ZodNumber) => schema.multipleOf(value)),
  )
  const leaf = fc.oneof(
    fc.array(stringCheck, { maxLength: 3 }).map((checks) => checks.reduce((schema, check) => check(schema), z3.string())),
    fc.array(numberCheck, { maxLength: 3 }).map((checks) => checks.reduce((schema, check) => check(schema), z3.number())),
    fc.constantFrom<ZodTypeAny>(z3.boolean(), z3.null(), z3.any(), z3.unknown(), z3.date(), z3.bigint(), z3.enum(['a', 'b']), z3.void()),
    fc.oneof(text, fc.integer(), fc.boolean()).map((value) => z3.literal(value)),
  )
  const { schema } = fc.letrec<{ schema: ZodTypeAny; node: ZodTypeAny }>((tie) => ({
    schema: fc.tuple(fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('node')), description).map(([schema, text]) => (text === undefined ? schema : schema.describe(text))),
    node: fc.oneof(
      fc.dictionary(key, tie('schema'), { maxKeys: 4 }).chain((shape) =>
        fc.constantFrom<ZodTypeAny>(z3.object(shape), z3.object(shape).strict(), z3.object(shape).passthrough(), z3.object(shape).partial(), z3.object(shape).catchall(z3.string())),
      ),
      tie('schema').map((item) => z3.array(item)),
      fc.tuple(tie('schema'), fc.nat(3)).map(([item, size]) => z3.array(item).min(size)),
      tie('schema').map((inner) => inner.optional()),
      tie('schema').map((inner) => inner.nullable()),
      tie('schema').map((inner) => inner.default('fallback')),
      tie('schema').map((inner) => inner.refine(() => true)),
      tie('schema').map((inner) => inner.catch(undefined)),
      tie('schema').map((inner) => z3.record(inner)),
      fc.array(tie('schema'), { minLength: 2, maxLength: 4 }).map((options) => z3.union(options as [ZodTypeAny, ZodTypeAny])),
      fc.tuple(tie('schema'), tie('schema')).map(([left, right]) => z3.intersection(left, right)),
      fc.array(tie('schema'), { minLength: 1, maxLength: 3 }).map((items) => z3.tuple(items as [ZodTypeAny])),
    ),
  }))
  return schema
}
