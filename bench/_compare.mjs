// Times `floor`, `ours` and, when given, `base` (the same work on the baseline build, see
// _baseline.mjs) back to back in seven short rounds: the median of each ratio over interleaved
// rounds resists the noise of a shared machine better than one long run. Latencies are medians
// (p50) in milliseconds.
import { Bench } from 'tinybench'

/** The median of `values` (the upper one of an even count). */
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

export async function compareToFloor(floor, ours, { rounds = 7, time = 250, base } = {}) {
  const results = []
  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({ time, warmupTime: 50 })
    // The order turns every round, so neither build always runs right after the floor.
    const tasks = [['floor', floor], ['ours', ours], ...(base ? [['base', base]] : [])]
    for (const [name, task] of round % 2 && base ? [tasks[0], tasks[2], tasks[1]] : tasks) bench.add(name, task)
    await bench.run()
    const p50 = Object.fromEntries(bench.tasks.map((task) => [task.name, task.result.latency.p50]))
    results.push(p50)
  }
  const ratios = results.map((result) => result.ours / result.floor)
  const middle = results[ratios.indexOf(median(ratios))]
  const compared = { floorMs: middle.floor, oursMs: middle.ours, ratio: middle.ours / middle.floor, ratios }
  if (base) {
    compared.baseRatio = median(results.map((result) => result.base / result.floor))
    compared.oursToBase = median(results.map((result) => result.ours / result.base))
    compared.baseMs = median(results.map((result) => result.base))
  }
  return compared
}

/** One line for the baseline's figures next to ours. */
export function describeBase(label, compared) {
  if (compared.baseRatio === undefined) return `baseline: none (no git history to build one from)`
  return `baseline ${label}: ${(compared.baseMs * 1000).toFixed(1)} µs/op, ${compared.baseRatio.toFixed(2)}× the floor; this build / baseline: ${compared.oursToBase.toFixed(2)}× (medians of ${compared.ratios.length} rounds)`
}
