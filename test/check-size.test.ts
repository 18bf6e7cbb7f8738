import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))

interface SizeReport {
  name: string
  minified: number
  gzip: number
  budget: number
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

  // Issue 14 set the budgets: the root entry (every built-in reader) 48 kB gzip, `@wildcall/sdk/core`
  // (the JSON reader only) 30 kB. Neither is met yet, so `npm run check:size` reports them as failed
  // and the suite holds the line instead: neither bundle may grow past its ceiling.
  // The root ceiling moved from 48,000: up for the readers of formats beyond the field guide (YAML
  // and key=value answers +1.6 kB, JSON calls read by the role of their parts +1.8 kB, a second round
  // +0.7 kB, previews of markup calls while they stream +0.7 kB, more response shapes and a streamed
  // body to invoke +0.6 kB, adapting to a refused request field +0.9 kB), down by replacing the
  // deprecated zod-to-json-schema with a built-in zod 3 converter (-2.9 kB); up +0.8 kB for first-run
  // fixes (every credential header redacted, a base URL's query kept, tool names and schemas checked);
  // up +0.6 kB for tools from any schema library read through one normalised JSON Schema; up 429 B
  // for scans that stay linear on hostile input where regexes backtracked (HTML error pages,
  // key=value values, trailing trims).
  // up +2.6 kB (52,567 → 55,151) for the agent loop: result.messages with echoed provider fields and
  // generated ids, reask feedback, usage and evidence per HTTP request, streamed reasoning_details.
  // up +1.3 kB for streaming under faults (incremental preview readers, a request signal of its own
  // with one timer for the idle gap and the whole-call deadline, a cut stream told apart).
  // Up +1.1 kB (1,093 B) for issue 10's JSON-side verdicts (envelopes by role, malformed vs cut-off
  // calls, nameless JSON only when it fits, the name written before JSON, dropped calls by name, prose is prose).
  // up +1.3 kB (55,151 → 56,434) for markup values kept as written: the schema-guided value decoder,
  // XML references, FunctionGemma `<escape>`, per-format layout rules; up +1.0 kB for readers as
  // plugins (the Reader interface, one object per reader, the reader list, composed previews).
  // Down to 59,650 when streaming went out of core and the repair code was shared more (the root
  // still carries streaming and the zod 3 converter, so that bare zod 3 schemas work there).
  // Up +550 (measured 60,441) for issue 22's verdicts: calls shown to the user, reasoning that names
  // no tool, `{"NAME": {…}}` lists, a call after a broken fragment, element trees without closers.
  const SDK_CEILING = 60_450
  it(`should keep @wildcall/sdk under its ratchet ceiling of ${SDK_CEILING} B gzip`, () => {
    const sdk = byName.get('@wildcall/sdk')!
    expect(sdk.gzip).toBeLessThanOrEqual(SDK_CEILING)
    expect(sdk.budget).toBe(48_000)
  })

  // Measured 46,670 B when the entry was made: the budget needs the zod 3 converter, the provider
  // error wordings and streaming out of the core bundle (see the closing notes of issue 14).
  // Set at 46,800 on the readers branch; 49,000 once merged with the agent loop, streaming and fidelity work (measured 48,839).
  // Down to 40,000 once streaming became @wildcall/sdk/streaming and the zod 3 converter
  // @wildcall/sdk/zod3, both opt-in for core (measured 39,746); 40,100 for the checks of a call's
  // messages and options and of repairToolCall's tools, which had let raw TypeErrors out (40,048).
  // 40,490 for issue 22's verdicts (measured 40,486; 290 B of it is the calls shown to the user).
  const CORE_CEILING = 40_490
  it(`should keep @wildcall/sdk/core under its ratchet ceiling of ${CORE_CEILING} B gzip, without the markup readers`, () => {
    const core = byName.get('@wildcall/sdk/core')!
    const root = byName.get('@wildcall/sdk')!
    expect(core.problems.filter((problem) => problem.includes('Node built-ins'))).toEqual([])
    expect(core.gzip).toBeLessThanOrEqual(CORE_CEILING)
    expect(core.budget).toBe(30_000)
    // The markup readers are what the root adds: several kB.
    expect(root.gzip - core.gzip).toBeGreaterThan(5_000)
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
