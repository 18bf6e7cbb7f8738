import { spawnSync } from 'node:child_process'
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))

/** Runs scripts/check-regex.mjs over a tree holding one source file and one test file. */
function checkTree(source: string, ...flags: string[]) {
  const tree = mkdtempSync(join(tmpdir(), 'check-regex-'))
  mkdirSync(join(tree, 'packages/demo/src'), { recursive: true })
  writeFileSync(join(tree, 'packages/demo/src/demo.ts'), source)
  writeFileSync(join(tree, 'packages/demo/src/demo.test.ts'), 'export const nested = /(a+)+$/\n')
  const run = spawnSync(process.execPath, ['scripts/check-regex.mjs', ...flags], { cwd: root, encoding: 'utf8', timeout: 120_000, env: { ...process.env, CHECK_REGEX_ROOT: tree } })
  return { status: run.status, output: run.stdout + run.stderr }
}

describe('scripts/check-regex.mjs', () => {
  it('should fail on a regex that backtracks super-linearly, naming it and where it is', () => {
    const { status, output } = checkTree("export const trailing = (text: string) => text.replace(/\\s+$/, '')\nexport const word = /^[a-z]+$/\n")
    expect(status).toBe(1)
    expect(output).toContain('packages/demo/src/demo.ts:1')
    expect(output).toContain('2 regexes in 1 files')
    expect(output).toMatch(/1 vulnerable.*super-linear backtracking/s)
  })

  it('should let a vulnerable regex through only with a regex-bounded comment naming a test file that exists', () => {
    const bounded = (test: string) => `// regex-bounded: only ever sees a 20-character header (test: ${test})\nexport const trailing = (text: string) => text.slice(0, 20).replace(/\\s+$/, '')\n`
    expect(checkTree(bounded('packages/demo/src/demo.test.ts')).status).toBe(0)
    const missing = checkTree(bounded('packages/demo/src/missing.test.ts'))
    expect(missing.status).toBe(1)
    expect(missing.output).toContain('which does not exist')
  })

  it('should resolve patterns built from string constants and fail on one built at run time', () => {
    const { status, output } = checkTree('const KEY = String.raw`[a-z]+`\nexport const line = new RegExp(`^${KEY}:(.*)$`)\nexport const made = (name: string) => new RegExp(name)\n', '--list')
    expect(output).toContain('/^[a-z]+:(.*)$/')
    expect(output).toContain('built at run time')
    expect(status).toBe(1)
  })
})
