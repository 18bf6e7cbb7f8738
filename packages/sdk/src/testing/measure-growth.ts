// How a run's cost grows with its input, measured so that the machine's speed, a busy neighbour,
// caches and GC do not decide the answer: the suite's linear-time tests and the conformance kit's
// flood checks all measure through here.

/** How the time of a run grew over its input sizes. */
export interface Growth {
  /** The fitted slope of log(time) against log(size): about 1 when linear, 2 when quadratic. */
  exponent: number
  sizes: number[]
  /** Milliseconds per run at each size: the median over the rounds. */
  times: number[]
}

/** Options of {@link measureGrowth}. */
export interface GrowthOptions {
  /** Interleaved rounds after the warm-up; each size's time is their median. Default 3. */
  rounds?: number
  /** A measurement repeats a fast run until it lasts about this long (ms), so timer granularity does not count. Default 1. */
  minMs?: number
  /** The clock, in ms. Default: this process's CPU time, which a loaded machine does not inflate by taking the CPU away. */
  clock?: () => number
}

/** The exponent above which growth counts as worse than linear: halfway (in log terms) between linear (1) and quadratic (2). */
export const LINEAR_LIMIT = 1.5

/** This process's CPU time in ms (wall time where there is no `process.cpuUsage`). */
export function cpuClock(): number {
  const usage = globalThis.process?.cpuUsage?.()
  return usage ? (usage.user + usage.system) / 1000 : performance.now()
}

/** `count` sizes spread evenly in log scale from `smallest` to `largest` (rounded to integers). */
export function sizesBetween(smallest: number, largest: number, count = 3): number[] {
  return Array.from({ length: count }, (_, index) => Math.round(smallest * (largest / smallest) ** (index / (count - 1))))
}

function time(run: () => unknown, clock: () => number): number {
  const started = clock()
  run()
  return Math.max(clock() - started, 0.001)
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!

/**
 * Times `build(size)` (a function that does one run on an input of that size, built before the
 * clock starts) at every size and fits the slope of log(time) against log(size). A warm-up run of
 * each size comes first; then every round times every size, forwards and backwards in turn, so a
 * slow spell of the machine falls on all sizes alike; each size's time is its median over the
 * rounds. The slope of a linear run stays near 1 on a slow or loaded machine, where a ratio of
 * absolute times would not, and a quadratic one stays near 2 on a fast idle one.
 */
export function measureGrowth(build: (size: number) => () => unknown, sizes: number[], options: GrowthOptions = {}): Growth {
  const { rounds = 3, minMs = 1, clock = cpuClock } = options
  const runs = sizes.map(build)
  // The warm-up run also tells how often a measurement must repeat a fast run (timed again when fast: the first pays for compiling).
  const repeats = runs.map((run) => {
    let took = time(run, clock)
    if (took < minMs) took = time(run, clock)
    return Math.max(1, Math.ceil(minMs / took))
  })
  const samples: number[][] = sizes.map(() => [])
  for (let round = 0; round < rounds; round++) {
    for (let step = 0; step < sizes.length; step++) {
      const index = round % 2 === 0 ? step : sizes.length - 1 - step
      const run = runs[index]!
      const started = clock()
      for (let repeat = 0; repeat < repeats[index]!; repeat++) run()
      samples[index]!.push(Math.max(clock() - started, 0.001) / repeats[index]!)
    }
  }
  const times = samples.map(median)
  const xs = sizes.map(Math.log)
  const ys = times.map(Math.log)
  const meanX = xs.reduce((sum, x) => sum + x, 0) / xs.length
  const meanY = ys.reduce((sum, y) => sum + y, 0) / ys.length
  let covariance = 0
  let variance = 0
  for (let index = 0; index < xs.length; index++) {
    covariance += (xs[index]! - meanX) * (ys[index]! - meanY)
    variance += (xs[index]! - meanX) ** 2
  }
  return { exponent: covariance / variance, sizes, times }
}

/** `time grew as size^1.04 (linear ≈ 1, quadratic ≈ 2, limit 1.5): 10000 → 0.52 ms, …`. */
export function describeGrowth(growth: Growth, limit = LINEAR_LIMIT): string {
  const points = growth.sizes.map((size, index) => `${size} → ${growth.times[index]!.toPrecision(3)} ms`).join(', ')
  return `time grew as size^${growth.exponent.toFixed(2)} (linear ≈ 1, quadratic ≈ 2, limit ${limit}): ${points}`
}

/**
 * Throws unless `build(size)` runs in time linear in `size` over `sizes` (the exponent of
 * {@link measureGrowth} under `limit`). A failed measurement is taken once more before it counts:
 * a linear run fails twice in a row only by rare chance, a quadratic one every time.
 */
export function assertLinear(build: (size: number) => () => unknown, sizes: number[], options: GrowthOptions & { limit?: number; what?: string } = {}): Growth {
  const limit = options.limit ?? LINEAR_LIMIT
  let growth = measureGrowth(build, sizes, options)
  if (growth.exponent >= limit) growth = measureGrowth(build, sizes, options)
  if (growth.exponent >= limit) throw new Error(`${options.what ?? 'The run'} is not linear: ${describeGrowth(growth, limit)}`)
  return growth
}
