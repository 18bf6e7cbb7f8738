import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool } from '../../tool/define-tool'
import { repairToolCall } from '../repair-tool-call'
import { decodeValue } from './decode-value'
import { decodeXmlReferences } from './decode-xml-references'

describe('decodeValue', () => {
  it('should keep the text exactly as written for a string field, JSON-looking or not', () => {
    for (const text of ['{"a": 1}', '[1, 2]', 'true', '5', 'None', '  padded\n', '']) {
      const fixes: string[] = []
      expect(decodeValue(text, { type: 'string' }, fixes)).toBe(text)
      expect(fixes).toEqual([])
    }
  })

  it('should parse JSON and Python literals only where the schema wants an object or an array', () => {
    expect(decodeValue('{"a": [1, "b"]}', { type: 'object' }, [])).toEqual({ a: [1, 'b'] })
    expect(decodeValue("{'a': [1, 'b'], 'c': None, 'd': True}", { type: 'object' }, [])).toEqual({ a: [1, 'b'], c: null, d: true })
    expect(decodeValue(' [1, 2]\n', { type: 'array' }, [])).toEqual([1, 2])
    // An object where an array is wanted is left for the validator to name.
    expect(decodeValue('{"a": 1}', { type: 'array' }, [])).toBe('{"a": 1}')
  })

  it('should keep a string in a union that admits one, and parse in a union that does not', () => {
    const stringOrObject = { anyOf: [{ type: 'string' }, { type: 'object' }] }
    expect(decodeValue('{"a": 1}', stringOrObject, [])).toBe('{"a": 1}')
    const numberOrObject = { anyOf: [{ type: 'number' }, { type: 'object' }] }
    expect(decodeValue('{"a": 1}', numberOrObject, [])).toEqual({ a: 1 })
    expect(decodeValue('2.5', numberOrObject, [])).toBe(2.5)
    expect(decodeValue('b', { enum: ['a', 'b'] }, [])).toBe('b')
  })

  it('should read null, None and nil as null only where the schema admits null', () => {
    for (const word of ['null', 'None', 'nil', ' None\n']) {
      expect(decodeValue(word, { type: ['string', 'null'] }, [])).toBeNull()
      expect(decodeValue(word, { anyOf: [{ type: 'integer' }, { type: 'null' }] }, [])).toBeNull()
      expect(decodeValue(word, { type: 'string' }, [])).toBe(word)
    }
  })

  it('should type numbers and booleans by the schema, without a fix code (text formats write every value as text)', () => {
    const fixes: string[] = []
    expect(decodeValue('5', { type: 'integer' }, fixes)).toBe(5)
    expect(decodeValue('-1.5e3', { type: 'number' }, fixes)).toBe(-1500)
    expect(decodeValue('True', { type: 'boolean' }, fixes)).toBe(true)
    expect(decodeValue('false', { type: 'boolean' }, fixes)).toBe(false)
    expect(fixes).toEqual([])
    // Not a number: left as text for the validator (or the coercion) to handle.
    expect(decodeValue('five', { type: 'integer' }, [])).toBe('five')
  })

  it('should guess where the schema says nothing, and report the guess', () => {
    const fixes: string[] = []
    expect(decodeValue('{"a": 1}', undefined, fixes)).toEqual({ a: 1 })
    expect(fixes).toEqual(['guessed-value-type'])
    const none: string[] = []
    expect(decodeValue('5', {}, none)).toBe('5')
    expect(decodeValue('{not json', {}, none)).toBe('{not json')
    expect(none).toEqual([])
  })
})

describe('decodeXmlReferences', () => {
  it('should decode the XML references and keep an & that starts none', () => {
    expect(decodeXmlReferences('a &lt; b &gt; c &amp; d &quot;e&quot; &apos;f&#39; &#x3C;&#60;')).toBe('a < b > c & d "e" \'f\' <<')
    expect(decodeXmlReferences('AT&T & co; &nbsp; &#xZZ; &;')).toBe('AT&T & co; &nbsp; &#xZZ; &;')
    // One pass: a decoded `&` never starts another reference.
    expect(decodeXmlReferences('&amp;lt;')).toBe('&lt;')
    expect(decodeXmlReferences('&#128512;')).toBe('😀')
  })
})

