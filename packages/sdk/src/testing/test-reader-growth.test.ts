// The growth check's message, without timing anything: the measurement is stubbed to what a
// quadratic reader measures (105× for a 10× input), so the test is about what the kit says.
import { describe, expect, it, vi } from 'vitest'
import type { Reader } from '../repair/reader'
import { failuresOf } from './__fixtures__/collect-suite'
import { registerReaderSuite } from './test-reader'

vi.mock('../repair/__fixtures__/scaling-ratio', () => ({ scalingRatio: () => 105.4 }))

const reader: Reader = { name: 'slow', formats: ['tool-markup:slow'], read: () => [] }

describe('testReader growth checks', () => {
  it('should say what grew, for how much longer an input, and what linear would be', async () => {
    const failures = await failuresOf((runner) => registerReaderSuite(runner, reader, { render: ({ name }) => `<slow>${name}</slow>` }))
    const floods = failures.filter((failure) => /linear time/.test(failure.name))
    expect(floods.length).toBe(6)
    for (const failure of floods) expect(failure.message).toMatch(/^the reader's time grew 105× for a 10× longer input of .+ \(linear would be ~10×\): bound every scan/)
  })
})
