import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool } from '../tool/define-tool'
import type { ToolSet } from '../tool/types'
import { repairToolCall } from './repair-tool-call'

// Round trips for the Python-call family's readings of answers that are no plain literals: a call
// list rendered the way small models write it (bare words, subscripts, arithmetic, positional values,
// a last string left unclosed), read back through repairToolCall to exactly the values meant.

const RESERVED = new Set(['true', 'false', 'none', 'null', 'nil', 'print', 'repr', 'str', 'int', 'float', 'len', 'range', 'list', 'dict', 'tuple', 'set', 'type', 'if', 'for', 'while', 'return', 'and', 'or', 'not', 'constructor', 'prototype', 'functions', 'tools', 'default_api'])
const identifier = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/).filter((word) => !RESERVED.has(word))
const word = fc.oneof(identifier, fc.constantFrom('Paris', 'São_Paulo', 'Zürich', 'naïve', 'Ελλάδα', '東京', 'df', 'row', 'my_table'))
// Source texts a model writes unquoted for a string parameter, each read back as written.
const bare = fc.oneof(
  word,
  fc.tuple(word, word).map(([left, right]) => `${left}.${right}`),
  fc.tuple(word, word, fc.constantFrom('"', "'")).map(([name, key, quote]) => `${name}[${quote}${key}${quote}]`),
  fc.tuple(word, fc.nat(99)).map(([name, index]) => `${name}[${index}]`),
  fc.array(word, { minLength: 2, maxLength: 4 }).map((words) => words.join(' ')),
  fc.tuple(word, word).map(([module, name]) => `${module}.${name}()`),
  fc.date({ min: new Date('1990-01-01'), max: new Date('2090-01-01'), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10)),
)
const text = fc.string({ maxLength: 12, unit: 'grapheme' })
const python = (value: unknown): string => (value === null ? 'None' : typeof value === 'boolean' ? (value ? 'True' : 'False') : Array.isArray(value) ? `[${value.map(python).join(', ')}]` : JSON.stringify(value))
const spaced = (source: string) => fc.constantFrom('', ' ', '  ').map((space) => `${space}${source}${space}`)

type Kind = 'string' | 'integer' | 'number' | 'boolean' | 'list'
const SCHEMAS: Record<Kind, () => z.ZodType> = { string: () => z.string(), integer: () => z.number().int(), number: () => z.number(), boolean: () => z.boolean(), list: () => z.array(z.string()) }
const valueOf: Record<Kind, fc.Arbitrary<unknown>> = {
  string: text,
  integer: fc.integer({ min: -1e6, max: 1e6 }),
  number: fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 }).map((value) => (value === 0 ? 0 : value)),
  boolean: fc.boolean(),
  list: fc.array(text, { maxLength: 3 }),
}
const toolOf = (kinds: Record<string, Kind>) => defineTool({ description: 'a tool', inputSchema: z.object(Object.fromEntries(Object.entries(kinds).map(([key, kind]) => [key, SCHEMAS[kind]()]))) })
const fields = fc.dictionary(identifier, fc.constantFrom<Kind>('string', 'integer', 'number', 'boolean', 'list'), { minKeys: 1, maxKeys: 4 })

interface Expression {
  source: string
  value: number
}
// Constant arithmetic and the value Python gives it: each node worked out in the order Python does.
const expression: fc.Arbitrary<Expression> = fc.letrec<{ node: Expression }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', maxDepth: 3 },
    fc.integer({ min: 0, max: 999 }).map((value) => ({ source: String(value), value })),
    fc.integer({ min: 1, max: 99 }).map((tenths) => ({ source: (tenths / 10).toString(), value: tenths / 10 })),
    tie('node').map((inner) => ({ source: `-(${inner.source})`, value: -inner.value })),
    fc.tuple(tie('node'), fc.constantFrom('+', '-', '*', '/', '**'), tie('node')).map(([left, operator, right]) => {
      const source = `(${left.source}) ${operator} (${right.source})`
      if (operator === '/') return right.value === 0 ? left : { source, value: left.value / right.value }
      if (operator === '**') return { source: `(${left.source}) ** 2`, value: left.value ** 2 }
      return { source, value: operator === '+' ? left.value + right.value : operator === '-' ? left.value - right.value : left.value * right.value }
    }),
  ),
})).node.filter((found) => Number.isFinite(found.value) && /[-+*/]/.test(found.source))

