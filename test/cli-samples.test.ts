import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startScriptedServer, type ScriptedServer } from '@wildcall/sdk/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runScript } from './run-script'

// The sample output in packages/cli/README.md is what the built CLI prints: each block after a
// `<!-- cli-sample: NAME … -->` marker starts with the command (`$ …`), and the rest is compared with
// what that command prints (stderr, then stdout). A doctor sample's server answers the raw response
// the sample itself shows. Only what varies from run to run is normalised: durations and the port.

const root = fileURLToPath(new URL('..', import.meta.url))
const CLI = join(root, 'packages/cli/dist/cli.js')
const README = join(root, 'packages/cli/README.md')
// The base URL the samples are written with; the test's server listens on a free port instead.
const SAMPLE_URL = 'http://127.0.0.1:8080/v1'

/** The command and the output of the `<!-- cli-sample: NAME … -->` block. */
function readSample(name: string): { command: string; output: string } {
  const text = readFileSync(README, 'utf8')
  const match = new RegExp(`<!-- cli-sample: ${name}\\b[^>]*-->\\s*\`\`\`\\n\\$ ([^\\n]*)\\n([\\s\\S]*?)\`\`\``).exec(text)
  if (!match) throw new Error(`packages/cli/README.md has no "${name}" sample`)
  return { command: match[1]!, output: match[2]! }
}

/** What varies between runs: the milliseconds a request took, and the server's port. */
function normalize(output: string): string {
  return output.replace(/\b\d+ ms\b/g, 'N ms').replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT')
}

/** Runs the built CLI (its server lives in this process and keeps answering). */
const wildcall = (args: string[], stdin = '') => runScript(CLI, { args, stdin })

/** The arguments after `wildcall` in a sample command (plain words: the samples quote nothing there). */
function argumentsOf(command: string): string[] {
  const match = /(?:^|\| )wildcall (.*)$/.exec(command)
  if (!match) throw new Error(`not a wildcall command: ${command}`)
  return match[1]!.split(' ')
}

/** The JSON a doctor sample shows under "Raw response", indented by two spaces. */
function rawResponseOf(output: string): unknown {
  const lines = output.split('\n')
  const start = lines.indexOf('Raw response (API key redacted):')
  if (start < 0) throw new Error('the doctor sample shows no raw response')
  const end = lines.indexOf('', start)
  return JSON.parse(lines.slice(start + 1, end).join('\n'))
}

describe('packages/cli/README.md samples', { timeout: 60_000 }, () => {
  let server: ScriptedServer

  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npx turbo run build" first`)
    server = await startScriptedServer({ script: [] })
  })
  afterAll(() => server?.close())

  it('should print the doctor sample, given the response the sample shows', async () => {
    const { command, output } = readSample('doctor')
    server.setScript([{ body: rawResponseOf(output) }])
    const args = argumentsOf(command).map((word) => (word === SAMPLE_URL ? server.url : word))
    const run = await wildcall(args)
    expect(run.code).toBe(0)
    expect(normalize(`${run.stderr}\n${run.stdout}`)).toBe(normalize(output))
    expect(server.requests).toHaveLength(1)
  })

  it('should print the repair sample', async () => {
    const { command, output } = readSample('repair')
    const echoed = /^echo '([^']*)' \|/.exec(command)
    if (!echoed) throw new Error(`the repair sample reads no echo: ${command}`)
    const run = await wildcall(argumentsOf(command), `${echoed[1]}\n`)
    expect(run.code).toBe(0)
    expect(`${run.stderr}${run.stdout}`).toBe(output)
  })
})
