import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createUtf8Decoder } from './utf8-decoder'

const encode = (text: string) => new TextEncoder().encode(text)

// What a streaming TextDecoder gives for the same reads: the decoder must match it character for character.
function streamed(reads: Uint8Array[]): string {
  const decoder = new TextDecoder()
  return reads.map((read) => decoder.decode(read, { stream: true })).join('') + decoder.decode()
}

function decodedBy(reads: Uint8Array[]): string[] {
  const decode = createUtf8Decoder()
  return [...reads.map((read) => decode(read)), decode()]
}

// The bytes cut at the given offsets (sorted, deduplicated, inside the bytes).
function cut(bytes: Uint8Array, offsets: number[]): Uint8Array[] {
  const points = [...new Set(offsets.map((offset) => offset % (bytes.length + 1)))].sort((a, b) => a - b)
  const reads: Uint8Array[] = []
  let from = 0
  for (const point of [...points, bytes.length]) {
    reads.push(bytes.slice(from, point))
    from = point
  }
  return reads
}

describe('createUtf8Decoder', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('should join a character of 2, 3 or 4 bytes cut at every byte, and drop only the leading BOM', () => {
    const text = '\uFEFFa ü € 日本 🎉\uFEFF\n\uFEFFz 𝄞'
    const bytes = encode(text)
    for (let first = 0; first <= bytes.length; first++) {
      for (let second = first; second <= bytes.length; second++) {
        expect(decodedBy(cut(bytes, [first, second])).join('')).toBe(text.slice(1))
      }
    }
    // One byte per read.
    expect(decodedBy([...bytes].map((byte) => new Uint8Array([byte]))).join('')).toBe(text.slice(1))
  })

  it('should give what a streaming TextDecoder gives, for any bytes cut anywhere (broken ones included)', () => {
    const byte = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x80, 0xbf, 0xc0, 0xc2, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff))
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 8 }), (values, offsets) => {
        const reads = cut(new Uint8Array(values), offsets)
        expect(decodedBy(reads).join('')).toBe(streamed(reads))
      }),
      { numRuns: 3000 },
    )
  })

  it('should give the text of each read as soon as its characters are whole', () => {
    const decode = createUtf8Decoder()
    expect(decode(encode('ab'))).toBe('ab')
    expect(decode(new Uint8Array([0xe2, 0x82]))).toBe('')
    expect(decode(new Uint8Array([0xac, 0x21]))).toBe('€!')
    // A character never finished is one U+FFFD at the end, as TextDecoder says it.
    expect(decode(new Uint8Array([0xf0, 0x9f]))).toBe('')
    expect(decode()).toBe('\uFFFD')
  })

  it('should decode reads of ASCII with a decoder never asked to stream (the fast path on Node), others with a streaming one', () => {
    const calls: Array<{ decoder: TextDecoder; stream: boolean }> = []
    const decode = TextDecoder.prototype.decode
    vi.spyOn(TextDecoder.prototype, 'decode').mockImplementation(function (this: TextDecoder, input, options) {
      calls.push({ decoder: this, stream: options?.stream === true })
      return decode.call(this, input, options)
    })
    const utf8 = createUtf8Decoder()
    const texts = ['data: {"a":1}\n\n', 'data: {"a":2}\n\n', 'data: {"a":"日本語 🎉"}\n\n', 'data: {"a":"€"}\n\n', 'data: {"a":3}\n\n', 'data: {"a":4}\n\n']
    expect(texts.map((text) => utf8(encode(text))).join('') + utf8()).toBe(texts.join(''))
    // A decoder asked to stream once loses Node's fast path for good: no decoder is used both ways.
    const plain = new Set(calls.filter((call) => !call.stream).map((call) => call.decoder))
    for (const call of calls) if (call.stream) expect(plain.has(call.decoder)).toBe(false)
    // The first two reads are ASCII; the third is guessed ASCII too (its text then tells otherwise),
    // the fourth and fifth stream, the sixth is ASCII again, and the end never streams.
    expect(calls.map((call) => call.stream)).toEqual([false, false, false, true, true, false, false])
  })

  it('should match a streaming TextDecoder on text that changes between ASCII and other characters, cut anywhere', () => {
    const piece = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('€', '日本', '🎉', 'ü', '\uFEFF', '\u{10FFFF}'))
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 10 }), (pieces, offsets) => {
        const reads = cut(encode(pieces.join('')), offsets)
        expect(decodedBy(reads).join('')).toBe(streamed(reads))
      }),
      { numRuns: 3000 },
    )
  })
})
