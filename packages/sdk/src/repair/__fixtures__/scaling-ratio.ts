/**
 * How much longer `large` takes than `small`: best of alternating rounds (other processes on a busy
 * machine slow single runs), with a floor under the small run so timer and JIT noise on a
 * sub-millisecond baseline cannot inflate the ratio. A guard against quadratic blow-ups, not a
 * speed claim: ten times the input costs about 10× when linear and 100× when quadratic.
 */
export function scalingRatio(large: () => unknown, small: () => unknown, rounds = 5, now: () => number = () => performance.now()): number {
  let bestLarge = Number.POSITIVE_INFINITY
  let bestSmall = Number.POSITIVE_INFINITY
  for (let round = 0; round < rounds; round++) {
    let started = now()
    small()
    bestSmall = Math.min(bestSmall, now() - started)
    started = now()
    large()
    bestLarge = Math.min(bestLarge, now() - started)
  }
  return bestLarge / Math.max(bestSmall, 5)
}

/**
 * This process's CPU time in milliseconds, a clock for {@link scalingRatio} that does not count the
 * time other processes on a loaded machine take from this one.
 */
export function cpuClock(): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}
