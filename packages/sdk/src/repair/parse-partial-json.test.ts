import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createPartialJsonReader, parsePartialJson } from './parse-partial-json'

describe('parsePartialJson', () => {
  it('should close an open string value where it stops, keeping its whitespace', () => {
    expect(parsePartialJson('{"memory": "Clicked the ')?.value).toEqual({ memory: 'Clicked the ' })
    expect(parsePartialJson('{"a": {"b": ["x", "y')?.value).toEqual({ a: { b: ['x', 'y'] } })
  })

  it('should drop a half-written key, a key without value and a half-written literal instead of guessing', () => {
    expect(parsePartialJson('{"done": "yes", "evalu')?.value).toEqual({ done: 'yes' })
    expect(parsePartialJson('{"done": "yes", "memory": ')?.value).toEqual({ done: 'yes' })
    expect(parsePartialJson('{"a": 1, "flag": tr')?.value).toEqual({ a: 1 })
    expect(parsePartialJson('{"a": -')?.value).toEqual({})
    expect(parsePartialJson('{"a": 1.')?.value).toEqual({ a: 1 })
  })

  it('should drop a half-written escape sequence and escape raw control characters', () => {
    expect(parsePartialJson('{"a": "x\\')?.value).toEqual({ a: 'x' })
    expect(parsePartialJson('{"a": "x\\u00')?.value).toEqual({ a: 'x' })
    expect(parsePartialJson('{"a": "line one\nline two')?.value).toEqual({ a: 'line one\nline two' })
  })

  it('should stop the preview at the nesting depth the repair accepts', () => {
    expect(parsePartialJson('['.repeat(100_000))?.value).toEqual(JSON.parse('['.repeat(64) + ']'.repeat(64)))
    expect(parsePartialJson('{"a": '.repeat(100))?.value).toBeDefined()
  })

  it('should open double-encoded arguments', () => {
    expect(parsePartialJson('"{\\"memory\\": \\"half')?.value).toEqual({ memory: 'half' })
  })

  it('should return undefined before any value started, and stop at garbage', () => {
    expect(parsePartialJson('')).toBeUndefined()
    expect(parsePartialJson('   ')).toBeUndefined()
    expect(parsePartialJson('{"a": 1} trailing')?.value).toEqual({ a: 1 })
    expect(parsePartialJson('{"a": 1, "b": True')?.value).toEqual({ a: 1 })
  })

  it('should never throw on any prefix of any JSON text and give the value back on the whole text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, pretty) => {
        // A top-level string holding JSON is opened on purpose (double-encoded arguments).
        fc.pre(!(typeof value === 'string' && /^\s*[{[]/.test(value)))
        const text = JSON.stringify(value, null, pretty ? 2 : undefined)
        for (let end = 0; end < text.length; end += Math.max(1, text.length >> 5)) parsePartialJson(text.slice(0, end))
        expect(parsePartialJson(text)?.value).toEqual(JSON.parse(text))
      }),
      { numRuns: 300 },
    )
  })

  it('should only ever show a prefix of each string field while an object is written', () => {
    const final = { evaluation_previous_goal: 'Clicked "OK" — it worked ✓', memory: 'Page 2 of 5', action: { click: { index: 12 } } }
    const text = JSON.stringify(final)
    for (let end = 1; end <= text.length; end++) {
      const value = parsePartialJson(text.slice(0, end))?.value as Record<string, unknown>
      expect(value).toBeTypeOf('object')
      for (const key of ['evaluation_previous_goal', 'memory'] as const) {
        if (value[key] !== undefined) expect(final[key].startsWith(value[key] as string)).toBe(true)
      }
    }
  })
})

describe('createPartialJsonReader', () => {
  it('should read a text pushed in any pieces exactly as the same text read whole, at every point', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 30 }), (value, sizes) => {
        const text = JSON.stringify({ memory: 'line\n"quoted" \\ é \u2028', value }, null, 1)
        const reader = createPartialJsonReader()
        let offset = 0
        for (let step = 0; offset < text.length; step++) {
          const next = Math.min(text.length, offset + sizes[step % sizes.length]!)
          reader.push(text.slice(offset, next))
          offset = next
          expect(reader.read()).toEqual(parsePartialJson(text.slice(0, offset)))
        }
        expect(reader.read()?.value).toEqual(JSON.parse(text))
        expect(reader.text()).toBe(text)
      }),
      { numRuns: 200 },
    )
  })

  it('should give each preview its own copy: a later piece never changes a preview already shown', () => {
    const reader = createPartialJsonReader()
    reader.push('{"list": [{"a": "x')
    const first = reader.read()!.value
    reader.push('y"}, 2], "b": {"c": tr')
    const second = reader.read()!.value
    reader.push('ue}}')
    expect(first).toEqual({ list: [{ a: 'x' }] })
    expect(second).toEqual({ list: [{ a: 'xy' }, 2], b: {} })
    expect(reader.read()!.value).toEqual({ list: [{ a: 'xy' }, 2], b: { c: true } })
  })

  it('should keep a model\'s __proto__ key an own key, never the prototype', () => {
    const value = parsePartialJson('{"__proto__": {"polluted": true}, "a": "b')!.value as Record<string, unknown>
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
    expect(Object.hasOwn(value, '__proto__')).toBe(true)
    expect((value as { polluted?: unknown }).polluted).toBeUndefined()
  })
})
