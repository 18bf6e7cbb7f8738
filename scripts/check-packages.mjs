#!/usr/bin/env node
// Checks every publishable package the way a user's install will see it:
// 1. `npm pack` each one (all in one npm call) — the tarball is what gets published;
// 2. publint on the tarball (strict: warnings fail);
// 3. Are The Types Wrong on the tarball (node16 profile: `engines.node` is >= 20, so the legacy
//    `node10` resolution without `exports` is not a target) — libraries only, the CLI has no types;
// 4. ESM `import()` and CJS `require()` of every library entry point, which must export the same names;
// 5. the CLI's `bin` starts with a shebang and answers `--help`.
//
// Run after `npm run build`. Usage: `node scripts/check-packages.mjs [--json]`. Exit code 0 when
// every package passes, 1 otherwise.
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, rmSync, existsSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { publint } from 'publint'
import { formatMessage } from 'publint/utils'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)
// The attw CLI's own engine, resolved from the CLI (our declared dependency): one TypeScript load
// for every package instead of one process each.
const attw = await import(pathToFileURL(createRequire(require.resolve('@arethetypeswrong/cli/package.json')).resolve('@arethetypeswrong/core')).href)
const IGNORED_RESOLUTIONS = new Set(['node10'])

function publishablePackages() {
  return readdirSync(join(root, 'packages'))
    .map((dir) => ({ dir: join(root, 'packages', dir), manifest: JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) }))
    .filter(({ manifest }) => !manifest.private)
    .sort((a, b) => a.manifest.name.localeCompare(b.manifest.name))
}

function packAll(packages, destination) {
  const args = ['pack', '--json', '--pack-destination', destination, ...packages.flatMap(({ dir }) => ['-w', dir])]
  const output = execFileSync('npm', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  const packed = JSON.parse(output)
  return new Map(packed.map((entry) => [entry.name, { tarball: join(destination, entry.filename), files: entry.files.map((file) => file.path) }]))
}

async function lint(tarball) {
  const data = readFileSync(tarball)
  const { messages, pkg } = await publint({ pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) }, strict: true, level: 'suggestion' })
  return messages.map((message) => ({ level: message.type, text: formatMessage(message, pkg, { color: false }) ?? message.code }))
}

/** Subpaths published for ESM only on purpose (no `require` or `default` condition), e.g. `./testing`. */
function esmOnlyEntrypoints(manifest) {
  const exports = typeof manifest.exports === 'object' && manifest.exports !== null ? manifest.exports : {}
  return new Set(Object.entries(exports).filter(([, target]) => typeof target === 'object' && target !== null && !('require' in target) && !('default' in target)).map(([subpath]) => subpath))
}

async function checkTypes(tarball, manifest) {
  const pkg = attw.createPackageFromTarballData(new Uint8Array(readFileSync(tarball)))
  const result = await attw.checkPackage(pkg)
  if (!result.types) return ['no types found']
  const esmOnly = esmOnlyEntrypoints(manifest)
  return result.problems
    .filter((problem) => !('resolutionKind' in problem) || !IGNORED_RESOLUTIONS.has(problem.resolutionKind))
    // A CommonJS consumer of an ESM-only subpath is told so by Node itself; that is the design, not a bug.
    .filter((problem) => !(problem.kind === 'CJSResolvesToESM' && esmOnly.has(problem.entrypoint)))
    .map((problem) => `${problem.kind}${problem.entrypoint ? ` at "${problem.entrypoint}"` : ''}${problem.resolutionKind ? ` (${problem.resolutionKind})` : ''}`)
}

