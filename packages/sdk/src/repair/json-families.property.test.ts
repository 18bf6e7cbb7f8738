import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool, repairToolCall } from '../index'
import type { ToolSet } from '../tool/types'
import { JSON_FAMILY_RENDERERS, type RenderableCall } from './__fixtures__/json-family-renderers'

// Render → read = identity for every JSON tool-call family: the calls a template makes the model
// write, read back through the public repair path with the tools' schemas, give exactly the names
// and values that were rendered — the first call as the step, every other one in `dropped`.

// Pieces of text a value may hold: markup and entity look-alikes, quotes, braces, escapes, unicode,
// whitespace at either end, JSON-looking and Python-looking text.
const PIECES = [
  'a', 'Z', '0', '9', ' ', '  ', '\n', '\t', '\r\n', '<', '>', '&', '&lt;', '&amp;', '&#39;', '"', "'", '\\', '\\n', '/',
  '{', '}', '[', ']', ':', ',', '=', 'é', '€', '中', '😀', '\u2028', '<escape>', '<tool_call>', '</tool_call>', '<|tool_call|>',
  '[TOOL_CALLS]', 'functools', '<function=f>', '<invoke name="f">', '</function>', '{"a": 1}', '[1, 2]', 'true', 'null', 'None', 'name', '{"name": "x", "arguments": {}}',
]
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 10 }).map((pieces) => pieces.join(''))
const identifier = fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/).filter((key) => key !== '__proto__' && key !== 'constructor' && key !== 'prototype')
const key = fc.oneof(fc.constantFrom('name', 'arguments', 'parameters', 'id', 'type', 'function', 'query', 'text', 'content', 'tool_calls'), identifier)
const number = fc.oneof(fc.integer({ min: -1e6, max: 1e6 }), fc.double({ noNaN: true, noDefaultInfinity: true }).filter((value) => !Object.is(value, -0)))
const nested: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    number,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(key, tie('value'), { maxKeys: 3 }),
  ),
})).value

const KINDS = {
  string: { schema: () => z.string(), value: text },
  nullableString: { schema: () => z.string().nullable(), value: fc.option(text, { nil: null }) },
  number: { schema: () => z.number(), value: number },
  integer: { schema: () => z.number().int(), value: fc.integer() },
  boolean: { schema: () => z.boolean(), value: fc.boolean() },
  null: { schema: () => z.null(), value: fc.constant(null) },
  object: { schema: () => z.record(z.string(), z.unknown()), value: fc.dictionary(key, nested, { maxKeys: 3 }) },
  array: { schema: () => z.array(z.unknown()), value: fc.array(nested, { maxLength: 3 }) },
} as const
type Kind = keyof typeof KINDS

const toolName = fc.stringMatching(/^[a-zA-Z_](?:[\w-]{0,18}\w)?$/)
const fields = fc.uniqueArray(fc.tuple(key, fc.constantFrom(...(Object.keys(KINDS) as Kind[]))), { maxLength: 4, selector: ([name]) => name })
const toolSpecs = fc.uniqueArray(fc.record({ name: toolName, fields }), { minLength: 1, maxLength: 3, selector: (tool) => tool.name.toLowerCase().replace(/[-_]/g, '') })

/** Tools, and 1–3 calls of them (one when the family holds one call per answer). */
const scenario = (multiple: boolean) =>
  toolSpecs.chain((specs) => {
    const call = fc.nat({ max: specs.length - 1 }).chain((index) => {
      const spec = specs[index]!
      const args = fc.tuple(...spec.fields.map(([, kind]) => KINDS[kind].value as fc.Arbitrary<unknown>))
      return fc.tuple(args, fc.stringMatching(/^[a-zA-Z0-9]{9}$/)).map(([values, id]): RenderableCall => ({ name: spec.name, arguments: Object.fromEntries(spec.fields.map(([field], position) => [field, values[position]])), id }))
    })
    return fc.record({ specs: fc.constant(specs), calls: fc.array(call, { minLength: 1, maxLength: multiple ? 3 : 1 }) })
  })

