import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { startScriptedServer, toolCallResponse, type ScriptedServer } from '@wildcall/sdk/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const run = promisify(execFile)
const root = fileURLToPath(new URL('..', import.meta.url))
const tsc = join(root, 'node_modules/typescript/bin/tsc')

// What a user writes after installing @wildcall/sdk, @wildcall/adapter-qwen and zod: one macro tool,
// one client, one invoke. The same code runs as ESM and CJS and is type-checked.
const IMPORTS = `import { createClient, createMacroTool, defineTool, isInvokeError } from '@wildcall/sdk'
import { qwenAdapter } from '@wildcall/adapter-qwen'
import { z } from 'zod'`
const REQUIRES = `const { createClient, createMacroTool, defineTool, isInvokeError } = require('@wildcall/sdk')
const { qwenAdapter } = require('@wildcall/adapter-qwen')
const { z } = require('zod')`
const body = (typed: boolean) => `
const tools = {
  click_element_by_index: defineTool({
    description: 'Click the element with this index',
    inputSchema: z.object({ index: z.number().int() }),
    execute: async ({ index }) => \`clicked \${index}\`,
  }),
  done: defineTool({ description: 'Finish', inputSchema: z.object({ text: z.string() }), execute: async ({ text }) => text }),
}
const AgentOutput = createMacroTool(tools)

async function main(baseURL${typed ? ': string' : ''}) {
  const client = createClient({ baseURL, model: 'qwen3-max', apiKey: 'sk-test', adapters: [qwenAdapter()] })
  try {
    const result = await client.invoke([{ role: 'user', content: 'Click 3' }], { AgentOutput }, { toolChoiceName: 'AgentOutput' })
    const fixes${typed ? ': string[]' : ''} = result.fixes
    console.log(JSON.stringify({ adapters: result.adapters, args: result.toolCall.args, output: result.toolResult, fixes }))
  } catch (error) {
    if (isInvokeError(error)) console.log(JSON.stringify({ type: error.type, retryable: error.retryable }))
    throw error
  }
}
${typed ? `
// The declarations are real, not \`any\`: a client without a model must not compile.
// @ts-expect-error -- "model" is required
export const broken = () => createClient({ baseURL: 'http://127.0.0.1:1/v1' })
` : ''}`
const TYPED_ENTRY = `declare const process: { argv: string[] }\n`
// The scripted server in a plain Node app (a demo, a smoke test): no test runner installed.
const SCRIPTED = (load: string) => `${load}
async function serve() {
  const server = await startScriptedServer({ script: [{ body: toolCallResponse('done', { text: 'scripted' }) }] })
  const response = await fetch(server.url + '/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model":"m"}' })
  const answer = await response.json()
  console.log(JSON.stringify({ status: response.status, call: answer.choices[0].message.tool_calls[0].function, recorded: server.requests.length }))
  await server.close()
}
`
const FILES: Record<string, string> = {
  'esm.mjs': `${IMPORTS}\n${body(false)}\nawait main(process.argv[2])\n`,
  'cjs.cjs': `${REQUIRES}\n${body(false)}\nmain(process.argv[2]).catch(() => { process.exitCode = 1 })\n`,
  // Type-checked only. Under node16 a .cts file's imports are require() calls: it resolves the CJS types.
  'esm.ts': `${IMPORTS}\n${TYPED_ENTRY}${body(true)}\nawait main(process.argv[2] ?? '')\n`,
  'cjs.cts': `${IMPORTS}\n${TYPED_ENTRY}${body(true)}\nvoid main(process.argv[2] ?? '')\n`,
  'scripted.mjs': `${SCRIPTED("import { startScriptedServer, toolCallResponse } from '@wildcall/sdk/testing'")}await serve()\n`,
  'scripted.cjs': `${SCRIPTED("const { startScriptedServer, toolCallResponse } = require('@wildcall/sdk/testing')")}serve()\n`,
  // An adapter registered through import, a client created through require: one registry.
  'mixed.mjs': `import { createRequire } from 'node:module'
import { defineAdapter, registerAdapter } from '@wildcall/sdk'
const { createClient } = createRequire(import.meta.url)('@wildcall/sdk')
registerAdapter(defineAdapter({ name: 'acme', match: { models: ['acme-'] } }))
console.log(JSON.stringify(createClient({ baseURL: 'http://127.0.0.1:1/v1', model: 'acme-2' }).adapters))
`,
}

const tsconfig = (moduleResolution: 'bundler' | 'node16', files: string[]) =>
  JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      module: moduleResolution === 'bundler' ? 'ESNext' : 'Node16',
      moduleResolution,
      lib: ['ES2022', 'DOM'],
      types: [],
      strict: true,
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      noEmit: true,
      // The packages' declarations are checked too: a consumer with skipLibCheck off must not see errors.
      skipLibCheck: false,
    },
    files,
  })

