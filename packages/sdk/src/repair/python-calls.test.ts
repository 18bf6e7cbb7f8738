import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool, repairToolCall } from '../index'
import type { ToolSet } from '../tool/types'
import { failure } from './__fixtures__/failure'
import { evaluateArithmetic } from './reading/python-expression'

// Python-style call lists as small open models write them when a benchmark's prompt asks for
// `[func(a=1, b="x")]`: values that are no literals, strings that never close, positional arguments.

const tool = <S extends z.ZodType>(inputSchema: S) => defineTool({ description: 'a tool', inputSchema })
const tools: ToolSet = {
  get_weather: tool(z.object({ city: z.string(), unit: z.enum(['celsius', 'fahrenheit']).optional() })),
  calculate_area: tool(z.object({ radius: z.number(), precision: z.number().int().optional() })),
  plot_column: tool(z.object({ x: z.string(), column: z.string().optional() })),
  book_venue: tool(z.object({ venue: z.string(), seats: z.number().int(), date: z.string().optional() })),
  schedule_meeting: tool(z.object({ title: z.string(), start: z.string(), attendees: z.array(z.string()) })),
  set_flags: tool(z.object({ flags: z.array(z.string()), enabled: z.boolean() })),
  search: tool(z.object({ q: z.string() })),
  paint: tool(z.object({ wall: z.number().int(), color: z.string() })),
}
const read = (text: string) => repairToolCall({ role: 'assistant', content: text }, tools)

