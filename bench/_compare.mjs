// Times `floor` and `ours` back to back in seven short rounds and returns the round with the median
// ratio: the median of interleaved rounds resists the noise of a shared machine better than one
// long run. Latencies are medians (p50) in milliseconds.
import { Bench } from 'tinybench'

export async function compareToFloor(floor, ours, { rounds = 7, time = 250 } = {}) {
  const results = []
  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({ time, warmupTime: 50 })
    bench.add('floor', floor).add('ours', ours)
    await bench.run()
    const [floorTask, oursTask] = bench.tasks
    results.push({ floor: floorTask.result.latency.p50, ours: oursTask.result.latency.p50 })
  }
  const ratios = results.map((result) => result.ours / result.floor)
  const middle = results[ratios.indexOf([...ratios].sort((a, b) => a - b)[Math.floor(rounds / 2)])]
  return { floorMs: middle.floor, oursMs: middle.ours, ratio: middle.ours / middle.floor, ratios }
}
