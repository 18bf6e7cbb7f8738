// Times `floor`, `ours` and, when given, `base` (the same work on the baseline build, see
// _baseline.mjs) side by side: many short rounds, each a slice of about 4 ms of calls of every task
// in turn (the order turning every round), so that the figures a ratio compares were taken
// milliseconds apart, under the same load. A round's figure for a task is the median latency of its
// calls (a GC pause or a neighbour's burst moves a few calls, not the median); the ratio reported is
// the median over the rounds. Seven rounds of 250 ms each (tinybench, before) put a task a quarter
// of a second from the one it was divided by: on a shared machine their ratios spanned 0.64–2.12
// for unchanged code, and the median moved by ±0.05 from run to run. Latencies are in milliseconds.

/** The median of `values` (the upper one of an even count). */
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

const now = () => performance.now()

/** Calls `task` (sync or async) `count` times, each timed; writes the latencies into `into`. */
async function slice(task, count, into) {
  for (let index = 0; index < count; index++) {
    const start = now()
    const pending = task()
    if (pending && typeof pending.then === 'function') await pending
    into[index] = now() - start
  }
}

/**
 * `{ floorMs, oursMs, ratio, ratios }` (the round of the median ratio, and every round's ratio), and
 * with `base`: `baseMs`, `baseRatio` (to the floor) and `oursToBase`, medians over the same rounds.
 * `WILDCALL_BENCH_MS` sets the time the rounds take (default 6,000 ms); more rounds, steadier medians.
 */
export async function compareToFloor(floor, ours, { sliceMs = 4, totalMs = Number(process.env.WILDCALL_BENCH_MS) || 6000, base } = {}) {
  const tasks = [floor, ours, ...(base ? [base] : [])]
  // Warm-up, and the calls per slice: about `sliceMs` of each task (at least 5 calls).
  let count = 5
  for (const task of tasks) {
    const latencies = new Float64Array(200)
    const until = now() + 300
    while (now() < until) await slice(task, 200, latencies)
    count = Math.max(count, Math.min(2000, Math.round(sliceMs / median(latencies))))
  }
  const latencies = new Float64Array(count)
  const probe = now()
  const results = []
  // As many rounds as fit in `totalMs` (at least 15): the first one tells how long a round takes.
  for (let round = 0, rounds = 15; round < rounds; round++) {
    const p50 = new Array(tasks.length)
    for (let turn = 0; turn < tasks.length; turn++) {
      const index = (turn + round) % tasks.length
      await slice(tasks[index], count, latencies)
      p50[index] = median(latencies)
    }
    results.push(p50)
    if (round === 0) rounds = Math.max(15, Math.floor(totalMs / (now() - probe))) | 1
  }
  const ratios = results.map(([floorMs, oursMs]) => oursMs / floorMs)
  const middle = results[ratios.indexOf(median(ratios))]
  const compared = { floorMs: middle[0], oursMs: middle[1], ratio: middle[1] / middle[0], ratios }
  if (base) {
    compared.baseRatio = median(results.map((result) => result[2] / result[0]))
    compared.oursToBase = median(results.map((result) => result[1] / result[2]))
    compared.baseMs = median(results.map((result) => result[2]))
  }
  return compared
}

/** `median of 333 rounds, middle half 1.18–1.25`: how the ratios of the rounds spread. */
export function describeRounds(ratios) {
  const sorted = [...ratios].sort((a, b) => a - b)
  const at = (share) => sorted[Math.round(share * (sorted.length - 1))].toFixed(2)
  return `median of ${ratios.length} rounds, middle half ${at(0.25)}–${at(0.75)}`
}

/** One line for the baseline's figures next to ours. */
export function describeBase(label, compared) {
  if (compared.baseRatio === undefined) return `baseline: none (no git history to build one from)`
  return `baseline ${label}: ${(compared.baseMs * 1000).toFixed(1)} µs/op, ${compared.baseRatio.toFixed(2)}× the floor; this build / baseline: ${compared.oursToBase.toFixed(2)}× (medians of ${compared.ratios.length} rounds)`
}