describe('repairToolCall on Python-style calls', () => {
  describe('values that are no literals, read by the parameter type', () => {
    it.each([
      ['a bare name', '[get_weather(city=Paris)]', 'get_weather', { city: 'Paris' }],
      ['a bare name for an enum', '[get_weather(city="Oslo", unit=celsius)]', 'get_weather', { city: 'Oslo', unit: 'celsius' }],
      ['a subscript and an attribute', '[plot_column(x=frame["revenue"], column=row.price)]', 'plot_column', { x: 'frame["revenue"]', column: 'row.price' }],
      ['unquoted words up to the comma', '[book_venue(venue=Royal Albert Hall, seats=2)]', 'book_venue', { venue: 'Royal Albert Hall', seats: 2 }],
      ['unquoted words with unicode and an apostrophe-free accent', '[book_venue(venue=Théâtre du Châtelet , seats=12)]', 'book_venue', { venue: 'Théâtre du Châtelet', seats: 12 }],
      ['a date for a string', '[book_venue(venue="Hall", seats=3, date=2025-01-01)]', 'book_venue', { venue: 'Hall', seats: 3, date: '2025-01-01' }],
      ['a zip code with its leading zero', '[search(q=02139)]', 'search', { q: '02139' }],
      ['constant arithmetic', '[calculate_area(radius=3 * 1.5, precision=10**3)]', 'calculate_area', { radius: 4.5, precision: 1000 }],
      ['arithmetic with parentheses and a negative number', '[calculate_area(radius=-(2 + 0.5) * -2)]', 'calculate_area', { radius: 5 }],
      ['a call as a string value', '[search(q=datetime.now())]', 'search', { q: 'datetime.now()' }],
      ['a bare name after a line break in a list', '[\n  get_weather(city=London),\n  search(q=x)\n]', 'get_weather', { city: 'London' }],
      ['colon arguments with a bare value', '<tool_call>get_weather(city: Antwerp)</tool_call>', 'get_weather', { city: 'Antwerp' }],
      ['bare names in a list', '[schedule_meeting(title="Sync", start="9am", attendees=[alice, "bob", carol.smith])]', 'schedule_meeting', { title: 'Sync', start: '9am', attendees: ['alice', 'bob', 'carol.smith'] }],
    ])('should read %s', (_label, text, name, args) => {
      const result = read(text)
      expect(result.toolCall).toEqual({ name, args })
    })

    it('should report the readings as fixes', () => {
      expect(read('[get_weather(city=Paris)]').fixes).toContain('unquoted-value')
      expect(read('[calculate_area(radius=2*3)]').fixes).toContain('evaluated-arithmetic')
      expect(read('<tool_call>get_weather(city: "Antwerp")</tool_call>').fixes).toContain('colon-arguments')
    })

    it.each([
      ['a name for a number', '[calculate_area(radius=r)]'],
      ['a name in arithmetic', '[calculate_area(radius=r * 2)]'],
      ['a number with a leading zero', '[calculate_area(radius=012)]'],
      ['a division by zero', '[calculate_area(radius=1 / 0)]'],
      ['a name for a boolean', '[set_flags(flags=["a"], enabled=yes)]'],
      ['a name for an array', '[set_flags(flags=a, enabled=True)]'],
      ['a positional word after a keyword', '[get_weather(city=Paris, France)]'],
      ['a missing comma', '[book_venue(venue=Hall seats=2)]'],
      ['a string followed by more', '[search(q="a" "b")]'],
      ['an f-string', '[search(q=f"hello {name}")]'],
      ['a value that echoes its parameter', '[get_weather(city=city)]'],
      ['a type annotation', 'The tool is search(q: str).'],
      ['a placeholder', '[get_weather(city=<city>)]'],
      ['an ellipsis', '[get_weather(city=...)]'],
      ['a typing generic', '[plot_column(x="a", column=Optional[str])]'],
      ['a bare name in a list of booleans', '[set_flags(flags=[a, b], enabled=[yes])]'],
    ])('should not read %s', (_label, text) => {
      expect(() => read(text)).toThrow()
    })

    it('should not read a bare value for a tool it does not know', () => {
      const error = failure(() => read('[lookup(city=Paris)]'))
      expect(error.type).toBe('no_tool_call')
    })
  })

  describe('a string that never closes', () => {
    it.each([
      ['at the end of the list', '[get_weather(city="Paris", unit="celsius)]', { name: 'get_weather', args: { city: 'Paris', unit: 'celsius' } }],
      ['at the end of a lone call', 'get_weather(city="Paris)', { name: 'get_weather', args: { city: 'Paris' } }],
      ['in a tag', "<tool_call>get_weather(city='Lyon)</tool_call>", { name: 'get_weather', args: { city: 'Lyon' } }],
    ])('should end it before its call closes, %s', (_label, text, call) => {
      const result = read(text)
      expect(result.toolCall).toEqual(call)
      expect(result.fixes).toContain('unclosed-string')
    })

    it('should end it before the next call of a declared tool, which is read too', () => {
      const result = read('[paint(wall=1, color="red), paint(wall=2, color="blue")]')
      expect(result.toolCall).toEqual({ name: 'paint', args: { wall: 1, color: 'red' } })
      expect(result.dropped).toEqual([{ name: 'paint', args: { wall: 2, color: 'blue' }, reason: 'extra' }])
    })

    it.each([
      ['text that looks like the next argument', '[paint(wall=1, color="red, wall=2)]'],
      ['a `)` followed by prose', '[search(q="a) and then more text'],
      ['a `)` before a call of no declared tool', '[search(q="a), lookup(x=1)]'],
    ])('should not end it at %s', (_label, text) => {
      expect(() => read(text)).toThrow()
    })
  })

  describe('positional arguments', () => {
    it.each([
      ['one value', "[get_weather('Austin')]", { name: 'get_weather', args: { city: 'Austin' } }],
      ['values in declared order', '[schedule_meeting("Review", "2025-02-10T14:00", ["a@x.io", "b@y.org"])]', { name: 'schedule_meeting', args: { title: 'Review', start: '2025-02-10T14:00', attendees: ['a@x.io', 'b@y.org'] } }],
      ['positional then keyword', '[book_venue("Hall", 40, date="2025-05-01")]', { name: 'book_venue', args: { venue: 'Hall', seats: 40, date: '2025-05-01' } }],
    ])('should map %s', (_label, text, call) => {
      const result = read(text)
      expect(result.toolCall).toEqual(call)
      expect(result.fixes).toContain('positional-arguments')
    })

    it.each([
      ['a value of the wrong type', '[book_venue(40, "Hall")]'],
      ['more values than parameters', '[search("a", "b")]'],
      ['a value also given by keyword', '[book_venue("Hall", 40, venue="Other")]'],
      ['a bare word (the signature, in prose)', 'I can call get_weather(city) for that.'],
    ])('should not map %s', (_label, text) => {
      expect(() => read(text)).toThrow()
    })
  })
})

