#!/usr/bin/env node
// Size budget of what a browser user downloads, checked in CI (minified, gzip level 9).
//
// - the JSON-Schema-only app: `@wildcall/sdk/core` + `@wildcall/sdk/json-schema` + `createMacroTool`
//   + `createClient`, tools in plain JSON Schema (APP_SOURCE below), bundled WHOLE — nothing external,
//   so whatever it pulls in counts — target 50 kB gzip (ratchet: APP_BUDGET), and no zod module may be in it.
// - `@wildcall/sdk`: everything its root entry exports (the client with every built-in reader and
//   streaming), zod external — target 60.5 kB gzip (ratchet: SDK_BUDGET), and no `node:` (or bare Node built-in) import
//   may be reached.
// - `@wildcall/sdk/core`: the same client with only the JSON reader and without streaming, zod
//   external — target 40.5 kB gzip (ratchet: CORE_BUDGET); no streaming module (client/stream.ts, the assembler,
//   eventsource-parser) may be reached.
// - `@wildcall/sdk` + zod 4 tools + `createMacroTool`, bundled whole (zod included): reported, no budget.
// - `@wildcall/sdk/streaming` (what a core client needs for `stream()`): what it adds to a core bundle
//   (reported, no budget).
// - each `@wildcall/adapter-*`: bundled the same way with the SDK and zod external — at most 1 kB gzip
//   (the built-in readers an adapter declares live in the SDK, so they are not counted).
// - `@wildcall/otel`: what it adds to the `@wildcall/sdk` bundle
//   (`@opentelemetry/api` external, a peer) — at most 3 kB gzip (see `measureOtel`).
// - each built-in reader: what it adds to a core bundle (reported, no budget).
// - `@wildcall/sdk/json-schema` (plain JSON Schema tools and their validator): what it adds to the
//   root entry's bundle, i.e. the root and this entry bundled together, minus the root alone.
// - `@wildcall/sdk/zod3` (the zod 3 to JSON Schema converter): what it adds to the core entry's bundle,
//   measured the same way — at most 3.5 kB gzip. The core entry does not contain it; the root entry
//   does (bare zod 3 schemas work there with zero configuration).
// - `@wildcall/mcp`: bundled with the SDK and the MCP SDK external.
//
// Sources are bundled (esbuild compiles TypeScript the way tsup does; `@wildcall/sdk*` resolves to
// packages/sdk/src), so the figure never comes from a stale `dist`. Usage:
// `node scripts/check-size.mjs [--json]`. Exit code 0 when every package is within budget, 1 otherwise.
import { builtinModules } from 'node:module'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const KB = 1000
// Issue 23's targets (the JSON-Schema-only app 50 kB, the root 60.5 kB, core 40.5 kB) are not met
// since prompt mode, endpoint learning, the 2026 readers, the verdict rules, wire-safe tool names
// and joinable events landed (measured 50,478 / 65,188 / 43,607 B). Until savings close the gap,
// CI enforces a ratchet at what is measured (lower it as bytes are saved, never raise it without
// saying what paid for it) and every report prints how far each entry is from its target.
// Raised after issues 29–33 (from 50,600 / 65,350 / 43,750; measured 53,837 / 71,393 / 47,125): what
// paid for it, app / sdk gzip, each measured on its own branch — reading what small open models write
// (Python-style values, positional and colon arguments, calls in JSON strings, one bad call dropping
// only itself) +396 / +1,975; empty-for-optional, fitting defaults, echoed schemas, JSON short of its
// closers, examples and tool descriptions told by structure +1,398 / +1,332; the markup families
// (harmony recipients, markers inside values, string parameters written as elements) +393 / +843;
// Kimi K3 / MiniMax M3 streaming previews 0 / +581; constrained decoding (strict tools,
// response_format, learnt refusals) +950 / +1,026; diagnostics that tell the truth (rate limit vs
// usage window, bad port) +207 / +201; the cheaper clean step +427 / +420; the registry's
// duplicate-name warning +89 / +226; −82 / −96 won back in classify-http, the macro tool and shape.
// Raised after issue 32 (from 53,900 / 71,450 / 47,200; measured 53,962 / 71,686 / 47,250): the
// stream scanning each network read's content and arguments once, and searching for secrets per
// read, not per event (about 20 % less CPU per streamed delta) +0 / +170 / 0; learning a history
// field from an error's words in one pass (linear on a hostile error) +3 / +3 / +3; a harmony
// analysis call with its tokens stripped, then a message to the user, read as thought, not executed
// +74 / +71 / +70; a token inside a call already read is text of it (no spurious cut) 0 / +30 / 0;
// one overlap check for found calls won back −13 / −39 / −4. Then the stream's event channel
// handing an event to a waiting next() directly (no async next; next() calls not awaited one by one
// no longer hang) 0 / +43 / 0. Then streams scanning a call's argument bytes only when a preview is
// due, text buffers without a getter and preview factories found once per client (about 8 % less
// CPU on a stream of one delta per read) 0 / +42 / 0; and a stream reading every reasoning marker
// invoke reads (Kimi K3, Gemma 4, Magistral, Apertus …: reasoning events in prompt mode, no preview
// of a call drafted inside them; waiting bytes scanned once 256 pile up) +3 / +79 / +4; prompt-mode
// history under response_format written as the JSON object the grammar admits +20 / +26 / +23. Then
// a stream's reads of ASCII decoded each on its own by a decoder never asked to stream, the bytes of a
// cut character carried by hand, other reads by a streaming one (Node's TextDecoder is 2.2× faster
// on small ASCII reads when never asked to stream, 1.4–2× slower on other text: about 0.15 ms less
// per 1,000 reads, no slower on CJK) 0 / +254 / 0. Then a clean step about 15 % cheaper on top of the
// floor (bench/invoke.mjs 1.40–1.53× → 1.27–1.29× on the same machine): the request's link made
// without a getter literal and a stream waiting on it without an AbortController +64 / +38 / +54;
// secrets searched from a rare character, so rawRequest is a plain field set with the body
// (+62 / +55 / +68 for the search, +46 / +45 / +59 in setBody and the transform's copy of the
// history, −16 / −12 / −12 in completeStep); the history sent without copying unchanged turns
// +20 / +29 / +36; the OpenAI adapter deciding once per model +35 / +38 / +50; options checked
// only when they hold one, the history turn built without lists, finish reasons answered at once
// +57 / +58 / +55; in all, measured 54,261 / 72,339 / 47,533. Then the fetch init of a request that
// can be stopped made by a class whose instances share one own `signal` getter (an object literal with
// a getter of its own is made in dictionary mode: about 2 µs of a clean step) +93 / +81 / +87; adapter
// hooks called without a closure per call, usage read by name and the tools' wire names checked once
// per step −32 / −35 / −56; measured 54,322 / 72,385 / 47,564. Then the streamed arguments' JSON reader
// searching a string's run natively and without getters 0 / +3 / 0: measured 54,322 / 72,388 / 47,564.
// Then a request's link reading the clock in touch() only under an idle limit, and the OpenAI adapter
// deleting `reasoning_effort` only when a body has it (about 1 % of a clean step, paired runs)
// +5 / +16 / +9: measured 54,327 / 72,404 / 47,573. Then invoke making attempt 1 itself and entering
// the retry loop only once it failed (one async level and the retry hooks less on a clean step, about
// 1 %, paired runs) +50 / +48 / +41: measured 54,377 / 72,452 / 47,614.
const TARGETS = { app: 50 * KB, sdk: 60.5 * KB, core: 40.5 * KB }
const APP_BUDGET = 54_380
const SDK_BUDGET = 72_460
const CORE_BUDGET = 47_620
const OTEL_BUDGET = 3 * KB
const ADAPTER_BUDGET = 1 * KB
const JSON_SCHEMA_BUDGET = 8 * KB
const MCP_BUDGET = 2 * KB
const ZOD3_BUDGET = 3.5 * KB
const nodeBuiltins = new Set(builtinModules)
// What only `@wildcall/sdk/streaming` may bring into a core bundle.
const STREAMING_MODULES = /(?:client\/(?:stream|create-stream-assembler|combine-previews|merge-delta-lists|streaming)|repair\/parse-partial-json)\.ts$|eventsource-parser/
// Any module of any zod copy: the JSON-Schema-only app must contain none.
const ZOD_MODULES = /(^|\/)node_modules\/zod\d*\//
// The entry points as an app imports them, read from the sources.
const SDK_ENTRIES = { '': 'index', '/core': 'core', '/json-schema': 'json-schema', '/readers': 'readers', '/streaming': 'streaming', '/zod3': 'zod3', '/internal': 'internal' }

