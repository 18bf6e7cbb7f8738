/** `JSON.stringify(value)`, or `undefined` for what JSON cannot hold (a cycle, a BigInt) as well as for `undefined`. */
export function tryStringify(value: unknown): string | undefined {
  try {
    return JSON.stringify(value)
  } catch {
    return undefined
  }
}