// The path the README gives until the packages are published: build, `npm pack` the SDK, the
// adapters you use and the CLI, and install the tarballs. Nothing else from the workspace is there.
describe('npm pack + install into a fresh project', () => {
  let work: string
  let project: string
  let server: ScriptedServer

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'wildcall-pack-install-'))
    project = join(work, 'project')
    await mkdir(project)
    server = await startScriptedServer({
      script: [{ body: toolCallResponse('AgentOutput', JSON.stringify(JSON.stringify({ next_goal: 'click', action: { click_element_by_index: { index: 3 } } }))) }],
    })
    const packed = await run('npm', ['pack', '--json', '--pack-destination', work, '-w', 'packages/sdk', '-w', 'packages/adapter-qwen', '-w', 'packages/cli'], {
      cwd: root,
      maxBuffer: 16 * 1024 * 1024,
    })
    const tarballs = (JSON.parse(packed.stdout) as Array<{ filename: string }>).map((entry) => join(work, entry.filename))
    expect(tarballs).toHaveLength(3)
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'wildcall-consumer', version: '1.0.0', private: true, type: 'module' }))
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...tarballs, 'zod@^4'], { cwd: project, maxBuffer: 16 * 1024 * 1024 })
    for (const [name, content] of Object.entries(FILES)) await writeFile(join(project, name), content)
    await writeFile(join(project, 'tsconfig.bundler.json'), tsconfig('bundler', ['esm.ts']))
    await writeFile(join(project, 'tsconfig.node16.json'), tsconfig('node16', ['esm.ts', 'cjs.cts']))
  }, 300_000)

  afterAll(async () => {
    await server?.close()
    if (work) await rm(work, { recursive: true, force: true })
  })

  it('should install the CLI without pulling in the adapters the user did not pick', async () => {
    // The CLI bundles its adapters: installing it fetches no other @wildcall package.
    expect((await readdir(join(project, 'node_modules/@wildcall'))).sort()).toEqual(['adapter-qwen', 'cli', 'sdk'])
    expect(existsSync(join(project, 'node_modules/vitest'))).toBe(false)
  })

  it('should import the packages as ESM and run one invoke against the scripted server', async () => {
    const { stdout } = await run(process.execPath, ['esm.mjs', server.url], { cwd: project })
    const result = JSON.parse(stdout)
    expect(result.adapters).toContain('qwen')
    expect(result.args).toEqual({ next_goal: 'click', action: { click_element_by_index: { index: 3 } } })
    expect(result.output).toEqual({ input: result.args, action: { name: 'click_element_by_index', input: { index: 3 } }, output: 'clicked 3' })
    expect(result.fixes).toContain('double-encoded-arguments')
    // The qwen adapter patched the request that went over the wire.
    const sent = server.requests.at(-1)!
    expect(sent.body.enable_thinking).toBe(false)
    expect(sent.headers.authorization).toBe('Bearer sk-test')
    expect(sent.body.tool_choice).toEqual({ type: 'function', function: { name: 'AgentOutput' } })
  }, 60_000)

  it('should require the packages as CJS and run the same invoke', async () => {
    const { stdout } = await run(process.execPath, ['cjs.cjs', server.url], { cwd: project })
    const result = JSON.parse(stdout)
    expect(result.adapters).toContain('qwen')
    expect(result.output.output).toBe('clicked 3')
  }, 60_000)

  it.each(['scripted.mjs', 'scripted.cjs'])('should run the scripted server from @wildcall/sdk/testing in plain Node (%s), with no test runner', async (file) => {
    const { stdout } = await run(process.execPath, [file], { cwd: project })
    expect(JSON.parse(stdout)).toEqual({ status: 200, call: { name: 'done', arguments: '{"text":"scripted"}' }, recorded: 1 })
  }, 60_000)

  it('should share one default registry between the ESM and CJS builds in one process', async () => {
    const { stdout } = await run(process.execPath, ['mixed.mjs'], { cwd: project })
    expect(JSON.parse(stdout)).toContain('acme')
  }, 60_000)

  it('should run wildcall doctor from the installed CLI against the scripted server', async () => {
    server.setScript([{ body: toolCallResponse('AgentOutput', { next_goal: 'type', action: { input_text: { index: 1, text: 'wildcall' } } }) }])
    const { stdout } = await run(join(project, 'node_modules/.bin/wildcall'), ['doctor', '--base-url', server.url, '--model', 'qwen3-max', '--json', '--quiet'], {
      cwd: project,
      env: { ...process.env, WILDCALL_API_KEY: 'sk-doctor-0123456789' },
    })
    const report = JSON.parse(stdout)
    expect(report.outcome).toBe('clean')
    expect(report.adapters).toContain('qwen')
    expect(report.verdict).toMatch(/^WORKS: qwen3-max answered with a valid AgentOutput call/)
  }, 60_000)

  it('should type-check a strict usage file with moduleResolution bundler', async () => {
    const checked = await run(process.execPath, [tsc, '-p', 'tsconfig.bundler.json'], { cwd: project }).catch((error: { stdout: string }) => error)
    expect(checked.stdout).toBe('')
  }, 180_000)

  it('should type-check strict ESM and CJS usage files with moduleResolution node16', async () => {
    const checked = await run(process.execPath, [tsc, '-p', 'tsconfig.node16.json'], { cwd: project }).catch((error: { stdout: string }) => error)
    expect(checked.stdout).toBe('')
  }, 180_000)
})
