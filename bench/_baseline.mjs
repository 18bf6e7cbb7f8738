// The build a bench is compared with: `@wildcall/sdk` of an earlier commit, built from git (its
// `packages/sdk` only, with this checkout's node_modules) into node_modules/.cache, once per commit.
// The commit: `WILDCALL_BENCH_BASE` (any git ref), else where this branch left `main` (or
// `origin/main`), else, on `main` itself, its first parent. Not found (no git, a shallow clone): the
// benches print only the figures of this build.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
const tryGit = (...args) => {
  try {
    return git(...args)
  } catch {
    return undefined
  }
}

/** The commit to compare with, as `{ ref, sha }`, or undefined. */
export function baseCommit() {
  const head = tryGit('rev-parse', 'HEAD')
  if (!head) return undefined
  const given = process.env.WILDCALL_BENCH_BASE
  if (given) {
    const sha = tryGit('rev-parse', '--verify', `${given}^{commit}`)
    if (!sha) throw new Error(`WILDCALL_BENCH_BASE=${given} is not a commit of this repository`)
    return { ref: given, sha }
  }
  for (const main of ['main', 'origin/main']) {
    const sha = tryGit('merge-base', 'HEAD', main)
    if (sha && sha !== head) return { ref: `merge-base with ${main}`, sha }
  }
  const parent = tryGit('rev-parse', '--verify', 'HEAD^1')
  return parent ? { ref: 'HEAD^1', sha: parent } : undefined
}

/** Builds (once) and imports the sdk of the base commit: `{ label, sdk, testing }`, or undefined. */
export async function loadBaseline() {
  const base = baseCommit()
  if (!base) return undefined
  const dir = join(root, 'node_modules', '.cache', 'wildcall-bench', base.sha)
  const dist = join(dir, 'packages', 'sdk', 'dist')
  if (!existsSync(join(dist, 'index.js'))) {
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(dir, { recursive: true })
    execFileSync('sh', ['-c', `git archive ${base.sha} packages/sdk/src packages/sdk/package.json | tar -x -C "${dir}"`], { cwd: root, stdio: 'inherit' })
    const manifest = JSON.parse(readFileSync(join(dir, 'packages', 'sdk', 'package.json'), 'utf8'))
    const { build } = await import('tsup')
    await build({
      config: false,
      silent: true,
      entry: { index: join(dir, 'packages/sdk/src/index.ts'), 'testing/index': join(dir, 'packages/sdk/src/testing/index.ts') },
      outDir: dist,
      format: ['esm'],
      target: 'es2022',
      platform: 'neutral',
      dts: false,
      external: [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {}), /^node:/],
    })
  }
  const load = (entry) => import(pathToFileURL(join(dist, entry)).href)
  return { label: `${base.sha.slice(0, 7)} (${base.ref})`, sdk: await load('index.js'), testing: await load('testing/index.js') }
}
