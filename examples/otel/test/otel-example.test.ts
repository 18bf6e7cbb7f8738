import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// What `npm start` runs in examples/otel: a plain Node script importing the built packages.
const MAIN = fileURLToPath(new URL('../src/main.js', import.meta.url))

function runExample(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env }
    for (const name of ['WILDCALL_BASE_URL', 'WILDCALL_MODEL', 'WILDCALL_API_KEY', 'OTEL_SEMCONV_STABILITY_OPT_IN']) delete env[name]
    const child = spawn(process.execPath, [MAIN], { env })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

describe('examples/otel (npm start)', { timeout: 60_000 }, () => {
  it('should print the steps and their spans and metrics with the console exporters', async () => {
    const { code, stdout, stderr } = await runExample()
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(stdout).toContain('a SCRIPTED local server (NOT a model)')
    expect(stdout).toContain('step 1: search → ["kettle (blue)","kettle (steel)"] (attempts 2, fixes none)')
    expect(stdout).toMatch(/step 2: done → "The blue kettle and the steel one\." \(attempts 1, fixes content-json, .*reader:json/)
    const names = [...stdout.matchAll(/^\s*name: '([^']+)'/gm)].map((match) => match[1])
    expect(names.filter((name) => name === 'chat scripted-demo')).toHaveLength(3)
    expect(names.filter((name) => name === 'wildcall.step')).toHaveLength(2)
    for (const name of ['execute_tool AgentOutput', 'execute_tool search', 'execute_tool done']) expect(names).toContain(name)
    for (const attribute of ["'gen_ai.provider.name': 'openai_compatible'", "'error.type': 'server_error'", "'gen_ai.usage.input_tokens': 310", "name: 'wildcall.retry'", "name: 'wildcall.repair'"]) expect(stdout).toContain(attribute)
    for (const metric of ['gen_ai.client.inference.duration', 'gen_ai.client.inference.usage.input_tokens']) expect(stdout).toContain(metric)
    // Content only with captureContent: true.
    expect(stdout).not.toContain('gen_ai.input.messages')
    expect(stdout).not.toContain('Which kettles')
  })
})
