import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { extractCalls } from './extract-calls'
import { assertLinear, sizesBetween } from '../testing/measure-growth'

const names = new Set(['scroll', 'input_text', 'click_element_by_index', 'custom_tool'])
const toolName = fc.constantFrom(...names)
const identifier = fc.stringMatching(/^[a-z_][a-z0-9_]{0,11}$/).filter((key) => !['true', 'false', 'null', 'none'].includes(key))
// Text with everything that breaks naive parsers: quotes, apostrophes, braces, escapes, line breaks.
const trickyText = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom("what's up", 'say "hi"', 'a } b { c', 'back\\slash', 'line\nbreak', "it's {\"x\": [1]}", '', ' ', 'True', 'None', '42'),
)
const number = fc.oneof(fc.integer({ min: -1e9, max: 1e9 }), fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }).map((value) => (value === 0 ? 0 : value)))
const leaf = fc.oneof(trickyText, number, fc.boolean(), fc.constant(null))
const value = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(identifier, tie('value'), { maxKeys: 3 })),
})).value
const argumentsObject = fc.dictionary(identifier, value, { maxKeys: 4 })

/** Python source for a value, the way pythonic-call models write it. */
function toPython(input: unknown, singleQuotes: boolean): string {
  if (input === null) return 'None'
  if (input === true) return 'True'
  if (input === false) return 'False'
  if (typeof input === 'number') return JSON.stringify(input)
  if (typeof input === 'string') {
    if (!singleQuotes) return JSON.stringify(input)
    return "'" + JSON.stringify(input).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'") + "'"
  }
  if (Array.isArray(input)) return '[' + input.map((item) => toPython(item, singleQuotes)).join(', ') + ']'
  const entries = Object.entries(input as Record<string, unknown>)
  return '{' + entries.map(([key, item]) => `${toPython(key, singleQuotes)}: ${toPython(item, singleQuotes)}`).join(', ') + '}'
}

type Wrap = (name: string, args: Record<string, unknown>) => { text: string; name?: string; args: unknown }

const wraps: Record<string, Wrap> = {
  'content JSON with prose': (name, args) => ({ text: `Sure.\n${JSON.stringify({ name, arguments: args })}\nDone.`, args: { name, arguments: args } }),
  'fenced JSON': (name, args) => ({ text: '```json\n' + JSON.stringify({ name, arguments: args }, null, 2) + '\n```', args: { name, arguments: args } }),
  hermes: (name, args) => ({ text: `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`, args: { name, arguments: args } }),
  'function tag': (name, args) => ({ text: `<function=${name}>${JSON.stringify(args)}</function>`, name, args }),
  'mistral compact': (name, args) => ({ text: `[TOOL_CALLS]${name}[CALL_ID]a1b2c3d4e[ARGS]${JSON.stringify(args)}`, name, args }),
  'deepseek v3': (name, args) => ({ text: `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>${name}\n\`\`\`json\n${JSON.stringify(args)}\n\`\`\`<｜tool▁call▁end｜><｜tool▁calls▁end｜>`, name, args }),
  kimi: (name, args) => ({ text: `<|tool_calls_section_begin|> <|tool_call_begin|>functions.${name}:0<|tool_call_argument_begin|>${JSON.stringify(args)}<|tool_call_end|><|tool_calls_section_end|>`, name, args }),
  'kimi quoted': (name, args) => ({ text: `<|tool_call_begin|>functions.${name}:0<|tool_call_argument_begin|>${JSON.stringify(JSON.stringify(args))}<|tool_call_end|>`, name, args }),
  harmony: (name, args) => ({ text: `<|channel|>commentary to=functions.${name} <|constrain|>json<|message|>${JSON.stringify(args)}<|call|>`, name, args }),
  'harmony stripped': (name, args) => ({ text: `commentary to=functions.${name} json${JSON.stringify(args)}`, name, args }),
  'pythonic double quotes': (name, args) => ({ text: `[${name}(${Object.entries(args).map(([key, item]) => `${key}=${toPython(item, false)}`).join(', ')})]`, name, args }),
  'pythonic single quotes': (name, args) => ({ text: `[${name}(${Object.entries(args).map(([key, item]) => `${key}=${toPython(item, true)}`).join(', ')})]`, name, args }),
  'python dict in hermes': (name, args) => ({ text: `<tool_call>${toPython({ name, arguments: args }, true)}</tool_call>`, args: { name, arguments: args } }),
}

