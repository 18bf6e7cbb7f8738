import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool } from '../tool/define-tool'
import type { ToolSet } from '../tool/types'
import { renderers, type CallRenderer } from './__fixtures__/render-calls'
import { repairToolCall } from './repair-tool-call'

type FieldKind = 'string' | 'nullable-string' | 'integer' | 'number' | 'boolean' | 'object' | 'array'

const SCHEMAS: Record<FieldKind, () => z.ZodType> = {
  string: () => z.string(),
  'nullable-string': () => z.string().nullable(),
  integer: () => z.number().int(),
  number: () => z.number(),
  boolean: () => z.boolean(),
  object: () => z.record(z.string(), z.unknown()),
  array: () => z.array(z.unknown()),
}

// Words a reader treats as something other than a tool name or a key (role and channel words,
// Python builtins and keywords, JSON words), and keys that name object internals.
const RESERVED = new Set([
  'true', 'false', 'null', 'none', 'nil', 'json', 'function', 'functions', 'call', 'calls', 'tool', 'tools', 'tool_call', 'tool_calls',
  'args', 'arguments', 'parameters', 'name', 'assistant', 'user', 'system', 'model', 'analysis', 'commentary', 'final', 'code',
  'print', 'repr', 'str', 'int', 'float', 'len', 'range', 'list', 'dict', 'tuple', 'set', 'type', 'if', 'for', 'while', 'return',
  'and', 'or', 'not', 'constructor', 'prototype', 'developer',
])
const identifier = fc.stringMatching(/^[A-Za-z]\w{0,10}$/).filter((word) => !RESERVED.has(word.toLowerCase()))

// Pieces of text that break naive readers: markup characters, references, quotes, delimiters of other
// formats, JSON-looking text, unicode, whitespace and line breaks at either end.
const FRAGMENTS = [
  '<', '>', 'a < b', 'x<y', '<=', '<b>bold</b>', '&', 'AT&T', '&amp;', '&lt;', '&#39;', '&#x3C;', '& ;', '"', "'", 'say "hi"', "it's",
  ',', ', ', '{', '}', '[', ']', ':', 'k: v', '{"a": 1}', '[1, 2]', '{}', 'true', 'None', 'null', '5', '-1.5e3', '<escape>', '<|"|>',
  'call:x{a:1}', 'f(x=1)', '</think>', '<think>', '<function=f>', '<tool_call>', '<invoke name="f">', '[TOOL_CALLS]', '<|tool_call_begin|>', ' to=functions.f', '[f(a=1)]', '{"name": "f", "arguments": {}}', '<start_function_call>call:f{}', '\n', '\n\n', ' ', '  ', '\t', '\r\n', 'é', '日本語', '😀', '\\', '\\n', 'London', 'a\nb<c', '=',
]
const text = fc.oneof(
  { weight: 3, arbitrary: fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 6 }).map((parts) => parts.join('')) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12, unit: 'grapheme' }) },
)
const integer = fc.integer({ min: -1_000_000, max: 1_000_000 })
// -0 has no text of its own: a format writes it as 0.
const number = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 }).map((value) => (value === 0 ? 0 : value))
const leaf = fc.oneof(text, integer, number, fc.boolean(), fc.constant(null))
const nested = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', maxDepth: 2 }, leaf, fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(identifier, tie('value'), { maxKeys: 3 })),
})).value

function valueOf(kind: FieldKind): fc.Arbitrary<unknown> {
  switch (kind) {
    case 'string':
      return text
    case 'nullable-string':
      return fc.oneof(text, fc.constant(null))
    case 'integer':
      return integer
    case 'number':
      return fc.oneof(integer, number)
    case 'boolean':
      return fc.boolean()
    case 'object':
      return fc.dictionary(identifier, nested, { maxKeys: 3 })
    case 'array':
      return fc.array(nested, { maxLength: 3 })
  }
}

/** Every string anywhere in a value. */
function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap(stringsIn)
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(stringsIn)
  return []
}

const NULL_WORDS = new Set(['null', 'None', 'nil'])

