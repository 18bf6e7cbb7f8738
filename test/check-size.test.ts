import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))

interface SizeReport {
  name: string
  minified: number
  gzip: number
  budget: number
  /** Issue 23's target, where the enforced budget is a ratchet above it. */
  target?: number
  zodModules: number
  ok: boolean
  problems: string[]
}

describe('scripts/check-size.mjs', () => {
  const run = spawnSync(process.execPath, ['scripts/check-size.mjs', '--json'], { cwd: root, encoding: 'utf8', timeout: 60_000 })
  const report = JSON.parse(run.stdout) as { ok: boolean; packages: SizeReport[] }
  const byName = new Map(report.packages.map((entry) => [entry.name, entry]))

  it('should bundle @wildcall/sdk for the browser with no Node built-in import', () => {
    const sdk = byName.get('@wildcall/sdk')!
    expect(sdk.problems.filter((problem) => problem.includes('Node built-ins'))).toEqual([])
    expect(sdk.minified).toBeGreaterThan(1000)
  })

  // Issue 23 decided the targets (minified, gzip): the JSON-Schema-only app bundled whole 50 kB with
  // no zod module, `@wildcall/sdk` 60.5 kB and `@wildcall/sdk/core` 40.5 kB with zod external (the
  // root never above the Vercel AI SDK's `generateText` path with its OpenAI-compatible provider,
  // measured the same way). They are not met since prompt mode, endpoint learning, the 2026 readers,
  // the verdict rules, wire-safe tool names and joinable events landed: CI holds a ratchet at what
  // was measured then (50,478 / 65,188 / 43,607 B), and the report says how far each is from its target.
  it('should bundle the JSON-Schema-only app whole within its ratchet, with no zod module in it', () => {
    const app = byName.get('app: core + json-schema + macro tool, whole')!
    expect(app.budget).toBe(54_380)
    expect(app.target).toBe(50_000)
    expect(app.zodModules).toBe(0)
    expect(app.problems).toEqual([])
    expect(app.gzip).toBeLessThanOrEqual(54_380)
    // Whole means whole: the client, the macro tool and the JSON Schema validator are all in it.
    expect(app.gzip).toBeGreaterThan(byName.get('@wildcall/sdk/core')!.gzip)
  })

  it('should find zod modules when an app does use zod (what the check above relies on)', () => {
    const zodApp = byName.get('app: @wildcall/sdk + zod 4 + macro tool, whole')!
    expect(zodApp.zodModules).toBeGreaterThan(10)
    expect(zodApp.gzip).toBeGreaterThan(byName.get('@wildcall/sdk')!.gzip)
  })

  it('should keep @wildcall/sdk, zod external, within its ratchet (target 60.5 kB gzip)', () => {
    const sdk = byName.get('@wildcall/sdk')!
    expect(sdk.budget).toBe(72_460)
    expect(sdk.target).toBe(60_500)
    expect(sdk.problems).toEqual([])
    expect(sdk.gzip).toBeLessThanOrEqual(72_460)
  })

  it('should keep @wildcall/sdk/core, zod external, within its ratchet (target 40.5 kB gzip), without the markup readers', () => {
    const core = byName.get('@wildcall/sdk/core')!
    const root = byName.get('@wildcall/sdk')!
    expect(core.budget).toBe(47_620)
    expect(core.target).toBe(40_500)
    expect(core.problems).toEqual([])
    expect(core.gzip).toBeLessThanOrEqual(47_620)
    // The markup readers are what the root adds: several kB.
    expect(root.gzip - core.gzip).toBeGreaterThan(5_000)
  })

  // `@wildcall/otel` (`measureOtel` in scripts/check-size.mjs):
  // what it adds to the root bundle, at most 3 kB gzip.
  it('should keep @wildcall/otel within 3 kB gzip beyond the SDK', () => {
    const otel = byName.get('@wildcall/otel')!
    expect(otel.budget).toBe(3_000)
    expect(otel.problems).toEqual([])
  })

  it('should keep streaming out of @wildcall/sdk/core and report what @wildcall/sdk/streaming adds to it', () => {
    const core = byName.get('@wildcall/sdk/core')!
    expect(core.problems.filter((problem) => problem.includes('must leave out'))).toEqual([])
    const streaming = byName.get('@wildcall/sdk/streaming')!
    // The stream step, the assembler, the partial-JSON and markup previews, eventsource-parser.
    expect(streaming.gzip).toBeGreaterThan(2_000)
    expect(streaming.problems).toEqual([])
  })

  it('should report what each built-in reader adds to a core bundle', () => {
    const readers = report.packages.filter((entry) => entry.name.startsWith('reader '))
    expect(readers.map((entry) => entry.name)).toEqual(expect.arrayContaining(['reader hermesReader', 'reader xmlCallReader', 'reader jsonReader', 'reader pythonicReader']))
    // The first markup reader of a bundle also brings the shared schema-guided value decoder, and a
    // reader with a streaming preview (xml-call, glm) the partial-JSON parser it reads open values
    // with (+1.3 kB): it left the core bundle with the rest of streaming, so the reader carries it.
    for (const reader of readers) expect(reader.gzip, reader.name).toBeLessThan(6_000)
    // The JSON reader is the core's own: it adds (next to) nothing.
    expect(byName.get('reader jsonReader')!.gzip).toBeLessThan(100)
    expect(byName.get('reader xmlCallReader')!.gzip).toBeGreaterThan(500)
  })

  it('should measure all ten adapters and keep each within 1 kB gzip', () => {
    const adapters = report.packages.filter((entry) => entry.name.startsWith('@wildcall/adapter-'))
    expect(adapters.map((entry) => entry.name)).toHaveLength(10)
    for (const adapter of adapters) expect(adapter.gzip, adapter.name).toBeGreaterThan(0)
    // Every offender at once, with its size.
    const over = adapters.filter((adapter) => adapter.gzip > 1_000 || adapter.problems.length > 0).map((adapter) => `${adapter.name}: ${adapter.gzip} B gzip`)
    expect(over).toEqual([])
  })

  it('should report what plain JSON Schema tools add (the validator) apart from the root, within its budget', () => {
    const jsonSchema = byName.get('@wildcall/sdk/json-schema')!
    expect(jsonSchema.gzip).toBeGreaterThan(1_000)
    expect(jsonSchema.budget).toBe(8_000)
    expect(jsonSchema.problems).toEqual([])
  })

  it('should report what zod 3 tools add (the converter) to a core bundle, within its budget', () => {
    const zod3 = byName.get('@wildcall/sdk/zod3')!
    // Several kB: the core bundle does not contain the converter (test/zod3-entry.test.ts checks the inputs).
    expect(zod3.gzip).toBeGreaterThan(2_000)
    expect(zod3.budget).toBe(3_500)
    expect(zod3.problems).toEqual([])
  })

  it('should report the MCP bridge on its own, within its budget', () => {
    const mcp = byName.get('@wildcall/mcp')!
    expect(mcp.gzip).toBeGreaterThan(300)
    expect(mcp.budget).toBe(2_000)
    expect(mcp.problems).toEqual([])
  })

  it('should exit 0 exactly when every package is within budget', () => {
    expect(run.status).toBe(report.packages.every((entry) => entry.ok) ? 0 : 1)
    expect(report.ok).toBe(report.packages.every((entry) => entry.ok))
  })
})