function toolsOf(specs: ReadonlyArray<{ name: string; fields: Array<[string, Kind]> }>): ToolSet {
  const tools: ToolSet = {}
  for (const spec of specs) {
    const shape = Object.fromEntries(spec.fields.map(([field, kind]) => [field, KINDS[kind].schema()]))
    tools[spec.name] = defineTool({ description: spec.name, inputSchema: z.object(shape) })
  }
  return tools
}

// FIDELITY_RUNS=2000 for a deeper search than the suite's default.
const RUNS = Number(process.env.FIDELITY_RUNS ?? 100)

describe('repairToolCall on the JSON families', () => {
  it.each(JSON_FAMILY_RENDERERS.map((renderer) => [renderer.family, renderer] as const))('should read back exactly what %s renders', (_family, renderer) => {
    fc.assert(
      fc.property(scenario(renderer.multiple), ({ specs, calls }) => {
        const text = renderer.render(calls)
        const result = repairToolCall({ role: 'assistant', content: text }, toolsOf(specs))
        const [first, ...others] = calls
        expect(result.toolCall).toEqual({ ...(renderer.ids ? { id: first!.id } : {}), name: first!.name, args: first!.arguments })
        expect(result.dropped).toEqual(others.map((call) => ({ name: call.name, args: call.arguments, reason: 'extra' })))
      }),
      { numRuns: RUNS },
    )
  }, RUNS * 200)

  it('should render the sample call of the format notes byte for byte', () => {
    const A: RenderableCall = { name: 'search', arguments: { query: 'a\nb<c', limit: 5 }, id: 'abc123def' }
    const B: RenderableCall = { name: 'get_time', arguments: { tz: 'UTC' }, id: 'k9x2m1p0q' }
    const render = (family: string, calls: RenderableCall[]) => JSON_FAMILY_RENDERERS.find((renderer) => renderer.family === family)!.render(calls)
    expect(render('hermes', [A, B])).toBe('<tool_call>\n{"name": "search", "arguments": {"query": "a\\nb<c", "limit": 5}}\n</tool_call>\n<tool_call>\n{"name": "get_time", "arguments": {"tz": "UTC"}}\n</tool_call>')
    expect(render('mistral-list/v3', [A])).toBe('[TOOL_CALLS] [{"name": "search", "arguments": {"query": "a\\nb<c", "limit": 5}, "id": "abc123def"}]')
    expect(render('llama3-json', [A])).toBe('{"name": "search", "parameters": {"query": "a\\nb<c", "limit": 5}}')
    expect(render('granite-20b-fc', [A, B])).toBe('<function_call> {"name": "search", "arguments": {"query": "a\\nb<c", "limit": 5}}\n<function_call> {"name": "get_time", "arguments": {"tz": "UTC"}}')
    expect(render('internlm2', [A])).toBe('I need the tool for this.<|action_start|><|plugin|>\n{"name": "search", "parameters": {"query": "a\\nb<c", "limit": 5}}<|action_end|>')
    expect(render('phi4-mini', [A, B])).toBe('functools[{"name": "search", "arguments": {"query": "a\\nb<c", "limit": 5}}, {"name": "get_time", "arguments": {"tz": "UTC"}}]')
    expect(render('longcat', [A, B])).toBe('<longcat_tool_call>\n{"name": "search", "arguments": {"query": "a\\nb<c", "limit": 5}}\n</longcat_tool_call><longcat_tool_call>\n{"name": "get_time", "arguments": {"tz": "UTC"}}\n</longcat_tool_call>')
    expect(render('llama3-json/reference', [{ name: 'f', arguments: { city: 'Zürich' } }])).toBe('{"type": "function", "name": "f", "parameters": {"city": "Z\\u00fcrich"}}')
  })
})
