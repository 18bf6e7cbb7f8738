import { describe, expect, it } from 'vitest'
import { configError } from './__fixtures__/config-error'
import { toWireName, wireNames } from './wire-names'

const ALLOWED = /^[\w-]{1,64}$/
const long = `mcp__filesystem__${'read_multiple_files_with_metadata_'.repeat(3)}`

describe('toWireName', () => {
  it('should keep a name the OpenAI API accepts as it is', () => {
    for (const name of ['click', 'Calendar_create_event', 'go-back', 'a'.repeat(64)]) expect(toWireName(name)).toBe(name)
  })

  it.each([
    ['a dot', 'Calendar.create_event', 'Calendar_create_event'],
    ['two dots', 'api.tools.search', 'api_tools_search'],
    ['a space', 'create event', 'create_event'],
    ['a slash and a colon', 'files/read:v2', 'files_read_v2'],
  ])('should replace %s with "_"', (_label, name, wire) => {
    expect(toWireName(name)).toBe(wire)
  })

  it('should shorten a name over 64 characters to its start and a hash of the whole', () => {
    const wire = toWireName(long)
    expect(wire).toMatch(ALLOWED)
    expect(wire).toHaveLength(64)
    expect(wire.startsWith(long.slice(0, 50))).toBe(true)
    // Two long names that share their first 64 characters still differ.
    expect(toWireName(`${long}_one`)).not.toBe(toWireName(`${long}_two`))
  })

  it('should hash an empty name and names beyond printable ASCII, so they do not collide as "_"s', () => {
    const names = ['', '天气', '新闻', 'météo', 'tab\there']
    const wires = names.map(toWireName)
    for (const wire of wires) expect(wire).toMatch(ALLOWED)
    expect(new Set(wires).size).toBe(names.length)
    expect(wires[3]!.startsWith('m_t_o_')).toBe(true)
  })

  it('should only ever give names of 1 to 64 allowed characters', () => {
    const samples = ['', ' ', '.', '-', '_', 'a.b', ' leading', 'x'.repeat(65), 'é'.repeat(100), '😀', `${'a.'.repeat(40)}`, 'ok']
    for (const name of samples) expect(toWireName(name), JSON.stringify(name)).toMatch(ALLOWED)
  })

  it('should give the same names in every run and process (FNV-1a of the name, nothing random or stateful)', () => {
    // Pinned: a change here renames tools that users may have stored in histories.
    expect(['Calendar.create_event', long, '天气', ''].map(toWireName)).toEqual([
      'Calendar_create_event',
      'mcp__filesystem__read_multiple_files_with_metadata_read_m_9qzgaz',
      '___jxfyy8',
      '_ztntfp',
    ])
  })
})

describe('wireNames', () => {
  const tool = {}

  it('should map nothing for a tool set the OpenAI API accepts', () => {
    expect(wireNames({ click: tool, done: tool })).toBeUndefined()
  })

  it('should map each wire name back to its own name, the same map for the same set', () => {
    const tools = { 'Calendar.create_event': tool, 'api.tools.search': tool, done: tool }
    const toOwn = wireNames(tools)!
    expect([...toOwn]).toEqual([
      ['Calendar_create_event', 'Calendar.create_event'],
      ['api_tools_search', 'api.tools.search'],
      ['done', 'done'],
    ])
    expect(wireNames(tools)).toBe(toOwn)
  })

  it('should see a tool added to a set it has already mapped', () => {
    const tools: Record<string, object> = { done: tool }
    expect(wireNames(tools)).toBeUndefined()
    tools['web.search'] = tool
    expect(wireNames(tools)?.get('web_search')).toBe('web.search')
  })

  it.each([
    ['a refused name and the name it maps to', { a_b: tool, 'a.b': tool }, '"a_b" and "a.b"', 'a_b'],
    ['two refused names', { 'a.b': tool, 'a b': tool }, '"a.b" and "a b"', 'a_b'],
  ])('should refuse %s that would be sent under the same name, naming both', (_label, tools, both, sent) => {
    const message = configError(() => wireNames(tools))
    expect(message).toContain(`tools ${both} are both sent as "${sent}"`)
    expect(message).toContain('rename one')
  })
})
