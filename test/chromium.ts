import { existsSync } from 'node:fs'

/**
 * The Chromium a browser test drives (WILDCALL_CHROMIUM_PATH, else Debian's), and whether to skip it.
 * A machine without Chromium skips with one line that says how to run the test; `.ci/run` sets
 * WILDCALL_REQUIRE_BROWSER=1, so in CI a missing Chromium fails instead (see {@link assertChromium}).
 */
export function findChromium(testName: string): { executablePath: string; skip: boolean } {
  const executablePath = process.env.WILDCALL_CHROMIUM_PATH || '/usr/bin/chromium'
  const required = Boolean(process.env.WILDCALL_REQUIRE_BROWSER)
  const reason = process.env.WILDCALL_SKIP_BROWSER ? 'WILDCALL_SKIP_BROWSER is set' : !required && !existsSync(executablePath) ? `no Chromium at ${executablePath}` : undefined
  if (reason) {
    console.warn(`[wildcall] ${testName} test skipped (${reason}): install Chromium (apt-get install chromium) or set WILDCALL_CHROMIUM_PATH=/path/to/chromium to run it.`)
  }
  return { executablePath, skip: reason !== undefined }
}

/** Throws, saying what to do, when the Chromium a required browser test needs is missing. */
export function assertChromium(executablePath: string): void {
  if (!existsSync(executablePath)) {
    throw new Error(`${executablePath} is missing and WILDCALL_REQUIRE_BROWSER is set: apt-get install -y chromium, or set WILDCALL_CHROMIUM_PATH to a Chromium binary.`)
  }
}