const read = (tools: ToolSet, content: string) => repairToolCall({ role: 'assistant', content }, tools)

describe('round trip: Python-style calls as small models write them', () => {
  it('should read an unquoted value for a string parameter as its source text', () => {
    fc.assert(
      fc.property(identifier, fc.dictionary(identifier, bare, { minKeys: 1, maxKeys: 3 }), fc.array(spaced(''), { minLength: 3, maxLength: 3 }), (name, args, [space]) => {
        const tools: ToolSet = { [name]: toolOf(Object.fromEntries(Object.keys(args).map((key) => [key, 'string' as const]))) }
        const written = Object.entries(args).map(([key, value]) => `${key}=${space}${value}${space}`)
        const { toolCall } = read(tools, `[${name}(${written.join(', ')})]`)
        expect(toolCall).toEqual({ name, args })
      }),
      { numRuns: 200 },
    )
  })

  it('should read unquoted items of a list of strings as their source texts', () => {
    fc.assert(
      fc.property(identifier, fc.array(fc.oneof(bare, text.map((value) => ({ quoted: value }))), { maxLength: 4 }), (name, items) => {
        const written = items.map((item) => (typeof item === 'string' ? item : JSON.stringify(item.quoted)))
        const { toolCall } = read({ [name]: toolOf({ items: 'list' }) }, `[${name}(items=[${written.join(', ')}])]`)
        expect(toolCall).toEqual({ name, args: { items: items.map((item) => (typeof item === 'string' ? item : item.quoted)) } })
      }),
      { numRuns: 200 },
    )
  })

  it('should work out constant arithmetic for a number parameter, and refuse it for a string one as text it keeps', () => {
    fc.assert(
      fc.property(identifier, expression, (name, { source, value }) => {
        const tools: ToolSet = { [name]: toolOf({ amount: 'number', label: 'string' }) }
        const { toolCall } = read(tools, `[${name}(amount=${source}, label=${source})]`)
        expect(toolCall).toEqual({ name, args: { amount: value, label: source } })
      }),
      { numRuns: 200 },
    )
  })

  it('should map positional values to the parameters in declared order', () => {
    fc.assert(
      fc.property(
        identifier,
        fields.chain((kinds) => fc.record({ kinds: fc.constant(kinds), args: fc.record(Object.fromEntries(Object.entries(kinds).map(([key, kind]) => [key, valueOf[kind]]))), split: fc.nat(Object.keys(kinds).length) })),
        (name, { kinds, args, split }) => {
          const keys = Object.keys(kinds)
          const written = keys.map((key, index) => (index < split ? python(args[key]) : `${key}=${python(args[key])}`))
          const { toolCall } = read({ [name]: toolOf(kinds) }, `[${name}(${written.join(', ')})]`)
          expect(toolCall).toEqual({ name, args })
        },
      ),
      { numRuns: 200 },
    )
  })

  it('should end a last string left unclosed before its call closes, after any number of complete calls', () => {
    const plain = fc.string({ minLength: 1, maxLength: 12, unit: 'grapheme' }).filter((value) => !/["'\\)\n\r]|,\s*[A-Za-z_]\w*\s*=/.test(value) && value.trim() === value)
    fc.assert(
      fc.property(identifier, fc.array(fc.tuple(fc.integer(), plain), { minLength: 1, maxLength: 4 }), fc.constantFrom('"', "'"), fc.constantFrom('', '\n', '</tool_call>'), (name, calls, quote, after) => {
        const tools: ToolSet = { [name]: toolOf({ count: 'integer', note: 'string' }) }
        const written = calls.map(([count, note], index) => `${name}(count=${count}, note=${quote}${note}${index === calls.length - 1 ? '' : quote})`)
        const { toolCall, dropped } = read(tools, `[${written.join(', ')}]${after}`)
        expect(toolCall).toEqual({ name, args: { count: calls[0]![0], note: calls[0]![1] } })
        expect(dropped.map((call) => call.args)).toEqual(calls.slice(1).map(([count, note]) => ({ count, note })))
      }),
      { numRuns: 200 },
    )
  })
})