/** Whether every value nested in `value` is a string in a non-empty container, under keys other than `item` (see `CallRenderer.nestedText`). */
function nestedAsText(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0 && value.every((item) => typeof item === 'string' || nestedAsText(item))
  if (typeof value !== 'object' || value === null) return false
  const entries = Object.entries(value)
  return entries.length > 0 && entries.every(([key, item]) => key !== 'item' && (typeof item === 'string' || nestedAsText(item)))
}

/** Whether the format can carry this value in a field of this kind (see `CallRenderer.canWrite`). */
function writable(renderer: CallRenderer, kind: FieldKind, value: unknown): boolean {
  if (!stringsIn(value).every(renderer.canWrite)) return false
  if (renderer.nestedText && typeof value === 'object' && value !== null && Object.keys(value).length > 0 && !nestedAsText(value)) return false
  // A text format writes null as `None`/`null`: a nullable string field cannot carry that word as text.
  if (renderer.textValues && kind === 'nullable-string' && typeof value === 'string' && NULL_WORDS.has(value.trim())) return false
  return true
}

interface Case {
  name: string
  kinds: Record<string, FieldKind>
  args: Record<string, unknown>
}

const kind = fc.constantFrom<FieldKind>('string', 'nullable-string', 'integer', 'number', 'boolean', 'object', 'array')

function callCase(renderer: CallRenderer, name: fc.Arbitrary<string>): fc.Arbitrary<Case> {
  return fc
    .dictionary(identifier, kind, { minKeys: 1, maxKeys: 4 })
    .chain((kinds) =>
      fc.record({
        name,
        kinds: fc.constant(kinds),
        args: fc.record(Object.fromEntries(Object.entries(kinds).map(([key, fieldKind]) => [key, valueOf(fieldKind).filter((value) => writable(renderer, fieldKind, value))]))),
      }),
    )
}

function toolOf(kinds: Record<string, FieldKind>) {
  return defineTool({ description: 'a tool', inputSchema: z.object(Object.fromEntries(Object.entries(kinds).map(([key, fieldKind]) => [key, SCHEMAS[fieldKind]()]))) })
}

// Text the templates allow before the calls (Qwen3-Coder: trimmed content + `\n\n`; GLM, DeepSeek: directly).
const prose = fc.constantFrom('', 'Let me check.\n\n', 'Sure.\n', 'I will look that up with the tool. ', 'Checking: 1 < 2 & "quotes", {braces}.\n')

describe('round trip: render a call as the family template writes it, read it back through repairToolCall', () => {
  for (const renderer of renderers) {
    it(`should read back exactly the values written, for ${renderer.family}`, () => {
      fc.assert(
        fc.property(
          callCase(renderer, identifier),
          callCase(renderer, identifier),
          prose,
          (first, second, before) => {
            fc.pre(first.name !== second.name)
            const tools: ToolSet = { [first.name]: toolOf(first.kinds), [second.name]: toolOf(second.kinds) }
            const content = before + renderer.render([{ name: first.name, args: first.args }])
            const { toolCall, dropped } = repairToolCall({ role: 'assistant', content }, tools)
            expect(toolCall.name).toBe(first.name)
            expect(toolCall.args).toEqual(first.args)
            expect(dropped).toEqual([])
          },
        ),
        { numRuns: Number(process.env.ROUND_TRIP_RUNS ?? 100) },
      )
    })

    it.skipIf(renderer.single)(`should take the first of two calls and name the second in dropped with its values, for ${renderer.family}`, () => {
      fc.assert(
        fc.property(callCase(renderer, identifier), callCase(renderer, identifier), (first, second) => {
          fc.pre(first.name !== second.name)
          const tools: ToolSet = { [first.name]: toolOf(first.kinds), [second.name]: toolOf(second.kinds) }
          const content = renderer.render([
            { name: first.name, args: first.args },
            { name: second.name, args: second.args },
          ])
          const { toolCall, dropped } = repairToolCall({ role: 'assistant', content }, tools)
          expect(toolCall).toEqual({ name: first.name, args: first.args })
          expect(dropped).toEqual([{ name: second.name, args: second.args, reason: 'extra' }])
        }),
        { numRuns: Number(process.env.ROUND_TRIP_RUNS ?? 40) },
      )
    })
  }
})
