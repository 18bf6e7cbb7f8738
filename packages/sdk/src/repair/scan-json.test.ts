import { describe, expect, it } from 'vitest'
import { missingClosers } from './lenient-json'
import { looksLikeJsonOpener, scanJson } from './scan-json'

function spansOf(text: string, skip: Array<{ start: number; end: number }> = []) {
  return scanJson(text, skip).spans.map((span) => text.slice(span.start, span.end))
}

describe('scanJson', () => {
  it('should find every outermost object and array in order', () => {
    expect(spansOf('First {"a": 1} then [2, 3], then {"b": {"c": []}}.')).toEqual(['{"a": 1}', '[2, 3]', '{"b": {"c": []}}'])
  })

  it('should ignore brackets inside double- and single-quoted strings and escapes', () => {
    expect(spansOf('{"a": "} ] {", "b": "\\"}"}')).toEqual(['{"a": "} ] {", "b": "\\"}"}'])
    expect(spansOf("{'a': '} {', 'b': 'it's }'}")).toEqual(["{'a': '} {', 'b': 'it's }'}"])
  })

  it('should not read an apostrophe or quote in prose as a string', () => {
    expect(spansOf('It\'s "fine": {"a": 1} and "odd {x}" it\'s')).toEqual(['{"a": 1}'])
  })

  it('should skip prose brackets that do not look like JSON', () => {
    expect(spansOf('Use {braces} and [TOOL_CALLS] or [scroll(down=True)] then {"a": 1}')).toEqual(['{"a": 1}'])
    expect(looksLikeJsonOpener('{ down: true }', 0)).toBe(true)
    expect(looksLikeJsonOpener('[ -1 ]', 0)).toBe(true)
    expect(looksLikeJsonOpener('[True]', 0)).toBe(true)
    expect(looksLikeJsonOpener('{see below}', 0)).toBe(false)
  })

  it('should skip the given ranges (special tokens)', () => {
    const text = '[TOOL_CALLS][{"a": 1}]'
    expect(spansOf(text, [{ start: 0, end: 12 }])).toEqual(['[{"a": 1}]'])
  })

  it('should let a closer close the unclosed openers above its match', () => {
    expect(spansOf('{"a": [1, 2}')).toEqual(['{"a": [1, 2}'])
  })

  it('should expose children, depth and the end of any opener', () => {
    const text = 'x {"a": {"b": [1]}, "c": {}} y'
    const scan = scanJson(text)
    const [outer] = scan.spans
    expect(outer!.depth).toBe(3)
    expect(scan.childrenOf(outer!).map((span) => text.slice(span.start, span.end))).toEqual(['{"b": [1]}', '{}'])
    expect(scan.endOf(text.indexOf('[1]'))).toBe(text.indexOf('[1]') + 3)
    expect(scan.endOf(0)).toBe(-1)
  })

  it('should report an unclosed JSON-like opener as truncated and offer nothing inside it', () => {
    const cut = scanJson('ok {"a": 1} then {"b": {"c": 2}, "d": "x')
    expect(cut.truncated).toBe(true)
    expect(cut.truncatedStart).toBe(17)
    expect(cut.spans.map((span) => [span.start, span.end])).toEqual([[3, 11]])
    expect(scanJson('a { b c.').truncated).toBe(false)
  })

  it('should record a million brackets without recursion or per-bracket objects', () => {
    const text = '['.repeat(500_000) + ']'.repeat(500_000)
    const scan = scanJson(text)
    expect(scan.spans).toHaveLength(1)
    expect(scan.spans[0]!.depth).toBe(500_000)
    expect(scan.childrenOf(scan.spans[0]!)).toHaveLength(1)
  })
})

describe('missingClosers', () => {
  it.each([
    ['{"name": "search", "arguments": {"query": "x"', '}}'],
    ['{"a": ["x", "y"', ']}'],
    ['[{"a": 1}, {"b": true}', ']'],
    ['{"a": -1.5e3', '}'],
    ['{"a": {"b": []}', '}'],
    ['Sure: {"a": "x"}\n', ''],
  ])('should give what %j lacks at its end: %j', (text, closers) => {
    expect(missingClosers(text)).toBe(closers)
  })

  it.each([
    ['a key without its value', '{"a": "x", "b"'],
    ['a colon', '{"a":'],
    ['a comma', '["x",'],
    ['an open string', '{"a": "x'],
    ['a literal cut short', '{"a": tru'],
    ['an opener alone', 'Let me look: {'],
    ['a value right after a value', '{"a": {"b": 1}\n{"a": 2}'],
    ['an object as a key', '{"a": {\n{"b": 2}'],
    ['a semicolon inside', '{"a": "x"; "b": 1'],
    ['a call in parentheses', '[search(query="x"'],
    ['markup after the value', '<tool_call>{"a": {"b": 1}</tool_call>'],
  ])('should give nothing for %s', (_label, text) => {
    expect(missingClosers(text)).toBe('')
  })
})
