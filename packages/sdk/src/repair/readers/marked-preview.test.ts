import { describe, expect, it } from 'vitest'
import { kimiK3Reader } from './kimi-k3'
import { minimaxM3Reader } from './minimax-m3'
import type { Reader } from '../reader'

/** Pushes `text` in pieces of `size` characters; returns each distinct preview, its name and start. */
function previewIn(reader: Reader, text: string, size: number) {
  const preview = reader.preview!(0)
  const seen: unknown[] = []
  for (let offset = 0; offset < text.length; offset += size) {
    preview.push(text.slice(offset, offset + size))
    if (preview.start < 0) continue
    const args = preview.read()
    if (JSON.stringify(args) !== JSON.stringify(seen.at(-1))) seen.push(args)
  }
  return { seen, name: preview.name, start: preview.start }
}

const K3 = (body: string, name = 'search') => `Sure.<|open|>tools<|sep|><|open|>call tool="${name}" index="1"<|sep|>${body}<|close|>call<|sep|>`
const M = ']<]minimax[>['

describe('the Kimi K3 and MiniMax M3 previews', () => {
  it('should read the same arguments whatever the piece size, each preview growing into the next', () => {
    const cases: Array<[Reader, string, Record<string, unknown>]> = [
      [kimiK3Reader, K3('<|open|>argument key="q" type="string"<|sep|>a <b> & <|sep|>c<|close|>argument<|sep|><|open|>argument key="n" type="number"<|sep|>12<|close|>argument<|sep|>'), { q: 'a <b> & <|sep|>c', n: 12 }],
      [kimiK3Reader, K3('<|open|>json type="object"<|sep|>{"q": "abc", "tags": ["x"]}<|close|>json<|sep|>'), { q: 'abc', tags: ['x'] }],
      [minimaxM3Reader, `${M}<tool_call>\n${M}<invoke name="search">\n${M}<q>a <b> & c${M}</q>\n${M}<where>${M}<city>Paris${M}</city>${M}</where>\n${M}</invoke>\n${M}</tool_call>`, { q: 'a <b> & c', where: { city: 'Paris' } }],
    ]
    for (const [reader, text, args] of cases) {
      for (const size of [1, 2, 5, 13, text.length]) {
        const { seen, name, start } = previewIn(reader, text, size)
        expect(name, `${size} ${text}`).toBe('search')
        // The arguments start right after the call's opening tag.
        const headEnd = reader === kimiK3Reader ? text.indexOf('<|sep|>', text.indexOf('call tool=')) + 7 : text.indexOf('>', text.indexOf('invoke name=')) + 1
        expect(start).toBe(headEnd)
        expect(seen.at(-1), `${size} ${text}`).toEqual(args)
        // Never a cut-off marker or a half-written tag shown as text.
        for (const value of seen) expect(JSON.stringify(value)).not.toMatch(/<\|(?:c|cl|clo|close\|?)"|\]<\]mini|\]<\]"|<\|open/)
      }
    }
  })

  it('should not merge a second call into the first one, nor preview prose that only names the opener', () => {
    const two = K3('<|open|>argument key="q" type="string"<|sep|>one<|close|>argument<|sep|>') + '<|open|>call tool="other" index="2"<|sep|><|open|>argument key="r" type="string"<|sep|>two<|close|>argument<|sep|><|close|>call<|sep|>'
    const first = previewIn(kimiK3Reader, two, 3)
    expect(first.name).toBe('search')
    expect(first.seen.at(-1)).toEqual({ q: 'one' })
    expect(previewIn(minimaxM3Reader, `I would write ${M}<invoke and stop there.`, 4)).toMatchObject({ start: -1, seen: [] })
    expect(previewIn(minimaxM3Reader, `${M}<invoke name="a">${M}<q>1${M}</q>${M}</invoke>${M}<invoke name="b">${M}<r>2${M}</r>`, 4).seen.at(-1)).toEqual({ q: '1' })
  })
})