describe('repairToolCall: each format keeps the values the model wrote', () => {
  const edit = defineTool({ inputSchema: z.object({ path: z.string(), code: z.string() }) })
  const note = defineTool({ inputSchema: z.object({ text: z.string(), note: z.string().nullable(), limit: z.number().int().optional() }) })
  const anyTool = defineTool({ inputSchema: z.object({ data: z.unknown() }) })
  const weather = defineTool({ inputSchema: z.object({ city: z.string(), days: z.number().int().optional() }) })
  const tools = { edit, note, anyTool, weather }
  const read = (content: string) => repairToolCall({ role: 'assistant', content }, tools)

  it('should keep a code edit whose value ends in a newline (Qwen3-Coder: one layout newline on each side)', () => {
    const { toolCall } = read('<tool_call>\n<function=edit>\n<parameter=path>\na.py\n</parameter>\n<parameter=code>\n  if x:\n    pass\n\n</parameter>\n</function>\n</tool_call>')
    expect(toolCall.args).toEqual({ path: 'a.py', code: '  if x:\n    pass\n' })
  })

  it('should take a Seed-OSS value on its own line without the two newlines around it', () => {
    const { toolCall } = read('<seed:tool_call>\n<function=edit>\n<parameter=path>a.py</parameter>\n<parameter=code>\nx = 1\n</parameter>\n</function>\n</seed:tool_call>')
    expect(toolCall.args).toEqual({ path: 'a.py', code: 'x = 1' })
  })

  it('should decode references in a MiniMax value and keep a literal < and &', () => {
    const { toolCall } = read('<minimax:tool_call>\n<invoke name="edit">\n<parameter name="path">a &amp; b.py</parameter>\n<parameter name="code">if a &lt; b && c < d:\n</parameter>\n</invoke>\n</minimax:tool_call>')
    expect(toolCall.args).toEqual({ path: 'a & b.py', code: 'if a < b && c < d:\n' })
  })

  it('should keep a CDATA section as written', () => {
    const { toolCall } = read('<tool_call>\n<function=edit>\n<parameter=path>\nx\n</parameter>\n<parameter=code>\n<![CDATA[a &lt; <b>]]>\n</parameter>\n</function>\n</tool_call>')
    expect(toolCall.args).toEqual({ path: 'x', code: 'a &lt; <b>' })
  })

  it('should keep every newline of a GLM-4.7 value, and read GLM-4.6 values between the tags exactly', () => {
    expect(read('<tool_call>edit<arg_key>path</arg_key><arg_value>a.py</arg_value><arg_key>code</arg_key><arg_value>\nx\n</arg_value></tool_call>').toolCall.args).toEqual({ path: 'a.py', code: '\nx\n' })
    expect(read('<tool_call>note\n<arg_key>text</arg_key>\n<arg_value>{"a": 1}</arg_value>\n<arg_key>note</arg_key>\n<arg_value>null</arg_value>\n</tool_call>').toolCall.args).toEqual({ text: '{"a": 1}', note: null })
  })

  it('should keep JSON-looking text a string in a string field and read None as null only in a nullable one', () => {
    const { toolCall } = read('<tool_call>\n<function=note>\n<parameter=text>\nNone\n</parameter>\n<parameter=note>\nNone\n</parameter>\n<parameter=limit>\n5\n</parameter>\n</function>\n</tool_call>')
    expect(toolCall.args).toEqual({ text: 'None', note: null, limit: 5 })
    expect(read('<tool_call>\n<function=note>\n<parameter=text>\n[1, 2]\n</parameter>\n<parameter=note>\n{"a": 1}\n</parameter>\n</function>\n</tool_call>').toolCall.args).toEqual({ text: '[1, 2]', note: '{"a": 1}' })
  })

  it('should take DSML string="true" text as the string and string="false" as JSON', () => {
    const { toolCall } = read('<｜DSML｜function_calls>\n<｜DSML｜invoke name="note">\n<｜DSML｜parameter name="text" string="true">{"a": 1}</｜DSML｜parameter>\n<｜DSML｜parameter name="note" string="false">null</｜DSML｜parameter>\n<｜DSML｜parameter name="limit" string="false">3</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>')
    expect(toolCall.args).toEqual({ text: '{"a": 1}', note: null, limit: 3 })
  })

  it('should never pass FunctionGemma <escape> delimiters to the tool, whatever the string holds', () => {
    expect(read('<start_function_call>call:weather{city:<escape>London<escape>}<end_function_call>').toolCall.args).toEqual({ city: 'London' })
    expect(read('<start_function_call>call:weather{city:<escape>a, b: {c}<escape>,days:3}<end_function_call>').toolCall.args).toEqual({ city: 'a, b: {c}', days: 3 })
    // A bare number where a string is wanted is the text as written.
    expect(read('call:weather{city:02139}').toolCall.args).toEqual({ city: '02139' })
  })

  it('should not take a call:name{…} inside another call string for a call', () => {
    const { toolCall, dropped } = read("[note(text='see call:edit{path:<escape>x<escape>}', note=None)]")
    expect(toolCall.args).toEqual({ text: 'see call:edit{path:<escape>x<escape>}', note: null })
    expect(dropped).toEqual([])
  })

  it('should read an Olmo 3 string that holds a raw line break', () => {
    const { toolCall } = read("<function_calls>\nedit(path='a.py', code='x = 1\ny = 2\n')\n</function_calls>")
    expect(toolCall.args).toEqual({ path: 'a.py', code: 'x = 1\ny = 2\n' })
  })

  it('should type key=value text by the schema', () => {
    expect(read('note text=hello note=None limit=2').toolCall.args).toEqual({ text: 'hello', note: null, limit: 2 })
  })

  it('should report a guessed type where the schema says nothing', () => {
    const { toolCall, fixes } = read('<tool_call>\n<function=anyTool>\n<parameter=data>\n{"a": 1}\n</parameter>\n</function>\n</tool_call>')
    expect(toolCall.args).toEqual({ data: { a: 1 } })
    expect(fixes).toContain('guessed-value-type')
  })
})
