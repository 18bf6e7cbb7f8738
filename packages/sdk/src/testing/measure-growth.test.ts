import { describe, expect, it } from 'vitest'
import { assertLinear, describeGrowth, measureGrowth, sizesBetween } from './measure-growth'

// A clock that counts units of work instead of time: the fit itself, without a machine's noise.
function counted(cost: (size: number) => number) {
  let work = 0
  const clock = () => work
  const build = (size: number) => () => {
    work += cost(size)
  }
  return { clock, build }
}

describe('measureGrowth', () => {
  it('should fit an exponent of 1 to linear work, 2 to quadratic work and 0 to constant work', () => {
    const sizes = sizesBetween(1_000, 10_000, 4)
    for (const [cost, exponent] of [[(n: number) => n, 1], [(n: number) => n * n, 2], [() => 5, 0], [(n: number) => n * Math.log(n), 1.1]] as const) {
      const { clock, build } = counted(cost)
      expect(measureGrowth(build, sizes, { clock }).exponent).toBeCloseTo(exponent, 1)
    }
  })

  it('should take the median of the rounds, so one slow run does not move the fit', () => {
    let work = 0
    let runs = 0
    const build = (size: number) => () => {
      // Every seventh run of any size is ten times slower: a neighbour taking the CPU.
      work += size * (++runs % 7 === 0 ? 10 : 1)
    }
    const growth = measureGrowth(build, sizesBetween(1_000, 10_000), { clock: () => work, rounds: 5 })
    expect(growth.exponent).toBeCloseTo(1, 5)
  })

  it('should spread sizes evenly in log scale', () => {
    expect(sizesBetween(10, 1_000)).toEqual([10, 100, 1_000])
    expect(sizesBetween(1_000, 8_000, 4)).toEqual([1_000, 2_000, 4_000, 8_000])
  })
})

describe('assertLinear', () => {
  it('should pass linear work and throw on quadratic work, saying how the time grew', () => {
    const linear = counted((n) => n)
    expect(assertLinear(linear.build, sizesBetween(100, 1_000), { clock: linear.clock }).exponent).toBeCloseTo(1, 5)
    const quadratic = counted((n) => n * n)
    expect(() => assertLinear(quadratic.build, sizesBetween(100, 1_000), { clock: quadratic.clock, what: 'The flood' })).toThrow(/^The flood is not linear: time grew as size\^2\.00 \(linear ≈ 1, quadratic ≈ 2, limit 1\.5\): 100 → /)
  })

  it('should tell a real linear loop from a real quadratic one on this machine', () => {
    const scan = (size: number) => {
      const text = 'ab'.repeat(size / 2)
      return () => {
        let found = 0
        for (let index = 0; index < text.length; index++) if (text.charCodeAt(index) === 97) found++
        return found
      }
    }
    const pairs = (size: number) => () => {
      let found = 0
      for (let left = 0; left < size; left++) for (let right = left; right < size; right++) if ((left ^ right) === 1) found++
      return found
    }
    expect(assertLinear(scan, sizesBetween(100_000, 1_000_000)).exponent).toBeLessThan(1.5)
    expect(() => assertLinear(pairs, sizesBetween(300, 3_000))).toThrow(/is not linear/)
  })

  it('should describe a growth with its sizes and times', () => {
    expect(describeGrowth({ exponent: 1.04, sizes: [10, 100], times: [0.5, 5.2] })).toBe('time grew as size^1.04 (linear ≈ 1, quadratic ≈ 2, limit 1.5): 10 → 0.500 ms, 100 → 5.20 ms')
  })
})
