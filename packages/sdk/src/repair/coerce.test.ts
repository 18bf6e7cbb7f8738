import { describe, expect, it } from 'vitest'
import { coerceToSchema, sanitizeValue } from './coerce'

const schema = {
  type: 'object',
  properties: {
    index: { type: 'integer', minimum: 0 },
    ratio: { type: 'number' },
    on: { type: 'boolean' },
    label: { type: 'string' },
    mode: { type: 'string', enum: ['fast', 'slow'] },
    tags: { type: 'array', items: { type: 'string' } },
    nested: { type: 'object', properties: { depth: { type: 'integer' } }, required: ['depth'] },
    either: { anyOf: [{ type: 'integer' }, { type: 'boolean' }] },
    maybe: { type: ['string', 'null'] },
  },
  required: ['index'],
}

describe('coerceToSchema', () => {
  it('should convert text to what each field expects and record one code per kind', () => {
    const fixes: string[] = []
    const input = { index: ' 7 ', ratio: '0.5', on: 'False', label: 42, mode: 'FAST', tags: 'solo', nested: '{"depth": "2"}', either: 'true', maybe: null, ratio2: null }
    const output = coerceToSchema(input, schema, fixes)
    expect(output).toEqual({ index: 7, ratio: 0.5, on: false, label: '42', mode: 'fast', tags: ['solo'], nested: { depth: 2 }, either: true, maybe: null, ratio2: null })
    expect(fixes).toEqual(['coerced:integer', 'coerced:number', 'coerced:boolean', 'coerced:string', 'coerced:enum', 'coerced:array', 'double-encoded-arguments'])
    expect(input.index).toBe(' 7 ')
  })

  it('should drop null only for optional fields that do not allow null', () => {
    const fixes: string[] = []
    expect(coerceToSchema({ index: null, ratio: null, maybe: null }, schema, fixes)).toEqual({ index: null, maybe: null })
    expect(fixes).toEqual(['dropped-null'])
  })

  it('should drop an empty or None value of an optional field only where its schema refuses it', () => {
    const strict = {
      type: 'object',
      properties: {
        id: { type: 'string', minLength: 1 },
        date: { type: 'string', format: 'date' },
        code: { type: 'string', pattern: '^[A-Z]{3}$' },
        loose: { type: 'string', pattern: '^[a-z]*$' },
        unit: { enum: ['c', 'f'] },
        kind: { const: 'full' },
        count: { type: 'integer' },
        either: { anyOf: [{ type: 'string', format: 'email' }, { type: 'integer' }] },
        note: { type: 'string' },
        maybe: { type: ['integer', 'null'] },
      },
      required: ['id'],
    }
    const fixes: string[] = []
    const input = { id: '', date: '', code: ' ', loose: '', unit: 'None', kind: '', count: 'null', either: '', note: '', maybe: 'None' }
    expect(coerceToSchema(input, strict, fixes)).toEqual({ id: '', loose: '', note: '' })
    expect(fixes).toEqual(['dropped-empty'])
    // A word that is a value where the schema takes it stays.
    expect(coerceToSchema({ note: 'None', unit: 'c' }, strict, [])).toEqual({ note: 'None', unit: 'c' })
  })

  it('should leave what it cannot convert for the validator', () => {
    const fixes: string[] = []
    expect(coerceToSchema({ index: '3.5', on: 'maybe', nested: [{ depth: 1 }, { depth: 2 }] }, schema, fixes)).toEqual({ index: '3.5', on: 'maybe', nested: [{ depth: 1 }, { depth: 2 }] })
    expect(coerceToSchema({ on: 2 }, schema, fixes)).toEqual({ on: 2 })
    expect(fixes).toEqual([])
  })

  it.each([
    ['yes', true],
    ['No', false],
    ['on', true],
    ['OFF', false],
    ['1', true],
    [0, false],
    [1, true],
    [' True ', true],
  ])('should read %j as the boolean %j where the schema wants one', (value, expected) => {
    const fixes: string[] = []
    expect(coerceToSchema({ on: value }, schema, fixes)).toEqual({ on: expected })
    expect(fixes).toEqual(['coerced:boolean'])
  })

  it('should unwrap a one-element array where one object is expected', () => {
    const fixes: string[] = []
    expect(coerceToSchema({ index: 1, nested: [{ depth: '4' }] }, schema, fixes)).toEqual({ index: 1, nested: { depth: 4 } })
    expect(fixes).toEqual(['unwrapped-array', 'coerced:integer'])
  })
})

describe('sanitizeValue', () => {
  it('should copy plain data, dropping keys that reach prototypes', () => {
    const parsed = JSON.parse('{"a": {"__proto__": {"x": 1}, "constructor": 1, "b": [1, {"prototype": 2}]}}')
    const fixes: string[] = []
    const copy = sanitizeValue(parsed, fixes) as { a: object }
    expect(copy).toEqual({ a: { b: [1, {}] } })
    expect(copy.a).not.toBe(parsed.a)
    expect(fixes).toEqual(['dropped-unsafe-key'])
  })

  it('should refuse nesting past the bound with an InvokeError', () => {
    let deep: unknown = 1
    for (let level = 0; level < 100; level++) deep = [deep]
    expect(() => sanitizeValue(deep, [])).toThrow(expect.objectContaining({ type: 'invalid_tool_args' }))
  })
})
