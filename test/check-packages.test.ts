import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'

const run = promisify(execFile)
const root = fileURLToPath(new URL('..', import.meta.url))

interface PackageReport {
  name: string
  ok: boolean
  problems: string[]
  files: string[]
}

describe('scripts/check-packages.mjs (publint, attw, ESM + CJS loading, bin)', () => {
  let report: { ok: boolean; packages: PackageReport[] }
  let exitCode = 0

  beforeAll(async () => {
    // The script exits 1 on a problem; its JSON report is what the assertions read.
    const result = await run(process.execPath, ['scripts/check-packages.mjs', '--json'], { cwd: root, maxBuffer: 16 * 1024 * 1024 }).catch(
      (error: { stdout: string; code: number }) => {
        exitCode = error.code
        return error
      },
    )
    report = JSON.parse(result.stdout)
  }, 180_000)

  it('should check the SDK, the CLI, the MCP bridge, the OpenTelemetry package and all ten adapters', () => {
    const names = report.packages.map((entry) => entry.name)
    expect(names).toContain('@wildcall/sdk')
    expect(names).toContain('@wildcall/mcp')
    expect(names).toContain('@wildcall/otel')
    expect(names).toContain('@wildcall/cli')
    expect(names.filter((name) => name.startsWith('@wildcall/adapter-'))).toHaveLength(10)
  })

  it('should publish only dist/, package.json and the README of each package', () => {
    for (const entry of report.packages) {
      const stray = entry.files.filter((file) => !/^(dist\/|package\.json$|README\.md$|LICENSE$)/.test(file))
      expect(stray, entry.name).toEqual([])
      expect(entry.files, entry.name).toContain('README.md')
    }
  })

  it('should find no publint, attw, loading or bin problem in any package', () => {
    const problems = report.packages.flatMap((entry) => entry.problems.map((problem) => `${entry.name}: ${problem}`))
    expect(problems).toEqual([])
    expect(exitCode).toBe(0)
  })
})
