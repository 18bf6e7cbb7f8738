import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient, type ChatResponse } from '@wildcall/sdk'
import { contentResponse, startScriptedServer, streamedReply, toolCallResponse, type RecordedRequest, type ScriptedReply, type ScriptedServer } from '@wildcall/sdk/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z as zod } from 'zod'
import type { CliIo } from './cli-io'
import { runProbe, type ProbeInput } from './run-probe'

const refusal = (message: string): ScriptedReply => ({ status: 400, body: { error: { message, type: 'invalid_request_error' } } })
const answer = (request: RecordedRequest, response: ChatResponse): ScriptedReply => (request.body.stream ? streamedReply(response) : { body: response })

const probe = (server: ScriptedServer, model: string, extra: Partial<ProbeInput> = {}) => ({ baseURL: server.url, model, apiKey: undefined, timeoutMs: 5_000, adapters: [], profilePath: undefined, json: false, ...extra })

function makeIo() {
  const out = { stdout: '', stderr: '' }
  const io: CliIo = { stdout: (text) => (out.stdout += text), stderr: (text) => (out.stderr += text), readStdin: async () => '', env: {} }
  return { io, out }
}

describe('wildcall doctor --probe', () => {
  let server: ScriptedServer
  let work: string
  beforeAll(async () => {
    server = await startScriptedServer({ script: [] })
    work = await mkdtemp(join(tmpdir(), 'wildcall-probe-'))
  })
  afterAll(async () => {
    await server.close()
    await rm(work, { recursive: true, force: true })
  })

  it('should print what it learnt and write a profile a new client starts from', async () => {
    server.setScript((request) =>
      typeof request.body.tool_choice === 'object'
        ? refusal("Invalid tool_choice type: 'object'. Supported string values: none, auto, required")
        : request.body.messages.some((message) => message.role === 'assistant' && typeof message.reasoning_content !== 'string')
          ? refusal('Missing `reasoning_content` field in the assistant message at message index 2.')
          : answer(request, toolCallResponse('answer', { word: 'ready' }, { message: { reasoning_content: 'Think.' } })),
    )
    const path = join(work, 'profile.json')
    const { io, out } = makeIo()
    const code = await runProbe(probe(server, 'acme-reasoner-2', { profilePath: path }), io)
    expect(code).toBe(0)
    expect(out.stdout).toContain('tool_choice: required is taken.')
    expect(out.stdout).toContain('History: reasoning_content must be sent back.')
    expect(out.stdout).toContain('Streaming works.')
    expect(out.stdout).toContain('Constrained decoding: none sent.')
    expect(out.stdout).toContain(`Profile written to ${path}.`)
    const profile = JSON.parse(await readFile(path, 'utf8'))
    expect(profile).toEqual({ version: 1, baseURL: server.url, model: 'acme-reasoner-2', fields: [], messageFields: { reasoning_content: 'echo' }, toolChoice: 'required' })
    const requests = server.requests.length
    const client = createClient({ baseURL: server.url, model: 'acme-reasoner-2', profile, maxRetries: 0 })
    await client.invoke([{ role: 'user', content: 'go' }], { answer: { inputSchema: zod.object({ word: zod.string() }) } }, { toolChoiceName: 'answer' })
    expect(server.requests.length).toBe(requests + 1)
  })

  it('should say whether the endpoint constrains decoding (response_format in prompt mode), as JSON with --json', async () => {
    server.setScript((request) =>
      request.body.tools
        ? { status: 500, body: { error: { code: 500, message: 'tools param requires --jinja flag', type: 'server_error' } } }
        : answer(request, contentResponse('{"name": "answer", "arguments": {"word": "ready"}}')),
    )
    const { io, out } = makeIo()
    await runProbe(probe(server, 'qwen3-0.6b'), io)
    expect(out.stdout).toContain('Constrained decoding: response_format is taken.')
    const json = makeIo()
    await runProbe(probe(server, 'qwen3-0.6b', { json: true }), json.io)
    expect(JSON.parse(json.out.stdout).constrained).toBe('response_format')
  })

  it('should say what it concludes when the model spends max_tokens thinking, as JSON with --json', async () => {
    const thinking: ChatResponse = { ...contentResponse(''), choices: [{ index: 0, message: { role: 'assistant', content: '', reasoning_content: 'Hmm, let me think…' }, finish_reason: 'length' }] }
    server.setScript((request) => answer(request, thinking))
    const { io, out } = makeIo()
    expect(await runProbe(probe(server, 'acme-thinker', { json: true }), io)).toBe(0)
    const report = JSON.parse(out.stdout)
    expect(report.requests).toBe(3)
    expect(report.conclusions).toContain('The model spent its 256 max_tokens before writing a call: it reasons first. Give it a larger maxTokens; the request forms it was sent were still taken.')
    expect(report.conclusions).toContain('It returns reasoning in reasoning_content.')
  })

  it.each([
    ['Ollama', 400, { error: 'registry.ollama.ai/library/gemma3:4b does not support tools' }, 'does not support tools'],
    ['vLLM', 400, { object: 'error', message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set', type: 'BadRequestError', code: 400 }, '--enable-auto-tool-choice'],
  ])('should say that %s refused tools and prompt mode was learnt, never "nothing was learnt"', async (_name, status, body, words) => {
    server.setScript((request) => (request.body.tools ? { status, body } : answer(request, contentResponse('<tool_call>{"name": "answer", "arguments": {"word": "ready"}}</tool_call>'))))
    const { io, out } = makeIo()
    expect(await runProbe(probe(server, 'acme-1'), io)).toBe(0)
    expect(out.stdout).not.toContain('Nothing was refused')
    expect(out.stdout).toContain("Tools: refused natively (HTTP 400, bad_request); the tools described in the prompt were taken, so the profile says toolMode 'prompt'.")
    expect(out.stdout).toContain('"toolMode": "prompt"')
    // The refused request itself, under its step.
    expect(out.stdout).toMatch(new RegExp(`\\n  tool_choice: taken · [^\\n]*\\n    HTTP 400 bad_request: [^\\n]*${words.replace(/[-"]/g, '.')}[^\\n]*\\n    HTTP 200\\n`))
  })

  it('should say nothing was learnt only when every request was taken', async () => {
    server.setScript((request) => answer(request, toolCallResponse('answer', { word: 'ready' })))
    const { io, out } = makeIo()
    expect(await runProbe(probe(server, 'acme-1'), io)).toBe(0)
    expect(out.stdout).toContain('Nothing was refused, so nothing was learnt')
    expect(out.stdout).not.toContain('Tools: refused')
  })

  it('should fail with exit code 1 when the endpoint took no request', async () => {
    server.setScript([{ status: 404, body: { error: { message: 'No models loaded. Please load a model.' } } }])
    const { io, out } = makeIo()
    expect(await runProbe(probe(server, 'acme-1'), io)).toBe(1)
    expect(out.stdout).toContain('The first request failed (model_not_found)')
    expect(out.stdout).toContain('No request was taken (HTTP 404), so nothing was learnt: the profile below is empty.')
  })

  it('should say that nothing answered at an address where no server listens', async () => {
    const closed = await startScriptedServer({ script: [] })
    await closed.close()
    const { io, out } = makeIo()
    expect(await runProbe({ ...probe(server, 'acme-1'), baseURL: closed.url }, io)).toBe(1)
    expect(out.stdout).toContain('Nothing answered, so nothing was learnt: the profile below is empty.')
    expect(out.stdout).toContain('    no response network_error: ')
    expect(out.stdout).not.toContain('Nothing was refused')
  })
})


