import { existsSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { contentResponse, sseChunks, startScriptedServer, toolCallResponse, type RecordedRequest, type ScriptedReply, type ScriptedServer } from '@wildcall/sdk/testing'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { runScript } from '../../../test/run-script'

// The built command, as `npx wildcall` runs it (npm test builds every package first).
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const API_KEY = 'sk-test-0123456789abcdef'

/** Runs the built CLI with `args` (its server lives in this process and keeps answering). */
const wildcall = (args: string[], options: { stdin?: string; env?: Record<string, string>; cwd?: string } = {}) => runScript(CLI, { args, ...options })

const STEP = {
  evaluation_previous_goal: 'Nothing done yet.',
  memory: 'Search for wildcall.',
  next_goal: 'Type into the search box.',
  action: { input_text: { index: 1, text: 'wildcall' } },
}

// Every test spawns node a few times: generous timeouts for a loaded CI machine.
describe('wildcall (built CLI)', { timeout: 90_000 }, () => {
  let server: ScriptedServer
  let work: string

  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" first`)
    server = await startScriptedServer({ script: [{ body: toolCallResponse('AgentOutput', STEP) }] })
    work = await mkdtemp(join(tmpdir(), 'wildcall-cli-'))
  })
  afterAll(async () => {
    await server?.close()
    if (work) await rm(work, { recursive: true, force: true })
  })

  describe('help and usage', () => {
    it('should print help for the program and for every command, with exit code 0', async () => {
      for (const args of [['--help'], ['doctor', '--help'], ['repair', '--help'], ['help', 'repair']]) {
        const run = await wildcall(args)
        expect(run.code, args.join(' ')).toBe(0)
        expect(run.stdout).toMatch(/^Usage: wildcall/)
        expect(run.stdout).toContain('Exit codes')
      }
      expect((await wildcall(['doctor', '--help'])).stdout).toContain('--base-url URL')
      expect((await wildcall(['repair', '--help'])).stdout).toContain('--tools FILE')
      const version = await wildcall(['--version'])
      expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/)
    })

    it('should exit 2 with a pointer to --help on a usage mistake', async () => {
      const none = await wildcall([])
      expect(none.code).toBe(2)
      const unknownCommand = await wildcall(['diagnose'])
      expect(unknownCommand.code).toBe(2)
      expect(unknownCommand.stderr).toContain('unknown command "diagnose"')
      const unknownFlag = await wildcall(['doctor', '--base-url', server.url, '--model', 'm', '--verbose'])
      expect(unknownFlag.code).toBe(2)
      // One clean line naming the option and what the command takes, not Node's advice about '--'.
      expect(unknownFlag.stderr).toContain('wildcall doctor: unknown option --verbose. Options: --base-url, --model, --api-key, --timeout-ms, --stream, --tool-mode, --probe, --profile, --adapter, --adapter-options, --json, --quiet (-q), --help (-h).')
      expect(unknownFlag.stderr).not.toContain('positional argument')
      expect(unknownFlag.stderr).toContain('wildcall doctor --help')
      const missingValue = await wildcall(['repair', '-', '--tools'])
      expect(missingValue.code).toBe(2)
      expect(missingValue.stderr).toContain('repair: --tools needs a value, e.g. --tools VALUE.')
      const missingModel = await wildcall(['doctor', '--base-url', server.url])
      expect(missingModel.code).toBe(2)
      expect(missingModel.stderr).toContain('--model is required')
      const badUrl = await wildcall(['doctor', '--base-url', 'not a url', '--model', 'm'])
      expect(badUrl.code).toBe(2)
      expect(badUrl.stderr).toContain('baseURL')
      const missingFile = await wildcall(['repair', join(work, 'nope.json')])
      expect(missingFile.code).toBe(2)
      expect(missingFile.stderr).toContain('ENOENT')
    })
  })

  describe('doctor', () => {
    beforeEach(() => server.setScript([{ body: toolCallResponse('AgentOutput', STEP) }]))

    const doctor = (model = 'qwen3-max', extra: string[] = []) => wildcall(['doctor', '--base-url', server.url, '--model', model, '--json', ...extra], { env: { WILDCALL_API_KEY: API_KEY } })

    it('should report a clean call, the matched adapters and their request diff (exit 0)', async () => {
      const run = await doctor()
      expect(run.code).toBe(0)
      const report = JSON.parse(run.stdout)
      expect(report.outcome).toBe('clean')
      expect(report.fixes).toEqual([])
      expect(report.toolCall).toEqual({ name: 'AgentOutput', args: STEP })
      expect(report.adapters).toEqual(['qwen'])
      // The qwen adapter turns thinking off: shown per adapter and in the whole-body diff.
      expect(report.patches.find((patch: { adapter: string }) => patch.adapter === 'qwen').changes).toContainEqual({ path: 'enable_thinking', kind: 'added', after: false })
      expect(report.requestDiff).toContainEqual({ path: 'enable_thinking', kind: 'added', after: false })
      expect(report.request.tool_choice).toEqual({ type: 'function', function: { name: 'AgentOutput' } })
      expect(report.http.status).toBe(200)
      expect(report.http.durationMs).toBeGreaterThanOrEqual(0)
      // The body as JSON, not a JSON-encoded string: `jq .rawResponse` saves what the server sent.
      expect(report.rawResponse.choices[0].message.tool_calls[0].function.name).toBe('AgentOutput')
      expect(report.verdict).toMatch(/^WORKS:/)
      // The facts a span of @wildcall/otel carries, under the same names.
      const response = report.rawResponse
      expect(report.attributes).toEqual({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'qwen',
        'gen_ai.request.model': 'qwen3-max',
        'server.address': '127.0.0.1',
        'server.port': Number(new URL(server.url).port),
        'http.response.status_code': 200,
        'gen_ai.response.id': response.id,
        'gen_ai.response.model': response.model,
        'gen_ai.response.finish_reasons': ['tool_calls'],
        'gen_ai.usage.input_tokens': 12,
        'gen_ai.usage.output_tokens': 8,
        'wildcall.fix.codes': [],
        'gen_ai.tool.name': 'AgentOutput',
      })
      // Exactly one request, sent with the key (which never appears in the report).
      expect(server.requests).toHaveLength(1)
      expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${API_KEY}`)
      expect(run.stdout).not.toContain(API_KEY)
      // Progress went to stderr, so stdout stays one JSON document.
      expect(run.stderr).toContain('→ POST')
      expect(run.stderr).toContain('← HTTP 200')
    })

    // A local server whose model has no tool template: it refuses `tools`, and follows tools written in the prompt.
    const refusingServer = (request: { body: { tools?: unknown } }) =>
      request.body.tools
        ? { status: 400, body: { error: { message: 'registry.ollama.ai/library/gemma2:2b does not support tools', type: 'api_error' } } }
        : { body: contentResponse(`<tool_call>\n${JSON.stringify({ name: 'AgentOutput', arguments: STEP })}\n</tool_call>`) }

    it('should say when the endpoint refuses tools and that prompt mode works there (auto: the client switches)', async () => {
      server.setScript(refusingServer)
      const run = await doctor('gemma2:2b')
      expect(run.code).toBe(0)
      const report = JSON.parse(run.stdout)
      expect(report.tools).toMatchObject({ mode: 'auto', native: 'refused', refused: true, promptMode: 'works' })
      expect(report.tools.verdict).toMatch(/^TOOLS REFUSED, PROMPT MODE WORKS/)
      expect(report.fixes).toContain('prompt-tools')
      // Both requests, the refused one first with its status and body.
      expect(report.exchanges).toMatchObject([
        { tools: 'native', http: { status: 400 }, rawResponse: { error: { message: 'registry.ollama.ai/library/gemma2:2b does not support tools' } }, error: { type: 'bad_request' } },
        { tools: 'prompt', http: { status: 200 }, rawResponse: { choices: [{ message: { role: 'assistant' } }] } },
      ])
      expect(report.exchanges[1].error).toBeUndefined()
      expect(report.http.status).toBe(200)
      // Prompt mode made the change, after the adapters (none here): the tools out, the block appended.
      expect(report.promptChanges).toContainEqual({ path: 'tools', kind: 'removed', before: expect.any(Array) })
      expect(report.promptChanges.find((change: { path: string }) => change.path === 'messages[0].content').after).toContain('AgentOutput')
      expect(report.verdict).toMatch(/^WORKS IN PROMPT MODE: gemma2:2b answered the tools described in the prompt with a valid AgentOutput call/)
      expect(report.toolCall).toEqual({ name: 'AgentOutput', args: STEP })
      expect(server.requests).toHaveLength(2)
      const text = await wildcall(['doctor', '--base-url', server.url, '--model', 'gemma2:2b', '--quiet'])
      expect(text.stdout).toMatch(/\nTools: TOOLS REFUSED, PROMPT MODE WORKS: gemma2:2b gave a valid call/)
      expect(text.stdout).toContain('Adapters matched (patch order): none\nPrompt mode (the tools described in the system message, after the adapters): ')
      expect(text.stdout).not.toContain('none (the request goes out as built)')
      // The appended tools block is seen: the old text's end, then what was added.
      expect(text.stdout).toMatch(/~ messages\[0\]\.content: …"[^\n]{0,20}exactly one action\." \+ "\\n\\n[^\n]*<tools>/)
      expect(text.stdout).toContain('Request 1 (tools sent natively): HTTP 400 in ')
      expect(text.stdout).toContain('"message": "registry.ollama.ai/library/gemma2:2b does not support tools"')
      expect(text.stdout).toContain('Request 2 (tools in the prompt):\nHTTP: 200 in ')
      // Prompt mode constrains the answer with response_format.
      expect(report.constrained).toEqual({ by: 'response_format', refused: [], verdict: expect.stringMatching(/^YES: response_format sent and taken/) })
      expect(text.stdout).toMatch(/\nConstrained decoding: YES: response_format sent and taken/)
    })

    it('should say when the endpoint refuses response_format (learnt, not sent again)', async () => {
      server.setScript((request) =>
        request.body.response_format ? { status: 400, body: { error: { message: 'This response_format type is unavailable now', type: 'invalid_request_error' } } } : refusingServer(request),
      )
      const report = JSON.parse((await doctor('gemma2:2b')).stdout)
      expect(report.constrained).toEqual({ by: null, refused: ['response_format'], verdict: expect.stringMatching(/^REFUSED: the endpoint refused response_format/) })
      expect(server.requests.map((request) => request.body.response_format !== undefined)).toEqual([false, true, false])
    })

    it('should fail with --tool-mode native on such an endpoint, and still say whether prompt mode works', async () => {
      server.setScript(refusingServer)
      const run = await doctor('gemma2:2b', ['--tool-mode', 'native'])
      expect(run.code).toBe(1)
      const report = JSON.parse(run.stdout)
      expect(report.outcome).toBe('error_final')
      expect(report.error.message).toContain("toolMode: 'prompt'")
      expect(report.tools).toMatchObject({ mode: 'native', native: 'refused', refused: true, promptMode: 'works' })
      expect(report.exchanges.map((exchange: { tools: string; http: { status: number } }) => [exchange.tools, exchange.http.status])).toEqual([['native', 400], ['prompt', 200]])
      // The report's request and response are the native ones; the probe went out without tools.
      expect(report.request.tools).toBeDefined()
      expect(report.http.status).toBe(400)
      expect(server.requests.map((request) => 'tools' in request.body)).toEqual([true, false])
    })

    it('should send the tools in the prompt with --tool-mode prompt, and refuse an unknown mode', async () => {
      server.setScript(refusingServer)
      const report = JSON.parse((await doctor('gemma2:2b', ['--tool-mode', 'prompt'])).stdout)
      expect(report.tools).toMatchObject({ mode: 'prompt', native: 'not sent', refused: false, promptMode: 'works' })
      expect(report.tools.verdict).toMatch(/^TOOLS IN THE PROMPT/)
      expect(server.requests).toHaveLength(1)
      const bad = await doctor('gemma2:2b', ['--tool-mode', 'json'])
      expect(bad.code).toBe(2)
      expect(bad.stderr).toContain('--tool-mode must be auto, native or prompt')
    })

    it('should report tools accepted natively by a server that takes them', async () => {
      const report = JSON.parse((await doctor()).stdout)
      expect(report.tools).toEqual({ mode: 'auto', native: 'accepted', refused: false, verdict: 'TOOLS ACCEPTED: the endpoint took the request with tools (HTTP 200).' })
      expect(report.promptChanges).toEqual([])
      expect(report.constrained).toMatchObject({ by: null, refused: [], verdict: expect.stringMatching(/^NO: neither strict tools nor response_format was sent/) })
    })

    it('should show no adapter change for a model no adapter patches', async () => {
      const report = JSON.parse((await doctor('acme-large-1')).stdout)
      expect(report.adapters).toEqual([])
      expect(report.requestDiff).toEqual([])
    })

    it('should report the repairs when the call needed them (exit 0)', async () => {
      server.setScript([{ body: contentResponse(`<tool_call>${JSON.stringify({ name: 'AgentOutput', arguments: STEP })}</tool_call>`) }])
      const run = await doctor()
      expect(run.code).toBe(0)
      const report = JSON.parse(run.stdout)
      expect(report.outcome).toBe('repaired')
      expect(report.fixes.length).toBeGreaterThan(0)
      expect(report.toolCall.args).toEqual(STEP)
      expect(report.verdict).toMatch(/^WORKS WITH REPAIRS:/)
    })

    it('should classify a rate limit as retryable, with the server delay, and exit 3', async () => {
      server.setScript([{ status: 429, headers: { 'retry-after': '7' }, body: { error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } } }])
      const run = await doctor()
      expect(run.code).toBe(3)
      const report = JSON.parse(run.stdout)
      expect(report.outcome).toBe('error_retryable')
      expect(report.error).toMatchObject({ type: 'rate_limit', retryable: true, status: 429, retryAfterMs: 7000 })
      expect(report.http.status).toBe(429)
      expect(report.verdict).toMatch(/^TRANSIENT FAILURE: rate_limit/)
      // A 429 says nothing about tools.
      expect(report.tools).toMatchObject({ native: 'unknown', refused: false })
      expect(report.tools.verdict).toBe('TOOLS UNKNOWN: the only answer was HTTP 429 (rate_limit), which does not say whether the endpoint takes tools.')
      // doctor sends one request: it reports the failure instead of retrying it away.
      expect(server.requests).toHaveLength(1)
    })

    it('should classify a rejected key as final, redact it from the echoed body, and exit 1', async () => {
      server.setScript([{ status: 401, body: { error: { message: `Incorrect API key provided: ${API_KEY}`, type: 'invalid_request_error', code: 'invalid_api_key' } } }])
      const run = await doctor()
      expect(run.code).toBe(1)
      const report = JSON.parse(run.stdout)
      expect(report.outcome).toBe('error_final')
      expect(report.error).toMatchObject({ type: 'auth_error', retryable: false, status: 401 })
      expect(report.rawResponse.error.message).toBe('Incorrect API key provided: [REDACTED]')
      expect(run.stdout + run.stderr).not.toContain(API_KEY)
      expect(report.verdict).toMatch(/^FAILS: auth_error — retrying will not help/)
      expect(report.attributes).toMatchObject({ 'http.response.status_code': 401, 'error.type': 'auth_error', 'gen_ai.response.finish_reasons': ['error'] })
    })

    it('should print a readable report with every section', async () => {
      server.setScript([{ body: toolCallResponse('AgentOutput', JSON.stringify(JSON.stringify(STEP))) }])
      const run = await wildcall(['doctor', '--base-url', server.url, '--model', 'qwen3-max', '--quiet'])
      expect(run.code).toBe(0)
      expect(run.stderr).toBe('')
      expect(run.stdout).toContain('Adapters matched (patch order): qwen\n')
      expect(run.stdout).toContain('+ enable_thinking: false')
      expect(run.stdout).toMatch(/HTTP: 200 in \d+ ms/)
      expect(run.stdout).toContain('Raw response (API key redacted):')
      expect(run.stdout).toMatch(/Repairs applied: .*double-encoded/)
      expect(run.stdout).toContain('Tool call: AgentOutput → input_text {"index":1,"text":"wildcall"}')
      expect(run.stdout).toContain('Verdict: WORKS WITH REPAIRS')
    })

    it('should give a refused connection its own verdict and exit code 4, not a transient failure', async () => {
      const closed = await startScriptedServer({ script: [{ body: '' }] })
      const url = closed.url
      await closed.close()
      const run = await wildcall(['doctor', '--base-url', url, '--model', 'gpt-4.1-mini', '--json'])
      expect(run.code).toBe(4)
      const report = JSON.parse(run.stdout)
      expect(report.outcome).toBe('unreachable')
      expect(report.error.type).toBe('network_error')
      expect(report.http).toBeUndefined()
      expect(report.verdict).toBe(`UNREACHABLE: nothing answered at ${url} (ECONNREFUSED). Check the host and port of --base-url, that the server is running, and your network or proxy.`)
      expect(report.tools).toMatchObject({ native: 'unknown', refused: false })
      expect(report.tools.verdict).toBe('TOOLS UNKNOWN: nothing answered, so nothing says whether the endpoint takes tools.')
      expect(report.exchanges).toEqual([{ tools: 'native', error: { type: 'network_error', message: expect.stringContaining('ECONNREFUSED') } }])
      const text = await wildcall(['doctor', '--base-url', url, '--model', 'gpt-4.1-mini', '--quiet'])
      expect(text.code).toBe(4)
      expect(text.stdout).toContain('Verdict: UNREACHABLE')
    })

    it('should call a port fetch refuses outright (9) a final config error, not a transient failure', async () => {
      const run = await wildcall(['doctor', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'gpt-4.1-mini', '--json'])
      expect(run.code).toBe(1)
      const report = JSON.parse(run.stdout)
      expect(report).toMatchObject({ outcome: 'error_final', error: { type: 'config_error', retryable: false }, tools: { native: 'unknown' } })
      expect(report.verdict).toMatch(/^FAILS: config_error — retrying will not help\. \[wildcall\] Fetch refuses the port of http:\/\/127\.0\.0\.1:9\/v1\/chat\/completions \("bad port"\)/)
    })

    it('should call a host name that does not resolve unreachable too', async () => {
      const run = await wildcall(['doctor', '--base-url', 'http://wildcall-doctor-test.invalid/v1', '--model', 'gpt-4.1-mini', '--json', '--timeout-ms', '20000'])
      expect(run.code).toBe(4)
      expect(JSON.parse(run.stdout).verdict).toMatch(/^UNREACHABLE: nothing answered at http:\/\/wildcall-doctor-test\.invalid\/v1 \((ENOTFOUND|EAI_AGAIN)\)/)
    })

    it('should keep a server that answers too slowly transient, and name the --timeout-ms flag', async () => {
      server.setScript([{ delayMs: 3_000, body: toolCallResponse('AgentOutput', STEP) }])
      const run = await doctor('qwen3-max', ['--timeout-ms', '300'])
      expect(run.code).toBe(3)
      const report = JSON.parse(run.stdout)
      expect(report.error.type).toBe('timeout')
      expect(report.error.message).toContain('No response within --timeout-ms (300 ms). Raise --timeout-ms')
      expect(report.error.message).not.toContain('Raise timeoutMs')
    })

    it('should send the request as a stream with --stream and report the streamed call', async () => {
      const events = [
        { choices: [{ index: 0, delta: { role: 'assistant', tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'AgentOutput', arguments: '' } }] } }] },
        { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: JSON.stringify(STEP) } }] } }] },
        { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
      ]
      server.setScript([{ headers: { 'content-type': 'text/event-stream' }, chunks: sseChunks(events) }])
      const run = await doctor('qwen3-max', ['--stream'])
      expect(run.code).toBe(0)
      const report = JSON.parse(run.stdout)
      expect(report.stream).toBe(true)
      expect(report.outcome).toBe('clean')
      expect(report.toolCall).toEqual({ name: 'AgentOutput', args: STEP })
      expect(server.requests[0]!.body.stream).toBe(true)
      expect(report.rawResponse).toContain('data: [DONE]')
      expect(run.stderr).toContain('(streaming)')
    })

    it('should load a custom adapter module with --adapter and let it patch the request', async () => {
      const module = join(work, 'acme-adapter.mjs')
      // Built JavaScript as an adapter package ships it; a plain object passes defineAdapter's checks.
      await writeFile(module, `export function acmeAdapter() {
  return { name: 'acme', match: { models: ['acme-'] }, patchRequest(body) { body.acme_mode = 'fast' } }
}
export const version = '1.0.0'
`)
      const run = await doctor('acme-large-1', ['--adapter', module])
      expect(run.code).toBe(0)
      const report = JSON.parse(run.stdout)
      expect(report.adapters).toEqual(['acme'])
      expect(report.patches).toEqual([{ adapter: 'acme', changes: [{ path: 'acme_mode', kind: 'added', after: 'fast' }] }])
      expect(server.requests[0]!.body.acme_mode).toBe('fast')
      expect(run.stderr).toContain('adapters: acme)')

      const repaired = await wildcall(['repair', '-', '--json', '--model', 'acme-large-1', '--adapter', module], { stdin: JSON.stringify(toolCallResponse('AgentOutput', STEP)) })
      expect(repaired.code).toBe(0)
      expect(JSON.parse(repaired.stdout).adapters).toEqual(['acme'])
    })

    it('should load --adapter by package name from the current folder and call its factory with --adapter-options', async () => {
      // An adapter package installed in a project: dual exports, as the scaffold writes them.
      const project = join(work, 'project')
      const pkg = join(project, 'node_modules', 'wildcall-adapter-acme')
      await mkdir(join(pkg, 'dist'), { recursive: true })
      await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'app', private: true }))
      await writeFile(
        join(pkg, 'package.json'),
        JSON.stringify({ name: 'wildcall-adapter-acme', type: 'module', exports: { '.': { import: './dist/index.js', require: './dist/index.cjs' } } }),
      )
      const factory = `function acmeAdapter(options = {}) {
  return { name: 'acme', match: { models: ['acme-'] }, patchRequest(body, context) { body.acme_mode = options.fast ? 'fast' : 'slow'; if (options.host && context.host !== options.host) body.acme_foreign = true } }
}`
      await writeFile(join(pkg, 'dist', 'index.js'), `export ${factory}\n`)
      await writeFile(join(pkg, 'dist', 'index.cjs'), `${factory}\nmodule.exports = { acmeAdapter }\n`)
      const cwd = project
      const run = await wildcall(['doctor', '--base-url', server.url, '--model', 'acme-large-1', '--json', '--quiet', '--adapter', 'wildcall-adapter-acme', '--adapter-options', '{"fast":true,"host":"api.acme.test"}'], { cwd })
      expect(run.stderr).toBe('')
      expect(run.code).toBe(0)
      expect(JSON.parse(run.stdout).adapters).toEqual(['acme'])
      expect(server.requests[0]!.body).toMatchObject({ acme_mode: 'fast', acme_foreign: true })

      const plain = await wildcall(['repair', '-', '--json', '--model', 'acme-large-1', '--adapter', 'wildcall-adapter-acme'], { cwd, stdin: JSON.stringify(toolCallResponse('AgentOutput', STEP)) })
      expect(plain.code).toBe(0)
      expect(JSON.parse(plain.stdout).adapters).toEqual(['acme'])

      // Not installed there: a usage error that says how to install it or give a path.
      const missing = await wildcall(['doctor', '--base-url', server.url, '--model', 'acme-large-1', '--adapter', 'wildcall-adapter-nope'], { cwd })
      expect(missing.code).toBe(2)
      expect(missing.stderr).toContain('--adapter wildcall-adapter-nope is neither a file nor a package installed where wildcall runs')
      expect(missing.stderr).toContain('npm install --save-dev wildcall-adapter-nope')
    })

    it('should refuse --adapter-options that are not a JSON object, or come without --adapter', async () => {
      const bad = await doctor('acme-large-1', ['--adapter', 'x', '--adapter-options', '{fast}'])
      expect(bad.code).toBe(2)
      expect(bad.stderr).toContain('--adapter-options must be JSON')
      const list = await doctor('acme-large-1', ['--adapter', 'x', '--adapter-options', '[1]'])
      expect(list.stderr).toContain('--adapter-options must be a JSON object')
      const alone = await doctor('acme-large-1', ['--adapter-options', '{}'])
      expect(alone.code).toBe(2)
      expect(alone.stderr).toContain('--adapter-options goes with --adapter')
      expect(server.requests).toHaveLength(0)
    })

    it('should keep the query of a base URL after the path (Azure OpenAI)', async () => {
      const run = await wildcall(['doctor', '--base-url', `${server.url}/openai/deployments/qwen?api-version=2024-10-21`, '--model', 'qwen3-max', '--json', '--quiet'])
      expect(run.code).toBe(0)
      expect(server.requests[0]!.path).toBe('/v1/openai/deployments/qwen/chat/completions?api-version=2024-10-21')
      expect(JSON.parse(run.stdout).patches[0].changes).toContainEqual({ path: 'enable_thinking', kind: 'added', after: false })
    })

    it('should say "none" in the progress line when no adapter matches', async () => {
      const run = await wildcall(['doctor', '--base-url', server.url, '--model', 'acme-large-1'])
      expect(run.stderr).toContain('adapters: none)')
      expect(run.stderr).not.toContain('adapters: )')
    })

    it('should turn an --adapter module that cannot load or exports no adapter into a usage error', async () => {
      const missing = await doctor('acme-large-1', ['--adapter', join(work, 'missing.mjs')])
      expect(missing.code).toBe(2)
      expect(missing.stderr).toContain(`--adapter ${join(work, 'missing.mjs')} could not be loaded`)
      const empty = join(work, 'empty.mjs')
      await writeFile(empty, 'export const answer = 42\n')
      const none = await doctor('acme-large-1', ['--adapter', empty])
      expect(none.code).toBe(2)
      expect(none.stderr).toContain('exports no adapter')
      expect(server.requests).toHaveLength(0)
    })

    it('should probe with --probe, write the profile with --profile, and refuse --profile alone', async () => {
      server.setScript((request) =>
        typeof request.body.tool_choice === 'object'
          ? { status: 400, body: { error: { message: "Invalid tool_choice type: 'object'. Supported string values: none, auto, required" } } }
          : { body: toolCallResponse('answer', { word: 'ready' }) },
      )
      const path = join(work, 'probed.json')
      const run = await wildcall(['doctor', '--probe', '--base-url', server.url, '--model', 'acme-1', '--profile', path])
      expect(run.code).toBe(0)
      expect(run.stdout).toContain('tool_choice: required is taken.')
      expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ version: 1, model: 'acme-1', toolChoice: 'required' })
      const alone = await wildcall(['doctor', '--profile', path, '--base-url', server.url, '--model', 'acme-1'])
      expect(alone.code).toBe(2)
      expect(alone.stderr).toContain('--profile goes with --probe')
    })
  })

  // One endpoint imitation each: doctor's text, its --json and the profile --probe writes must agree.
  describe('doctor agrees with itself', () => {
    const nameOf = (request: RecordedRequest) => request.body.tools![0]!.function.name
    const hermes = contentResponse(`<tool_call>${JSON.stringify({ name: 'AgentOutput', arguments: STEP })}</tool_call>`)
    const toolless = (refusal: ScriptedReply) => (request: RecordedRequest): ScriptedReply =>
      request.body.tools ? refusal : { body: /answer tool/.test(JSON.stringify(request.body.messages)) ? contentResponse('<tool_call>{"name": "answer", "arguments": {"word": "ready"}}</tool_call>') : hermes }
    const endpoints: Array<[string, ((request: RecordedRequest) => ScriptedReply) | undefined, { native: string; toolMode?: string; code: number }]> = [
      ['unreachable', undefined, { native: 'unknown', code: 4 }],
      ['a 429 to everything', () => ({ status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'Rate limit reached for requests', code: 'rate_limit_exceeded' } } }), { native: 'unknown', code: 3 }],
      ['Ollama refusing tools', toolless({ status: 400, body: { error: 'registry.ollama.ai/library/gemma3:4b does not support tools' } }), { native: 'refused', toolMode: 'prompt', code: 0 }],
      ['vLLM refusing tools', toolless({ status: 400, body: { object: 'error', message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set', type: 'BadRequestError', code: 400 } }), { native: 'refused', toolMode: 'prompt', code: 0 }],
      ['a reasoner', (request) => ({ body: toolCallResponse(nameOf(request), nameOf(request) === 'answer' ? { word: 'ready' } : STEP, { message: { reasoning_content: 'The search box is [1].' } }) }), { native: 'accepted', code: 0 }],
      ['an OpenAI-like server', (request) => ({ body: toolCallResponse(nameOf(request), nameOf(request) === 'answer' ? { word: 'ready' } : STEP) }), { native: 'accepted', code: 0 }],
    ]

    it.each(endpoints)('%s', async (_name, script, expected) => {
      let url = server.url
      if (script) server.setScript(script)
      else {
        const closed = await startScriptedServer({ script: [] })
        url = closed.url
        await closed.close()
      }
      const args = ['doctor', '--base-url', url, '--model', 'acme-1', '--quiet']
      const text = await wildcall(args)
      const before = server.requests.length
      const json = await wildcall([...args, '--json'])
      const report = JSON.parse(json.stdout)
      expect([text.code, json.code]).toEqual([expected.code, expected.code])
      expect(report.tools.native).toBe(expected.native)
      // The text says what the JSON says, line for line.
      expect(text.stdout).toContain(`\nTools: ${report.tools.verdict}\n`)
      expect(text.stdout).toContain(`\nVerdict: ${report.verdict}\n`)
      expect(text.stdout.includes('TOOLS ACCEPTED')).toBe(expected.native === 'accepted')
      expect(text.stdout.includes('TOOLS UNKNOWN')).toBe(expected.native === 'unknown')
      for (const exchange of report.exchanges) expect(text.stdout).toContain(exchange.http ? `${exchange.http.status} in ` : 'HTTP: no response')
      expect(report.exchanges.filter((exchange: { http?: unknown }) => exchange.http).length).toBe(script ? server.requests.length - before : 0)
      // The profile --probe writes says the same about tools.
      const path = join(work, 'agree.json')
      await rm(path, { force: true })
      const probed = await wildcall(['doctor', '--probe', '--base-url', url, '--model', 'acme-1', '--profile', path])
      const profile = JSON.parse(readFileSync(path, 'utf8'))
      expect(profile.toolMode).toBe(expected.toolMode)
      expect(probed.code).toBe(expected.native === 'unknown' ? 1 : 0)
      if (expected.toolMode) expect(probed.stdout).toContain("the profile says toolMode 'prompt'")
      expect(probed.stdout.includes('Nothing was refused')).toBe(expected.native === 'accepted')
    })
  })

  describe('repair', () => {
    it('should repair a saved whole response and print the action and fix codes', async () => {
      const file = join(work, 'double.json')
      await writeFile(file, JSON.stringify(toolCallResponse('AgentOutput', JSON.stringify(JSON.stringify(STEP)))))
      const run = await wildcall(['repair', file])
      expect(run.code).toBe(0)
      expect(run.stdout).toContain('Input: a chat-completions response')
      expect(run.stdout).toContain('Action: input_text {"index":1,"text":"wildcall"}')
      expect(run.stdout).toContain('next_goal: Type into the search box.')
      expect(run.stdout).toMatch(/Fixes: .*double-encoded-arguments/)
    })

    it('should repair the raw response of doctor --json saved with jq, and a response saved as a JSON string', async () => {
      server.setScript([{ body: toolCallResponse('AgentOutput', JSON.stringify(JSON.stringify(STEP))) }])
      const doctorRun = await wildcall(['doctor', '--base-url', server.url, '--model', 'gpt-4.1-mini', '--json', '--quiet'])
      // What `jq .rawResponse > saved.json` writes.
      const saved = join(work, 'saved.json')
      await writeFile(saved, `${JSON.stringify(JSON.parse(doctorRun.stdout).rawResponse, null, 2)}\n`)
      const run = await wildcall(['repair', saved, '--model', 'gpt-4.1-mini'])
      expect(run.code).toBe(0)
      expect(run.stdout).toContain('Input: a chat-completions response')
      expect(run.stdout).toMatch(/Fixes: .*double-encoded-arguments/)
      const encoded = await wildcall(['repair', '-', '--json'], { stdin: JSON.stringify(JSON.stringify(toolCallResponse('AgentOutput', STEP))) })
      expect(encoded.code).toBe(0)
      expect(JSON.parse(encoded.stdout)).toMatchObject({ ok: true, input: 'response', toolCall: { name: 'AgentOutput', args: STEP } })
    })

    it('should say "none" when no adapter matches, not print an empty Adapters line', async () => {
      const run = await wildcall(['repair', '-'], { stdin: JSON.stringify(toolCallResponse('AgentOutput', STEP)) })
      expect(run.code).toBe(0)
      expect(run.stdout).toContain('Adapters: none (pass --model or --base-url to run the ones that match)\n')
    })

    it('should read raw model text from stdin', async () => {
      const text = `<think>The box is [1].</think>\n<tool_call>${JSON.stringify({ name: 'AgentOutput', arguments: STEP })}</tool_call>`
      const run = await wildcall(['repair', '-', '--json'], { stdin: text })
      expect(run.code).toBe(0)
      const report = JSON.parse(run.stdout)
      expect(report).toMatchObject({ ok: true, input: 'text', toolCall: { name: 'AgentOutput', args: STEP } })
      expect(report.fixes.length).toBeGreaterThan(0)
      expect(report.attributes).toMatchObject({ 'wildcall.fix.codes': report.fixes, 'wildcall.reader': 'hermes', 'gen_ai.tool.name': 'AgentOutput' })
    })

    it('should say "none" for a response that was already valid', async () => {
      const run = await wildcall(['repair', '-'], { stdin: JSON.stringify(toolCallResponse('AgentOutput', STEP).choices[0]!.message) })
      expect(run.code).toBe(0)
      expect(run.stdout).toContain('Input: an assistant message')
      expect(run.stdout).toContain('Fixes: none (the response was already valid)')
    })

    it('should exit 1 with the error type when the response cannot be repaired', async () => {
      const refusal = await wildcall(['repair', '-'], { stdin: JSON.stringify(contentResponse('I would rather not use a tool.')) })
      expect(refusal.code).toBe(1)
      expect(refusal.stdout).toContain('Unrepairable: no_tool_call')
      const truncated = await wildcall(['repair', '-', '--json'], { stdin: JSON.stringify(toolCallResponse('AgentOutput', '{"action": {"input_te', { finishReason: 'length' })) })
      expect(truncated.code).toBe(1)
      expect(JSON.parse(truncated.stdout).error).toMatchObject({ type: 'output_truncated', retryable: false })
      expect(JSON.parse(truncated.stdout).attributes).toMatchObject({ 'gen_ai.response.finish_reasons': ['length'], 'error.type': 'output_truncated' })
    })

    it('should use the tool set of a saved request, unpacking a macro tool', async () => {
      // The request doctor sent is exactly what a bug report has at hand.
      server.setScript([{ body: toolCallResponse('AgentOutput', STEP) }])
      const doctorRun = await wildcall(['doctor', '--base-url', server.url, '--model', 'gpt-4.1-mini', '--json', '--quiet'])
      const requestFile = join(work, 'request.json')
      await writeFile(requestFile, JSON.stringify(JSON.parse(doctorRun.stdout).request))
      const call = { name: 'AgentOutput', arguments: JSON.stringify({ next_goal: 'scroll', action: { scroll: { down: 'true' } } }) }
      const run = await wildcall(['repair', '-', '--tools', requestFile, '--json'], { stdin: JSON.stringify({ role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: call }] }) })
      expect(run.code).toBe(0)
      const report = JSON.parse(run.stdout)
      expect(report.toolCall.args).toEqual({ next_goal: 'scroll', action: { scroll: { down: true } } })
      expect(report.fixes.length).toBeGreaterThan(0)
    })

    it('should accept a plain tools map and reject an unknown --tool-choice', async () => {
      const toolsFile = join(work, 'tools.json')
      await writeFile(toolsFile, JSON.stringify({ get_weather: { description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }))
      const run = await wildcall(['repair', '-', '--tools', toolsFile], { stdin: '{"name": "get_weather", "arguments": {"city": "Paris"}}' })
      expect(run.code).toBe(0)
      expect(run.stdout).toContain('Tool call: get_weather')
      expect(run.stdout).toContain('Action: {"city":"Paris"}')
      const wrong = await wildcall(['repair', '-', '--tools', toolsFile, '--tool-choice', 'nope'], { stdin: '{}' })
      expect(wrong.code).toBe(2)
      expect(wrong.stderr).toContain('--tool-choice "nope" is not one of the tools (get_weather)')
    })
  })
})