/** Imports and requires each entry point in a fresh Node process, from the repository root. */
function checkLoading(manifest) {
  const entries = Object.entries(manifest.exports ?? {}).filter(([key]) => key !== './package.json')
  // An entry point published for ESM only (no `require` or `default` condition) is not required.
  const requirable = (target) => typeof target === 'string' || (typeof target === 'object' && target !== null && ('require' in target || 'default' in target))
  const specifiers = entries.map(([key, target]) => ({ specifier: key === '.' ? manifest.name : `${manifest.name}/${key.slice(2)}`, cjs: requirable(target) }))
  const probe = `
    import { createRequire } from 'node:module'
    const require = createRequire(${JSON.stringify(join(root, 'package.json'))})
    const firstLine = (error) => String(error && error.message || error).split('\\n').find((line) => line.trim()) ?? ''
    const out = {}
    for (const { specifier, cjs } of ${JSON.stringify(specifiers)}) {
      const entry = (out[specifier] = {})
      try { entry.esm = Object.keys(await import(specifier)).filter((key) => key !== 'default' && key !== 'module.exports').sort() } catch (error) { entry.esmError = firstLine(error) }
      if (cjs) try { entry.cjs = Object.keys(require(specifier)).sort() } catch (error) { entry.cjsError = firstLine(error) }
    }
    console.log(JSON.stringify(out))`
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', probe], { cwd: root, encoding: 'utf8' })
  if (run.status !== 0) return [`loading probe failed: ${run.stderr.trim().split('\n').slice(0, 4).join(' ')}`]
  const problems = []
  for (const [specifier, entry] of Object.entries(JSON.parse(run.stdout))) {
    if (entry.esmError) problems.push(`import('${specifier}') throws: ${entry.esmError}`)
    if (entry.cjsError) problems.push(`require('${specifier}') throws: ${entry.cjsError}`)
    if (entry.esm && entry.esm.length === 0) problems.push(`${specifier}: the ESM build exports nothing`)
    if (entry.esm && entry.cjs && entry.esm.join() !== entry.cjs.join()) problems.push(`${specifier}: ESM exports [${entry.esm}] differ from CJS exports [${entry.cjs}]`)
  }
  return problems
}

function checkBin(dir, manifest) {
  const problems = []
  for (const [name, path] of Object.entries(typeof manifest.bin === 'string' ? { [manifest.name]: manifest.bin } : manifest.bin)) {
    const file = join(dir, path)
    if (!existsSync(file)) {
      problems.push(`bin ${name}: ${path} is missing (build first)`)
      continue
    }
    if (!readFileSync(file, 'utf8').startsWith('#!/usr/bin/env node')) problems.push(`bin ${name}: ${path} has no "#!/usr/bin/env node" line`)
    if ((statSync(file).mode & 0o111) === 0) problems.push(`bin ${name}: ${path} is not executable`)
    const help = spawnSync(process.execPath, [file, '--help'], { encoding: 'utf8' })
    if (help.status !== 0 || !help.stdout.includes('Usage:')) problems.push(`bin ${name}: "--help" failed (exit ${help.status}) ${help.stderr.trim().slice(0, 200)}`)
  }
  return problems
}

const packages = publishablePackages()
const destination = mkdtempSync(join(tmpdir(), 'wildcall-pack-'))
const reports = []
try {
  const packed = packAll(packages, destination)
  for (const { dir, manifest } of packages) {
    const problems = []
    const tarball = packed.get(manifest.name)
    if (!tarball) {
      reports.push({ name: manifest.name, ok: false, problems: ['npm pack produced no tarball'], files: [] })
      continue
    }
    if (!tarball.files.some((file) => file.startsWith('dist/'))) problems.push('the tarball has no dist/ (build first)')
    for (const message of await lint(tarball.tarball)) problems.push(`publint ${message.level}: ${message.text}`)
    if (manifest.bin) problems.push(...checkBin(dir, manifest))
    if (manifest.exports) {
      for (const problem of await checkTypes(tarball.tarball, manifest)) problems.push(`attw: ${problem}`)
      problems.push(...checkLoading(manifest))
    }
    reports.push({ name: manifest.name, ok: problems.length === 0, problems, files: tarball.files })
  }
} finally {
  rmSync(destination, { recursive: true, force: true })
}

const ok = reports.every((report) => report.ok)
if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ ok, packages: reports }, null, 2))
} else {
  for (const report of reports) {
    console.log(`${report.ok ? 'ok  ' : 'FAIL'} ${report.name} (${report.files.length} files)`)
    for (const problem of report.problems) console.log(`     ✗ ${problem}`)
  }
  console.log(ok ? 'packages: ok' : 'packages: FAILED')
}
process.exit(ok ? 0 : 1)