describe('evaluateArithmetic', () => {
  it.each([
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['2 ** 3 ** 2', 512],
    ['-2 ** 2', -4],
    ['7 // 2', 3],
    ['-7 // 2', -4],
    ['-7 % 3', 2],
    ['7 % -3', -2],
    ['1_000 / 8', 125],
    ['.5 + 1e2', 100.5],
  ])('should evaluate %s as Python does', (source, value) => {
    expect(evaluateArithmetic(source)).toBe(value)
  })

  it.each(['x', '1 +', '2 * (3', '1 / 0', '5 % 0', '10 ** 400', '(-8) ** 0.5', '0x10', '012', '1 2', 'abs(1)', '1; 2'])('should refuse %s', (source) => {
    expect(evaluateArithmetic(source)).toBeUndefined()
  })
})

describe('repairToolCall on tool names', () => {
  const namespaced: ToolSet = {
    'functions.roots': tool(z.object({ a: z.number(), b: z.number() })),
    'tools.lookup': tool(z.object({ term: z.string() })),
    roots: tool(z.object({ x: z.string() })),
  }

  it.each([
    ['a pythonic call', '[functions.roots(a=1, b=-2)]', { name: 'functions.roots', args: { a: 1, b: -2 } }],
    ['a call in a tag', '<tool_call>tools.lookup(term="graph")</tool_call>', { name: 'tools.lookup', args: { term: 'graph' } }],
    ['a Hermes call', '<tool_call>\n{"name": "tools.lookup", "arguments": {"term": "graph"}}\n</tool_call>', { name: 'tools.lookup', args: { term: 'graph' } }],
    ['a namespace stripped when the rest is declared', '[functions.functions.roots(a=1, b=2)]', { name: 'functions.roots', args: { a: 1, b: 2 } }],
    ['a namespace stripped from an undeclared name', '[functions.roots_x(x="a")]', undefined],
  ])('should match a declared namespaced name by its full name first, in %s', (_label, text, call) => {
    if (call === undefined) {
      expect(() => repairToolCall({ role: 'assistant', content: text }, namespaced)).toThrow()
      return
    }
    expect(repairToolCall({ role: 'assistant', content: text }, namespaced).toolCall).toEqual(call)
  })

  it('should still strip functions. from a name declared without it', () => {
    expect(repairToolCall({ role: 'assistant', content: '[functions.roots(x="y")]' }, { roots: namespaced.roots! }).toolCall).toEqual({ name: 'roots', args: { x: 'y' } })
  })

  it('should name dropped calls by the declared tool their written name means', () => {
    const dotted: ToolSet = { ...tools, 'math.factorial': tool(z.object({ n: z.number().int() })) }
    const text = '[get_weather(city="Paris"), Search(q="x"), functions.search(q="y"), math_factorial(n=5), Math_Factorial(n="six"), unknown_tool(a=1)]'
    const result = repairToolCall({ role: 'assistant', content: text }, dotted)
    expect(result.toolCall).toEqual({ name: 'get_weather', args: { city: 'Paris' } })
    expect(result.dropped.map((call) => call.name)).toEqual(['search', 'search', 'math.factorial', 'math.factorial', 'unknown_tool'])
  })

  it('should name a dropped call that failed by its declared tool', () => {
    const result = read('[Calculate_Area(radius="big"), get_weather(city="Paris")]')
    expect(result.toolCall.name).toBe('get_weather')
    expect(result.dropped).toMatchObject([{ name: 'calculate_area', args: { radius: 'big' } }])
  })
})

