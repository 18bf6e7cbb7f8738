import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { contentResponse, sseChunks, startScriptedServer, toolCallResponse, type ScriptedServer } from '@wildcall/sdk/testing'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { runScript } from '../../../test/run-script'

// The built command, as `npx wildcall` runs it (npm test builds every package first).
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const API_KEY = 'sk-test-0123456789abcdef'

/** Runs the built CLI with `args` (its server lives in this process and keeps answering). */
const wildcall = (args: string[], options: { stdin?: string; env?: Record<string, string> } = {}) => runScript(CLI, { args, ...options })

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
      expect(unknownFlag.stderr).toContain('wildcall doctor: unknown option --verbose. Options: --base-url, --model, --api-key, --timeout-ms, --stream, --tool-mode, --probe, --profile, --adapter, --json, --quiet (-q), --help (-h).')
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
      expect(JSON.parse(report.rawResponse).choices[0].message.tool_calls[0].function.name).toBe('AgentOutput')
      expect(report.verdict).toMatch(/^WORKS:/)
      // The facts a span of @wildcall/otel carries, under the same names.
      const response = JSON.parse(report.rawResponse)
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
      expect(report.tools).toMatchObject({ mode: 'auto', refused: true, promptMode: 'works' })
      expect(report.tools.verdict).toMatch(/^TOOLS REFUSED, PROMPT MODE WORKS/)
      expect(report.fixes).toContain('prompt-tools')
      expect(report.verdict).toMatch(/^WORKS IN PROMPT MODE: gemma2:2b answered the tools described in the prompt with a valid AgentOutput call/)
      expect(report.toolCall).toEqual({ name: 'AgentOutput', args: STEP })
      expect(server.requests).toHaveLength(2)
      const text = await wildcall(['doctor', '--base-url', server.url, '--model', 'gemma2:2b', '--quiet'])
      expect(text.stdout).toMatch(/\nTools: TOOLS REFUSED, PROMPT MODE WORKS: gemma2:2b gave a valid call/)
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
      expect(report.tools).toMatchObject({ mode: 'native', refused: true, promptMode: 'works' })
      // The report's request and response are the native ones; the probe went out without tools.
      expect(report.request.tools).toBeDefined()
      expect(report.http.status).toBe(400)
      expect(server.requests.map((request) => 'tools' in request.body)).toEqual([true, false])
    })

    it('should send the tools in the prompt with --tool-mode prompt, and refuse an unknown mode', async () => {
      server.setScript(refusingServer)
      const report = JSON.parse((await doctor('gemma2:2b', ['--tool-mode', 'prompt'])).stdout)
      expect(report.tools).toMatchObject({ mode: 'prompt', refused: false })
      expect(report.tools.verdict).toMatch(/^TOOLS IN THE PROMPT/)
      expect(server.requests).toHaveLength(1)
      const bad = await doctor('gemma2:2b', ['--tool-mode', 'json'])
      expect(bad.code).toBe(2)
      expect(bad.stderr).toContain('--tool-mode must be auto, native or prompt')
    })

    it('should report tools accepted natively by a server that takes them', async () => {
      const report = JSON.parse((await doctor()).stdout)
      expect(report.tools).toEqual({ mode: 'auto', refused: false, verdict: 'TOOLS ACCEPTED: the endpoint takes tools natively.' })
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
      expect(report.rawResponse).toContain('[REDACTED]')
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
      const text = await wildcall(['doctor', '--base-url', url, '--model', 'gpt-4.1-mini', '--quiet'])
      expect(text.code).toBe(4)
      expect(text.stdout).toContain('Verdict: UNREACHABLE')
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
