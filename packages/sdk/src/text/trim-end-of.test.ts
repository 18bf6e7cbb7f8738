import { describe, expect, it } from 'vitest'
import { assertLinear, sizesBetween } from '../testing/measure-growth'
import { trimEndOf } from './trim-end-of'

describe('trimEndOf', () => {
  it('should drop only the listed characters at the end', () => {
    expect(trimEndOf('https://api.example.com//', '/')).toBe('https://api.example.com')
    expect(trimEndOf('-1e+', '.eE+-')).toBe('-1')
    expect(trimEndOf('1s, .\n', /[\s,.]/)).toBe('1s')
    expect(trimEndOf('a / b', '/')).toBe('a / b')
    expect(trimEndOf('///', '/')).toBe('')
  })

  it('should take time linear in a run of those characters before the end', () => {
    const run = (count: number) => () => trimEndOf(`1${' '.repeat(count)}2 `, /\s/)
    // From 1 MB up: a smaller run fits in the CPU's cache and costs less per character than a large one.
    assertLinear(run, sizesBetween(1_000_000, 10_000_000))
  })
})
