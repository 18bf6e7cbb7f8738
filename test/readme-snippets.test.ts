import { execFile } from 'node:child_process'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { startScriptedServer, toolCallResponse, type ScriptedServer } from '@wildcall/sdk/testing'
import { transform } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const run = promisify(execFile)
const root = fileURLToPath(new URL('..', import.meta.url))

/** The code block that follows `<!-- snippet: NAME … -->` in a README. */
async function readSnippet(readme: string, name: string): Promise<string> {
  const text = await readFile(join(root, readme), 'utf8')
  const match = new RegExp(`<!-- snippet: ${name}\\b[^>]*-->\\s*\`\`\`ts\\n([\\s\\S]*?)\`\`\``).exec(text)
  if (!match) throw new Error(`${readme} has no "${name}" snippet`)
  return match[1]!
}

describe('README snippets', () => {
  let server: ScriptedServer

  beforeAll(async () => {
    server = await startScriptedServer({
      script: [{ body: toolCallResponse('AgentOutput', JSON.stringify(JSON.stringify({ next_goal: 'Buy it', action: { click_element_by_index: { index: 1 } } }))) }],
    })
  })
  afterAll(() => server?.close())

  it('should run the @wildcall/sdk quick start as written, against the built packages', async () => {
    const source = await readSnippet('packages/sdk/README.md', 'quick-start')
    const { code } = await transform(source, { loader: 'ts', format: 'esm' })
    // Inside the repository (gitignored), so '@wildcall/sdk' resolves to the built workspace package.
    const directory = join(root, 'test-results/snippets')
    await mkdir(directory, { recursive: true })
    const file = join(directory, 'sdk-quick-start.mjs')
    await writeFile(file, code)
    const { stdout } = await run(process.execPath, [file], {
      env: { ...process.env, WILDCALL_BASE_URL: server.url, WILDCALL_MODEL: 'qwen3-max', WILDCALL_API_KEY: 'sk-readme' },
    })
    expect(stdout).toContain("action: { click_element_by_index: { index: 1 } }")
    expect(stdout).toContain("output: 'clicked 1'")
    expect(stdout).toContain("[ 'double-encoded-arguments' ]")
    expect(server.requests.at(-1)!.body.enable_thinking).toBe(false)
  })

  // The browser app of the README is what scripts/check-size.mjs bundles whole: it must compile as
  // written, its tools typed from their JSON Schema.
  it('should type-check the README browser app (the bundle the size budget measures)', async () => {
    const source = await readSnippet('README.md', 'browser-app')
    const directory = join(root, 'test-results/snippets')
    await mkdir(directory, { recursive: true })
    await writeFile(join(directory, 'browser-app.ts'), source)
    const sdk = (file: string) => [join(root, `packages/sdk/src/${file}.ts`)]
    const config = {
      extends: '../../tsconfig.base.json',
      compilerOptions: { types: [], paths: { '@wildcall/sdk/core': sdk('core'), '@wildcall/sdk/json-schema': sdk('json-schema') } },
      files: ['browser-app.ts'],
    }
    await writeFile(join(directory, 'tsconfig.json'), JSON.stringify(config))
    const tsc = join(root, 'node_modules/typescript/bin/tsc')
    const outcome = await run(process.execPath, [tsc, '--noEmit', '-p', directory]).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    )
    expect(outcome).toBe('')
  }, 120_000)

  it('should load the README browser app as written: its placeholder key fits in a header', async () => {
    const { code } = await transform(await readSnippet('README.md', 'browser-app'), { loader: 'ts', format: 'esm' })
    const directory = join(root, 'test-results/snippets')
    await mkdir(directory, { recursive: true })
    const file = join(directory, 'browser-app-load.mjs')
    await writeFile(file, code)
    const loaded = (await import(file)) as { step?: unknown }
    expect(typeof loaded.step).toBe('function')
  })
})
