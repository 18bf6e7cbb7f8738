import type { ReaderSuiteRunner } from '../test-reader'

/** A failed test of a suite run by {@link failuresOf}: its full name and its error's message. */
export interface SuiteFailure {
  name: string
  message: string
}

/**
 * Runs a conformance suite (`registerAdapterSuite`, `registerReaderSuite`) with a runner that
 * collects its tests instead of registering them, and resolves with the tests that failed: how the
 * kit's own tests see what the kit says about a bad adapter or reader. Tests whose name matches
 * `skip` are not run (the timing floods, where a test is not about them).
 */
export async function failuresOf(register: (runner: ReaderSuiteRunner) => void, skip?: RegExp): Promise<SuiteFailure[]> {
  const tests: Array<{ name: string; body: () => unknown }> = []
  const path: string[] = []
  const add = (name: string, body: () => unknown) => tests.push({ name: [...path, name].join(' > '), body })
  const format = (name: string, args: unknown[]) => {
    let index = 0
    return name.replace(/%[sj]/g, (spec) => {
      const value = args[index++]
      return spec === '%j' ? JSON.stringify(value) : String(value)
    })
  }
  const it = Object.assign(add, {
    each:
      (cases: readonly unknown[]) =>
      (name: string, body: (...args: unknown[]) => unknown) => {
        for (const item of cases) {
          const args = Array.isArray(item) ? item : [item]
          add(format(name, args), () => body(...args))
        }
      },
    skipIf: (condition: unknown) => (condition ? () => {} : add),
  }) as unknown as ReaderSuiteRunner['it']
  const describe = (name: string, body: () => void) => {
    path.push(name)
    try {
      body()
    } finally {
      path.pop()
    }
  }
  register({ describe, it })
  const failures: SuiteFailure[] = []
  for (const test of tests) {
    if (skip?.test(test.name)) continue
    try {
      await test.body()
    } catch (error) {
      failures.push({ name: test.name, message: error instanceof Error ? error.message : String(error) })
    }
  }
  return failures
}