describe('repairToolCall on a list written as a string', () => {
  const play = { play: tool(z.object({ instruments: z.array(z.string()), tempo: z.number().optional(), options: z.object({ loud: z.boolean() }).optional() })) }
  const call = (content: string) => repairToolCall({ role: 'assistant', content }, play).toolCall.args

  it.each([
    ['a Python list in a string', `[play(instruments="['guitar', 'piano']")]`, { instruments: ['guitar', 'piano'] }],
    ['a JSON list in a string', `[play(instruments='["guitar", "piano"]')]`, { instruments: ['guitar', 'piano'] }],
    ['a Python list with an apostrophe', `{"name": "play", "arguments": {"instruments": "['Rock \\\\'n\\\\' roll', 'jazz']"}}`, { instruments: ["Rock 'n' roll", 'jazz'] }],
    ['a Python dict in a string', `[play(instruments=["drums"], options="{'loud': True}")]`, { instruments: ['drums'], options: { loud: true } }],
  ])('should read %s as the list it spells', (_label, text, args) => {
    expect(call(text)).toEqual(args)
  })

  it('should keep a plain string a one-element list, and not guess at text that is no literal', () => {
    expect(call('[play(instruments="guitar")]')).toEqual({ instruments: ['guitar'] })
    expect(call('[play(instruments="[guitar, piano]")]')).toEqual({ instruments: ['[guitar, piano]'] })
  })
})

describe('repairToolCall on calls inside JSON', () => {
  it.each([
    ['a list of call strings', `["search(q='a')", "search(q='b')"]`, 'call-in-string'],
    ['call strings with spaces and a fence', '```json\n[ "search(q=\\"a\\")" , " get_weather(city=\'Oslo\') " ]\n```', 'call-in-string'],
    ['a list of name/arguments pairs', '[["search", {"q": "a"}], ["get_weather", {"city": "Oslo"}]]', 'name-argument-pair'],
    ['pairs side by side', '["search", {"q": "a"}], ["get_weather", {"city": "Oslo"}]', 'name-argument-pair'],
  ])('should read %s as the calls they are', (_label, text, fix) => {
    const result = read(text)
    expect(result.toolCall).toEqual({ name: 'search', args: { q: 'a' } })
    expect(result.dropped).toHaveLength(1)
    expect(result.fixes).toContain(fix)
  })

  it.each([
    ['strings of which one is no call', `["search(q='a')", "just text"]`],
    ['a string calling an undeclared tool', `["lookup(q='a')"]`],
    ['a pair naming an undeclared tool', '["lookup", {"q": "a"}]'],
    ['a string with text after its call', `["search(q='a') then more"]`],
  ])('should not read %s', (_label, text) => {
    expect(() => read(text)).toThrow()
  })
})

describe('repairToolCall on a list holding a call no reading takes', () => {
  it('should take the first call and report the unreadable one and the rest in dropped', () => {
    const result = read('[search(q="a"), calculate_area(radius=r), get_weather(city="Rome"), search(q="d")]')
    expect(result.toolCall).toEqual({ name: 'search', args: { q: 'a' } })
    expect(result.dropped).toEqual([
      { name: 'calculate_area', args: 'radius=r', reason: 'extra' },
      { name: 'get_weather', args: { city: 'Rome' }, reason: 'extra' },
      { name: 'search', args: { q: 'd' }, reason: 'extra' },
    ])
  })

  it('should not report JSON inside the unreadable call as calls of their own', () => {
    const result = read('[search(q="a"), calculate_area(radius={"r": b}), search(q="c")]')
    expect(result.dropped.map((call) => call.name)).toEqual(['calculate_area', 'search'])
  })

  it('should take the next call after a first one it cannot read, reporting why that one was not taken', () => {
    const result = read('[calculate_area(radius=lambda x: x), search(q="c")]')
    expect(result.toolCall).toEqual({ name: 'search', args: { q: 'c' } })
    expect(result.dropped).toEqual([{ name: 'calculate_area', args: 'radius=lambda x: x', reason: expect.stringContaining('no reading takes') }])
  })

  it('should say which call it could not read when it is the only one', () => {
    const error = failure(() => read('[calculate_area(radius=r)]'))
    expect(error.type).toBe('invalid_tool_args')
    expect(error.message).toContain('calculate_area')
  })
})

describe('repairToolCall on a tool named in prose with a signature', () => {
  it('should answer no_tool_call, reporting no unreadable call', () => {
    const error = failure(() => read('I can look things up with search(query) or check the weather with get_weather(city).'))
    expect(error.type).toBe('no_tool_call')
  })
})