/**
 * The JSON-Schema-only app of the budget: what an in-page browser agent that never imports zod
 * writes, read from the README ("What a browser app ships"), so that the figure is that snippet's.
 * It is bundled whole.
 */
const APP_SOURCE = (() => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8')
  const match = /<!-- snippet: browser-app\b[^>]*-->\s*```ts\n([\s\S]*?)```/.exec(readme)
  if (!match) throw new Error('README.md has no "browser-app" snippet to measure')
  return match[1]
})()

/** The same app with zod 4 tools on the root entry (reported: what a zod app ships, zod included). */
const ZOD_APP_SOURCE = APP_SOURCE.replace("'@wildcall/sdk/core'", "'@wildcall/sdk'")
  .replace("import { jsonSchema } from '@wildcall/sdk/json-schema'", "import { z } from 'zod'")
  .replace(/jsonSchema\(\{ type: 'object', properties: \{ (\w+): \{ type: '(\w+)' \} \}, required: \['\w+'\] \}\)/g, (_all, key, type) => `z.object({ ${key}: z.${type === 'integer' ? 'number().int' : type}() })`)

/**
 * Bundles one entry (a file, or `{ contents }` of a module) for the browser and returns its sizes and
 * the Node built-ins it reached. `baseline` is subtracted from the sizes: what the entry adds to it.
 */