describe('extractCalls properties', () => {
  it.each(Object.keys(wraps))('should read back any arguments wrapped as %s', (wrapName) => {
    const wrap = wraps[wrapName]!
    fc.assert(
      fc.property(toolName, argumentsObject, (name, args) => {
        const expected = wrap(name, args)
        const result = extractCalls(expected.text, { names })
        expect(result.truncated).toBe(false)
        expect(result.calls.length).toBeGreaterThanOrEqual(1)
        const [first] = result.calls
        expect(first!.name).toBe(expected.name)
        expect(first!.args).toEqual(expected.args)
      }),
      { numRuns: 200 },
    )
  })

  // XML formats carry every value as text: the arguments read back as the same strings.
  const textValue = fc.string({ maxLength: 30 }).filter((text) => !text.includes('<') && !/^[\r\n]|[\r\n]$/.test(text) && !/^\s*[[{]/.test(text))
  const textArguments = fc.dictionary(identifier, textValue, { maxKeys: 4 })
  const xmlWraps: Record<string, (name: string, args: Record<string, string>) => string> = {
    'qwen xml': (name, args) => `<tool_call>\n<function=${name}>\n${Object.entries(args).map(([key, item]) => `<parameter=${key}>\n${item}\n</parameter>\n`).join('')}</function>\n</tool_call>`,
    minimax: (name, args) => `<minimax:tool_call><invoke name="${name}">${Object.entries(args).map(([key, item]) => `<parameter name="${key}">${item}</parameter>`).join('')}</invoke></minimax:tool_call>`,
    dsml: (name, args) => `<｜DSML｜function_calls><｜DSML｜invoke name="${name}">${Object.entries(args).map(([key, item]) => `<｜DSML｜parameter name="${key}" string="true">${item}</｜DSML｜parameter>`).join('')}</｜DSML｜invoke></｜DSML｜function_calls>`,
    glm: (name, args) => `<tool_call>${name}${Object.entries(args).map(([key, item]) => `<arg_key>${key}</arg_key><arg_value>${item}</arg_value>`).join('')}</tool_call>`,
  }
  it.each(Object.keys(xmlWraps))('should read back any text arguments wrapped as %s', (wrapName) => {
    fc.assert(
      fc.property(toolName, textArguments, (name, args) => {
        const result = extractCalls(xmlWraps[wrapName]!(name, args), { names })
        expect(result.truncated).toBe(false)
        expect(result.calls[0]?.name).toBe(name)
        expect(result.calls[0]?.args).toEqual(wrapName === 'glm' && Object.keys(args).length === 0 ? {} : args)
      }),
      { numRuns: 200 },
    )
  })

  it('should read back any arguments written in Gemma call syntax', () => {
    const gemmaText = fc.string({ maxLength: 20 }).filter((text) => !text.includes('<|"|>'))
    const gemmaValue = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, gemmaText, number, fc.boolean(), fc.constant(null), fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(identifier, tie('value'), { maxKeys: 3 })),
    })).value
    const render = (input: unknown): string => {
      if (typeof input === 'string') return `<|"|>${input}<|"|>`
      if (input === null || typeof input !== 'object') return JSON.stringify(input)
      if (Array.isArray(input)) return `[${input.map(render).join(',')}]`
      return `{${Object.entries(input).map(([key, item]) => `${key}:${render(item)}`).join(',')}}`
    }
    fc.assert(
      fc.property(toolName, fc.dictionary(identifier, gemmaValue, { maxKeys: 4 }), (name, args) => {
        const result = extractCalls(`<start_function_call>call:${name}${render(args)}<end_function_call>`, { names })
        expect(result.truncated).toBe(false)
        expect(result.calls[0]?.name).toBe(name)
        expect(result.calls[0]?.args).toEqual(args)
      }),
      { numRuns: 200 },
    )
  })

  const soup = [
    '<tool_call>', '</tool_call>', '<function=', 'scroll', '>', '<parameter=', '</parameter>', '[TOOL_CALLS]', '[ARGS]', '<|tool_call_begin|>',
    '<｜tool▁sep｜>', 'to=functions.', '{', '}', '[', ']', '(', ')', '"', "'", '\\', ':', ',', '=', '__proto__', 'constructor', 'True', '```', '\n',
    'call:', '<|"|>', '<arg_key>', '<arg_value>', '<invoke name="', '>>>', 'Action:', '1', 'x',
  ]

  it('should never throw or pollute a prototype on random markup soup', () => {
    const piece = fc.constantFrom(...soup)
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 80 }), (pieces) => {
        const text = pieces.join('')
        const result = extractCalls(text, { names })
        expect(result.calls.length).toBeLessThanOrEqual(64)
        expect(({} as Record<string, unknown>).polluted).toBeUndefined()
        expect(Object.getPrototypeOf({})).toBe(Object.prototype)
      }),
      { numRuns: 500 },
    )
  })

  it('should read markup soup in time linear in its length', () => {
    // Random soups, joined: every piece next to every other, at 10 to 100 kB.
    const pieces = fc.sample(fc.array(fc.constantFrom(...soup), { minLength: 80, maxLength: 80 }), { seed: 7, numRuns: 40 }).flat().join('')
    assertLinear((size) => {
      const text = pieces.repeat(Math.ceil(size / pieces.length)).slice(0, size)
      return () => extractCalls(text, { names })
    }, sizesBetween(10_000, 100_000))
  })
})
