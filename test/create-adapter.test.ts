import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const run = promisify(execFile)
const root = fileURLToPath(new URL('..', import.meta.url))
const CREATE = join(root, 'packages/create-adapter/dist/cli.js')
const sdkVersion = (JSON.parse(readFileSync(join(root, 'packages/sdk/package.json'), 'utf8')) as { version: string }).version

/** Runs a command in a folder and resolves with its exit code and output (never rejects). */
async function exec(file: string, args: string[], cwd: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(file, args, { cwd, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, CI: 'true', NO_COLOR: '1' } })
    return { code: 0, output: `${stdout}${stderr}` }
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string }
    return { code: typeof failed.code === 'number' ? failed.code : 1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` }
  }
}

const node = (cwd: string, ...args: string[]) => exec(process.execPath, args, cwd)
const vitest = (cwd: string) => node(cwd, 'node_modules/vitest/vitest.mjs', 'run')

// Issue 33: `npm create @wildcall/adapter NAME` as an author runs it, outside the repository: the
// packed SDK (what npm will serve), one install, the package's own tests, types, build and checks.
describe('npm create @wildcall/adapter (built, scaffolded into a temp folder, installed against the packed SDK)', () => {
  let work: string
  let withReader: string
  let plain: string

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'wildcall-create-adapter-'))
    const packed = await run('npm', ['pack', '--json', '--pack-destination', work, '-w', 'packages/sdk'], { cwd: root, maxBuffer: 16 * 1024 * 1024 })
    const [tarball] = (JSON.parse(packed.stdout) as Array<{ filename: string }>).map((entry) => join(work, entry.filename))
    const created = await node(work, CREATE, 'acme', '--reader', '--sdk', tarball!)
    expect(created.output).toContain('Created wildcall-adapter-acme in wildcall-adapter-acme')
    withReader = join(work, 'wildcall-adapter-acme')
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: withReader, maxBuffer: 16 * 1024 * 1024 })
    // The same scaffold without a reader, sharing that one install.
    await node(work, CREATE, '@you/wildcall-adapter-beta-cloud', '--sdk', tarball!)
    plain = join(work, 'wildcall-adapter-beta-cloud')
    await symlink(join(withReader, 'node_modules'), join(plain, 'node_modules'), 'dir')
  }, 400_000)

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true })
  })

  it('should write exports (ESM + CJS + types), an SDK peer range, strict TypeScript, tsup, vitest and changesets', async () => {
    const manifest = JSON.parse(await readFile(join(withReader, 'package.json'), 'utf8'))
    expect(manifest).toMatchObject({ name: 'wildcall-adapter-acme', type: 'module', sideEffects: false, files: ['dist'], keywords: expect.arrayContaining(['wildcall-adapter']) })
    expect(manifest.exports['.']).toEqual({
      import: { types: './dist/index.d.ts', default: './dist/index.js' },
      require: { types: './dist/index.d.cts', default: './dist/index.cjs' },
    })
    expect(manifest.peerDependencies).toEqual({ '@wildcall/sdk': `^${sdkVersion}` })
    expect(manifest.dependencies).toBeUndefined()
    const tsconfig = JSON.parse(await readFile(join(withReader, 'tsconfig.json'), 'utf8'))
    expect(tsconfig.compilerOptions).toMatchObject({ strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true })
    for (const file of ['tsup.config.ts', 'vitest.config.ts', '.changeset/config.json', 'README.md', 'src/acme-adapter.test.ts', 'src/acme-reader.test.ts']) expect(existsSync(join(withReader, file)), file).toBe(true)
    expect(existsSync(join(plain, 'src/beta-cloud-reader.ts'))).toBe(false)
    expect(JSON.parse(await readFile(join(plain, 'package.json'), 'utf8')).name).toBe('@you/wildcall-adapter-beta-cloud')
    // No zod, and nothing else the author did not install for the kit.
    expect(existsSync(join(withReader, 'node_modules/zod'))).toBe(false)
  })

  it('should refuse a name outside the naming rule and a folder that is not empty, and answer --help', async () => {
    const bad = await node(work, CREATE, 'Acme Cloud')
    expect(bad.code).toBe(2)
    expect(bad.output).toContain('create-adapter: "Acme Cloud" is not a family name or an adapter package name')
    expect((await node(work, CREATE, '@you/acme')).output).toContain('optionally scoped: @you/wildcall-adapter-<family>')
    const again = await node(work, CREATE, 'acme')
    expect(again.code).toBe(2)
    expect(again.output).toContain('exists and is not empty')
    expect((await node(work, CREATE, '--help')).output).toMatch(/^Usage: npm create @wildcall\/adapter NAME/)
  })

  it('should pass its starter tests (the kit, a foreign-host case, an echo case, a reader round trip) and strict typecheck', async () => {
    const tests = await vitest(withReader)
    expect(tests.output).toMatch(/Test Files {2}2 passed/)
    expect(tests.code, tests.output).toBe(0)
    const types = await node(withReader, 'node_modules/typescript/bin/tsc', '--noEmit')
    expect(types.output).toBe('')
    expect(types.code).toBe(0)
  }, 120_000)

  it('should build, and pass publint and Are The Types Wrong on the packed package', async () => {
    const built = await node(withReader, 'node_modules/tsup/dist/cli-default.js')
    expect(built.code, built.output).toBe(0)
    for (const file of ['index.js', 'index.cjs', 'index.d.ts', 'index.d.cts']) expect(existsSync(join(withReader, 'dist', file)), file).toBe(true)
    const lint = await node(withReader, 'node_modules/publint/src/cli.js', '--strict')
    expect(lint.code, lint.output).toBe(0)
    const types = await node(withReader, 'node_modules/@arethetypeswrong/cli/dist/index.js', '--pack', '.', '--profile', 'node16')
    expect(types.output).toContain('No problems found')
    expect(types.code, types.output).toBe(0)
  }, 180_000)

  it('should pass the scaffold without a reader, and fail its kit when a provider patch is made for every host', async () => {
    const tests = await vitest(plain)
    expect(tests.code, tests.output).toBe(0)
    expect((await node(plain, 'node_modules/typescript/bin/tsc', '--noEmit')).output).toBe('')
    const source = join(plain, 'src/beta-cloud-adapter.ts')
    const good = await readFile(source, 'utf8')
    expect(good).toContain('if (!BETA_CLOUD_API.test(context.host)) return')
    await writeFile(source, good.replace('if (!BETA_CLOUD_API.test(context.host)) return', ''))
    const planted = await vitest(plain)
    expect(planted.code).not.toBe(0)
    expect(planted.output).toContain('patchRequest of "beta-cloud" for "beta-cloud-" on hosts it does not claim on https://api.example.com/v1: removed parallel_tool_calls (was false)')
  }, 120_000)
})