async function measure(name, entry, external, budget, baseline = { minified: 0, gzip: 0 }, forbidden = undefined) {
  const nodeImports = new Set()
  const result = await build({
    ...(typeof entry === 'string' ? { entryPoints: [entry] } : { stdin: { contents: entry.contents, resolveDir: root, loader: 'ts', sourcefile: name } }),
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    external,
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [
      {
        // A Node built-in must never be part of the browser bundle: record it instead of failing
        // the build, so the report names every offender at once.
        name: 'record-node-imports',
        setup(builder) {
          // `@wildcall/sdk…` from the sources, unless this bundle leaves the SDK out.
          builder.onResolve({ filter: /^@wildcall\/sdk(\/|$)/ }, (args) => {
            const file = SDK_ENTRIES[args.path.slice('@wildcall/sdk'.length)]
            if (external.includes('@wildcall/sdk') || file === undefined) return undefined
            return { path: join(root, `packages/sdk/src/${file}.ts`) }
          })
          builder.onResolve({ filter: /.*/ }, (args) => {
            const bare = args.path.replace(/^node:/, '').split('/')[0]
            if (args.path.startsWith('node:') || nodeBuiltins.has(bare)) {
              nodeImports.add(`${args.path} (from ${relative(root, args.importer)})`)
              return { path: args.path, external: true }
            }
            return undefined
          })
        },
      },
    ],
  })
  const code = result.outputFiles[0].contents
  const gzip = gzipSync(code, { level: 9 }).length - baseline.gzip
  const inputs = Object.values(result.metafile.outputs)[0].inputs
  const largest = Object.entries(inputs)
    .map(([file, info]) => ({ file: relative(root, join(root, file)), bytes: info.bytesInOutput }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 5)
  const zodModules = Object.keys(inputs).filter((file) => ZOD_MODULES.test(file)).length
  const problems = []
  if (gzip > budget) problems.push(`${gzip} B gzip is over the budget of ${budget} B`)
  if (nodeImports.size > 0) problems.push(`imports Node built-ins: ${[...nodeImports].join(', ')}`)
  const reached = forbidden ? Object.keys(inputs).filter((file) => forbidden.test(file)) : []
  if (reached.length > 0) problems.push(`reaches modules it must leave out: ${reached.join(', ')}`)
  return { name, minified: code.length - baseline.minified, gzip, budget, zodModules, ok: problems.length === 0, problems, largest }
}

async function checkSizes() {
  const reports = []
  reports.push({ ...(await measure('app: core + json-schema + macro tool, whole', { contents: APP_SOURCE }, [], APP_BUDGET, undefined, ZOD_MODULES)), target: TARGETS.app })
  reports.push({ ...(await measure('app: @wildcall/sdk + zod 4 + macro tool, whole', { contents: ZOD_APP_SOURCE }, [], Number.POSITIVE_INFINITY)), budget: null })
  const sdkEntry = join(root, 'packages/sdk/src/index.ts')
  const sdk = { ...(await measure('@wildcall/sdk', sdkEntry, ['zod', 'zod/*'], SDK_BUDGET)), target: TARGETS.sdk }
  reports.push(sdk)
  const jsonSchemaEntry = { contents: ['packages/sdk/src/index.ts', 'packages/sdk/src/json-schema.ts'].map((file) => `export * from './${file}'`).join('\n') }
  reports.push(await measure('@wildcall/sdk/json-schema', jsonSchemaEntry, ['zod', 'zod/*'], JSON_SCHEMA_BUDGET, sdk))
  reports.push(...(await measureOtel(sdk)))
  reports.push(await measure('@wildcall/mcp', join(root, 'packages/mcp/src/index.ts'), ['@wildcall/sdk', '@wildcall/sdk/*', '@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*', 'zod', 'zod/*'], MCP_BUDGET))
  const core = { ...(await measure('@wildcall/sdk/core', join(root, 'packages/sdk/src/core.ts'), ['zod', 'zod/*'], CORE_BUDGET, undefined, STREAMING_MODULES)), target: TARGETS.core }
  reports.push(core)
  const zod3Entry = { contents: ['packages/sdk/src/core.ts', 'packages/sdk/src/zod3.ts'].map((file) => `export * from './${file}'`).join('\n') }
  reports.push(await measure('@wildcall/sdk/zod3', zod3Entry, ['zod', 'zod/*'], ZOD3_BUDGET, core))
  const streamingEntry = { contents: ['core', 'streaming'].map((file) => `export * from './packages/sdk/src/${file}.ts'`).join('\n') }
  reports.push({ ...(await measure('@wildcall/sdk/streaming', streamingEntry, ['zod', 'zod/*'], Number.POSITIVE_INFINITY, core)), budget: null })
  reports.push(...(await measureReaders(core)))
  const adapterDirs = readdirSync(join(root, 'packages'))
    .filter((dir) => dir.startsWith('adapter-'))
    .sort()
  for (const dir of adapterDirs) {
    const name = `@wildcall/${dir}`
    const entry = join(root, 'packages', dir, 'src/index.ts')
    if (!existsSync(entry)) {
      reports.push({ name, minified: 0, gzip: 0, budget: ADAPTER_BUDGET, ok: false, problems: [`has no ${relative(root, entry)}`], largest: [] })
      continue
    }
    reports.push(await measure(name, entry, ['@wildcall/sdk', '@wildcall/sdk/*', 'zod', 'zod/*'], ADAPTER_BUDGET))
  }
  return reports
}

/**
 * `@wildcall/otel`'s own cost: the root entry and it bundled together, minus the root alone
 * (`@opentelemetry/api` is a peer the app has anyway). Nothing to measure until packages/otel exists.
 */
async function measureOtel(sdk) {
  const entry = join(root, 'packages/otel/src/index.ts')
  if (!existsSync(entry)) return []
  const contents = `export * from './packages/sdk/src/index.ts'\nexport * from './packages/otel/src/index.ts'`
  return [await measure('@wildcall/otel', { contents }, ['zod', 'zod/*', '@opentelemetry/*'], OTEL_BUDGET, sdk)]
}

/** Each built-in reader's own cost: a core bundle that also exports it, minus the core bundle. */
async function measureReaders(core) {
  const source = readFileSync(join(root, 'packages/sdk/src/readers.ts'), 'utf8')
  const names = [...new Set([...source.matchAll(/\b(\w+Reader)\b/g)].map((match) => match[1]))].sort()
  const reports = []
  for (const name of names) {
    const contents = `export * from './packages/sdk/src/core.ts'\nexport { ${name} } from './packages/sdk/src/readers.ts'`
    const report = await measure(`reader ${name}`, { contents }, ['zod', 'zod/*'], Number.POSITIVE_INFINITY, core)
    reports.push({ ...report, budget: null })
  }
  return reports
}

const reports = await checkSizes()
const ok = reports.every((report) => report.ok)
if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ ok, packages: reports }, null, 2))
} else {
  const width = Math.max(...reports.map((report) => report.name.length))
  console.log(`${'package'.padEnd(width)}  minified    gzip  budget`)
  for (const report of reports) {
    const budget = report.budget === null ? (report.name.startsWith('app:') ? '-' : '+core') : String(report.budget)
    const zod = report.name.startsWith('app:') ? `  zod modules: ${report.zodModules}` : ''
    const target = report.target !== undefined && report.gzip > report.target ? `  (target ${report.target}: ${report.gzip - report.target} B over)` : ''
    const line = `${report.name.padEnd(width)}  ${String(report.minified).padStart(8)}  ${String(report.gzip).padStart(6)}  ${budget.padStart(6)}  ${report.ok ? 'ok' : 'FAIL'}${zod}${target}`
    console.log(line)
    for (const problem of report.problems) console.log(`  ✗ ${problem}`)
    if (!report.ok && report.largest.length > 0) {
      console.log(`    largest inputs: ${report.largest.map((input) => `${input.file} ${input.bytes} B`).join(', ')}`)
    }
  }
  console.log(ok ? 'size budget: ok' : 'size budget: FAILED')
}
process.exit(ok ? 0 : 1)
