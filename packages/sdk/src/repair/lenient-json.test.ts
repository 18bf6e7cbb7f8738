import { describe, expect, it } from 'vitest'
import { assertLinear, sizesBetween } from '../testing/measure-growth'
import { isTruncatedJson, parseLenientJson } from './lenient-json'

describe('parseLenientJson', () => {
  const table: Array<[label: string, text: string, value: unknown, fixes: string[]]> = [
    ['strict object', '{"index": 3}', { index: 3 }, []],
    ['strict array', '[1, "two", null]', [1, 'two', null], []],
    ['strict string', '"{\\"index\\": 3}"', '{"index": 3}', []],
    ['strict number', '42', 42, []],
    ['strict literal', 'true', true, []],
    ['surrounding whitespace', '  \n{"a": 1}\n ', { a: 1 }, []],
    ['trailing commas', '{"a": [1, 2,], "b": 3,}', { a: [1, 2], b: 3 }, ['lenient-json']],
    ['unquoted keys', '{index: 3, text: "hi"}', { index: 3, text: 'hi' }, ['lenient-json']],
    ['missing opening quote on a key', '{"action": {"click": {index": 3}}}', { action: { click: { index: 3 } } }, ['lenient-json']],
    ['raw newline and tab in a string', '{"text": "a\nb\tc"}', { text: 'a\nb\tc' }, ['lenient-json']],
    ['stray closers', '{"a": 1}}]}', { a: 1 }, ['lenient-json']],
    ['python literals', '{"submit": True, "clear": False, "value": None}', { submit: true, clear: false, value: null }, ['python-literals']],
    ['python single quotes', "{'index': 3, 'text': 'hi'}", { index: 3, text: 'hi' }, ['python-literals']],
    ['apostrophe inside single quotes', "{'text': 'what's up', 'n': 1}", { text: "what's up", n: 1 }, ['python-literals']],
    ['apostrophe inside double quotes with python literal', '{"text": "what\'s up", "ok": True}', { text: "what's up", ok: true }, ['python-literals']],
    ['apostrophes at word ends', "{'text': 'the users' list', 'other': 'it's'}", { text: "the users' list", other: "it's" }, ['python-literals']],
    ['double quote inside single quotes', "{'text': 'say \"hi\"'}", { text: 'say "hi"' }, ['python-literals']],
    ['escaped single quote', "{'text': 'it\\'s'}", { text: "it's" }, ['python-literals']],
    ['True inside a string stays', '{"text": "True or None", "x": None}', { text: 'True or None', x: null }, ['python-literals']],
    ['call token glued at the end', '{"down": true}<|call|>', { down: true }, ['stripped-special-tokens']],
    ['endoftext token', '{"down": true}<|endoftext|>', { down: true }, ['stripped-special-tokens']],
    ['im_end token', '{"down": true}<|im_end|>', { down: true }, ['stripped-special-tokens']],
    ['eot_id token', '{"down": true}<|eot_id|>', { down: true }, ['stripped-special-tokens']],
    ['full-width deepseek token', '{"down": true}<｜end▁of▁sentence｜>', { down: true }, ['stripped-special-tokens']],
    ['several tokens', '{"down": true}<|call|><|end|>', { down: true }, ['stripped-special-tokens']],
    ['eos tag', '{"down": true}</s>', { down: true }, ['stripped-special-tokens']],
    ['leading token', '<|constrain|>{"down": true}', { down: true }, ['stripped-special-tokens']],
    ['json prefix line', 'json\n{"down": true}', { down: true }, ['json-prefix']],
    ['json prefix glued', 'json{"down": true}', { down: true }, ['json-prefix']],
    ['fence', '```json\n{"down": true}\n```', { down: true }, ['json-prefix']],
    ['fence without language', '```\n{"down": true}\n```', { down: true }, ['json-prefix']],
    ['prefix and python literal', "json\n{'down': True}", { down: true }, ['json-prefix', 'python-literals']],
    ['prefix, trailing comma and token', 'json\n{"down": true,}<|call|>', { down: true }, ['stripped-special-tokens', 'json-prefix', 'lenient-json']],
    ['over-escaped newline stays as text', '{"text": "a\\\\nb"}', { text: 'a\\nb' }, []],
    ['unicode escapes', '{"text": "caf\\u00e9"}', { text: 'café' }, []],
  ]
  it.each(table)('should parse %s', (_label, text, value, fixes) => {
    expect(parseLenientJson(text)).toEqual({ value, fixes })
  })

  const refused: Array<[string, string]> = [
    ['empty', ''],
    ['blank', '   '],
    ['prose', 'I will click the button'],
    ['a word', 'scroll'],
    ['truncated object', '{"index": 3, "text": "hel'],
    ['truncated array', '[{"index": 3}'],
    ['truncated after a key', '{"index"'],
    ['truncated single-quoted string', "{'text': 'hel"],
    ['truncated with token', '{"index": 3<|call|>'],
    ['too deep', '['.repeat(100) + ']'.repeat(100)],
    ['not json at all', '<html><title>502 Bad Gateway</title></html>'],
  ]
  it.each(refused)('should refuse %s', (_label, text) => {
    expect(parseLenientJson(text)).toBeUndefined()
  })

  it('should refuse non-strings without throwing', () => {
    expect(parseLenientJson(undefined as unknown as string)).toBeUndefined()
    expect(parseLenientJson(42 as unknown as string)).toBeUndefined()
  })

  it('should keep __proto__ as an own key and never touch a prototype', () => {
    for (const text of ['{"__proto__": {"polluted": 1}}', "{'__proto__': {'polluted': True}}", '{__proto__: {polluted: 1},}']) {
      const result = parseLenientJson(text)!
      const value = result.value as Record<string, unknown>
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
      expect(Object.prototype.hasOwnProperty.call(value, '__proto__')).toBe(true)
      expect((value as { polluted?: unknown }).polluted).toBeUndefined()
    }
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined()
  })

  it('should parse a 1 MB string value', () => {
    const text = JSON.stringify({ text: 'a "quoted" {brace} '.repeat(55_000) })
    expect((parseLenientJson(text)!.value as { text: string }).text.length).toBeGreaterThan(1_000_000)
  })
})

describe('isTruncatedJson', () => {
  const table: Array<[string, boolean]> = [
    ['{"a": 1}', false],
    ['[1, 2]', false],
    ['"text"', false],
    ['{"a": 1}<|call|>', false],
    ['{"a": 1}}]}', false],
    ['{"a": [1}', false],
    ['{"a": "x { [ y"}', false],
    ["{'text': 'what's up'}", false],
    ['{"action": {"click": {index": 3}}}', false],
    ['{"a": 1', true],
    ['{"a": "hel', true],
    ['[{"a": 1}', true],
    ['{"a": "x\\"', true],
    ["{'text': 'what's", true],
    ['```json\n{"a": ', true],
    ['{"a": 1<|call|>', true],
  ]
  it.each(table)('should judge %j truncated: %s', (text, truncated) => {
    expect(isTruncatedJson(text)).toBe(truncated)
  })

  it('should stay linear on a flood of openers and closers', () => {
    expect(isTruncatedJson('['.repeat(200_000) + '}'.repeat(200_000))).toBe(true)
    assertLinear((size) => {
      const text = '['.repeat(size) + '}'.repeat(size)
      return () => isTruncatedJson(text)
    }, sizesBetween(20_000, 200_000))
  })
})
