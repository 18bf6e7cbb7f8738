// The growth check's message: a reader that does quadratic work (counted loops, no sleeping) fails
// each flood check with a message that says what was measured, how it grew, and what to do.
import { describe, expect, it } from 'vitest'
import type { Reader } from '../repair/reader'
import { failuresOf } from './__fixtures__/collect-suite'
import { registerReaderSuite } from './test-reader'

let sink = 0
const reader: Reader = {
  name: 'slow',
  formats: ['tool-markup:slow'],
  read: (text) => {
    // Work that grows as the square of the text: 9·10⁶ steps at 300 kB, 9·10⁴ at 30 kB.
    const steps = (text.length / 100) ** 2
    for (let step = 0; step < steps; step++) sink += step
    return []
  },
}

describe('testReader growth checks', () => {
  it('should say what grew, how it grew against linear and quadratic, and what to do', { timeout: 120_000 }, async () => {
    const failures = await failuresOf((runner) => registerReaderSuite(runner, reader, { render: ({ name }) => `<slow>${name}</slow>` }))
    const floods = failures.filter((failure) => /linear time/.test(failure.name))
    expect(floods.length).toBe(6)
    for (const failure of floods) {
      expect(failure.message).toMatch(/^The reader's time on a flood of .+ is not linear: time grew as size\^\d\.\d\d \(linear ≈ 1, quadratic ≈ 2, limit 1\.5\): .+\. Bound every scan, and never rescan from each opener\.$/)
    }
    expect(sink).toBeGreaterThan(0)
  })
})
