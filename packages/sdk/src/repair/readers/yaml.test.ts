import { describe, expect, it } from 'vitest'
import { readScalar, readYamlBlocks } from './yaml'

const values = (text: string) => readYamlBlocks(text).map((block) => block.value)

describe('readYamlBlocks', () => {
  it('should read nested mappings and sequences by indentation', () => {
    const text = 'a:\n  b:\n    c: 1\n  list:\n    - x\n    - key: v\n      other: w\n    -\n      deep: 2\nd: end'
    expect(values(text)).toEqual([{ a: { b: { c: '1' }, list: ['x', { key: 'v', other: 'w' }, { deep: '2' }] }, d: 'end' }])
  })

  it('should read a sequence written at its key’s indentation and nested dashes', () => {
    expect(values('steps:\n- one\n- - two\n  - three\nnext: 1')).toEqual([{ steps: ['one', ['two', 'three']], next: '1' }])
  })

  it('should keep scalars as text, with quotes, comments, nulls and folded continuation lines', () => {
    const text = `plain: hello world  # comment\nsingle: 'it''s # not a comment'\ndouble: "tab\\tand \\"quote\\""\nempty:\ntilde: ~\nlong: first\n  second\nhash: a#b`
    expect(values(text)).toEqual([{ plain: 'hello world', single: "it's # not a comment", double: 'tab\tand "quote"', empty: null, tilde: null, long: 'first second', hash: 'a#b' }])
  })

  it('should read flow values as lenient JSON, over several lines too', () => {
    expect(values('a: {b: 1, c: [x, y]}\nd: [\n  1,\n  2\n  ]')).toEqual([{ a: { b: 1, c: ['x', 'y'] }, d: [1, 2] }])
  })

  it('should read literal and folded block scalars with their chomping', () => {
    const text = 'keep: |\n  one\n\n    two\nstrip: >-\n  a\n  b\n\n  c\nnone: |\nafter: x'
    expect(values(text)).toEqual([{ keep: 'one\n\n  two\n', strip: 'a b\nc', none: '', after: 'x' }])
  })

  it('should end a block at prose and start another after it, with offsets', () => {
    const text = 'Intro line.\nkey: 1\nThis is prose.\n  - item\n'
    const blocks = readYamlBlocks(text)
    expect(blocks.map((block) => block.value)).toEqual([{ key: '1' }, ['item']])
    expect(blocks.map((block) => text.slice(block.start, block.end))).toEqual(['key: 1', '- item'])
  })

  it('should not take keys with spaces, URLs or numbered lists as YAML', () => {
    expect(values('Next step: click\nsee http://example.com\n1. first\n* bullet')).toEqual([])
  })

  it('should end a line at every line terminator, as a regex does', () => {
    expect(values('a: 1\r\nb: 2\rc: 3\u2028d: 4\u2029e: |\r\n  x\r\n  y\r\n')).toEqual([{ a: '1', b: '2', c: '3', d: '4', e: 'x\ny\n' }])
  })

  it('should set __proto__ as an own key, not a prototype', () => {
    const [value] = values('__proto__:\n  polluted: yes') as Array<Record<string, unknown>>
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
    expect(Object.hasOwn(value!, '__proto__')).toBe(true)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('should stop descending past the depth limit without throwing', () => {
    const text = Array.from({ length: 300 }, (_, depth) => `${' '.repeat(depth)}k${depth}:`).join('\n')
    expect(() => readYamlBlocks(text)).not.toThrow()
  })
})

describe('readScalar', () => {
  it.each([
    ['true', 'true'],
    ['3', '3'],
    ['null', null],
    ['""', ''],
    ["'a''b'", "a'b"],
    ['[1, "x"]', [1, 'x']],
    ['"unterminated', '"unterminated'],
    ['a  # note', 'a'],
    ['a\t# note', 'a'],
    ['a#b # note', 'a#b'],
    ['a#b', 'a#b'],
    ['#tag', '#tag'],
    ['a # one\nb # two', 'a # one\nb'],
    ['a # one\nb#two', 'a # one\nb#two'],
  ])('should read %s', (raw, value) => {
    expect(readScalar(raw)).toEqual(value)
  })
})
