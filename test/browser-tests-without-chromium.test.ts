import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const run = promisify(execFile)
const repoRoot = fileURLToPath(new URL('..', import.meta.url))
const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url))
// Every test that drives Chromium (each finds it through test/chromium.ts).
const BROWSER_TESTS = ['examples/browser/test/browser.test.ts', 'test/json-schema-csp.test.ts']
const MISSING = '/nonexistent/wildcall/chromium'

/** Runs the browser test files in their own vitest, as `npm test` would, with the given environment. */
async function runBrowserTest(env: Record<string, string | undefined>): Promise<{ code: number; output: string }> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(VITEST|WILDCALL_)/.test(name)))
  try {
    const { stdout, stderr } = await run(process.execPath, [vitest, 'run', ...BROWSER_TESTS, '--reporter=default', '--color=false'], {
      cwd: repoRoot,
      env: { ...base, NO_COLOR: '1', ...env },
      maxBuffer: 16 * 1024 * 1024,
    })
    return { code: 0, output: stdout + stderr }
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string }
    return { code: typeof failed.code === 'number' ? failed.code : 1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` }
  }
}

describe('the browser tests on a machine without Chromium', () => {
  it('should be skipped, passing, each with one line that says how to enable it', async () => {
    const { code, output } = await runBrowserTest({ WILDCALL_CHROMIUM_PATH: MISSING })
    expect(code).toBe(0)
    const lines = output.split('\n').filter((line) => line.includes(' test skipped ('))
    expect(lines).toHaveLength(2)
    expect(lines.find((line) => line.includes('[wildcall] examples/browser test skipped'))).toContain(`no Chromium at ${MISSING}`)
    expect(lines.find((line) => line.includes('[wildcall] json-schema CSP test skipped'))).toContain('WILDCALL_CHROMIUM_PATH=/path/to/chromium')
    expect(output).toMatch(/Test Files {2}2 skipped/)
  }, 120_000)

  it('should fail when CI requires the browser (WILDCALL_REQUIRE_BROWSER=1, as .ci/run sets)', async () => {
    const { code, output } = await runBrowserTest({ WILDCALL_CHROMIUM_PATH: MISSING, WILDCALL_REQUIRE_BROWSER: '1' })
    expect(code).not.toBe(0)
    expect(output).toContain(`${MISSING} is missing and WILDCALL_REQUIRE_BROWSER is set`)
    expect(output).toMatch(/Test Files {2}2 failed/)
    expect(output).not.toContain(' test skipped (')
  }, 120_000)
})
