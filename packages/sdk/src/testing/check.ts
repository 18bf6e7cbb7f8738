// The conformance kit's assertions. They throw plain errors with a message that says what is wrong,
// so the kit needs no test runner's `expect` and its checks run (and fail) anywhere.

/** A failed conformance check. */
export class ConformanceError extends Error {
  override name = 'AssertionError'
}

/** Throws a {@link ConformanceError} with `message` unless `condition` holds. */
export function ensure(condition: unknown, message: string): asserts condition {
  if (!condition) throw new ConformanceError(message)
}

/** Throws unless two JSON-like values are equal (key order and `undefined` properties ignored, like `toEqual`). */
export function ensureEqual(actual: unknown, expected: unknown, message: string): void {
  if (!matches(actual, expected, false)) throw new ConformanceError(`${message}\n  expected: ${show(expected)}\n  received: ${show(actual)}`)
}

/** Throws unless `actual` has every property of `expected`, recursively (like `toMatchObject`). */
export function ensureSubset(actual: unknown, expected: unknown, message: string): void {
  if (!matches(actual, expected, true)) throw new ConformanceError(`${message}\n  expected to contain: ${show(expected)}\n  received: ${show(actual)}`)
}

function matches(actual: unknown, expected: unknown, subset: boolean): boolean {
  if (Object.is(actual, expected)) return true
  if (typeof actual !== 'object' || typeof expected !== 'object' || actual === null || expected === null) return false
  if (Array.isArray(actual) !== Array.isArray(expected)) return false
  if (Array.isArray(actual)) {
    const list = expected as unknown[]
    return actual.length === list.length && actual.every((item, index) => matches(item, list[index], subset))
  }
  const defined = (value: object) => Object.keys(value).filter((key) => (value as Record<string, unknown>)[key] !== undefined)
  const want = defined(expected)
  if (!subset && defined(actual).length !== want.length) return false
  return want.every((key) => Object.hasOwn(actual, key) && matches((actual as Record<string, unknown>)[key], (expected as Record<string, unknown>)[key], subset))
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 2_000 ? `${text.slice(0, 2_000)}…` : text
}
