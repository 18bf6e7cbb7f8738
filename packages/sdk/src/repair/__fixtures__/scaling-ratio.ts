/**
 * How much longer `large` takes than `small`: best of alternating rounds (other processes on a busy
 * machine slow single runs), with a floor under the small run so timer and JIT noise on a
 * sub-millisecond baseline cannot inflate the ratio. A guard against quadratic blow-ups, not a
 * speed claim: ten times the input costs about 10× when linear and 100× when quadratic.
 */
export function scalingRatio(large: () => unknown, small: () => unknown, rounds = 5): number {
  let bestLarge = Number.POSITIVE_INFINITY
  let bestSmall = Number.POSITIVE_INFINITY
  for (let round = 0; round < rounds; round++) {
    let started = performance.now()
    small()
    bestSmall = Math.min(bestSmall, performance.now() - started)
    started = performance.now()
    large()
    bestLarge = Math.min(bestLarge, performance.now() - started)
  }
  return bestLarge / Math.max(bestSmall, 5)
}
