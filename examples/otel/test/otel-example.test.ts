import { fileURLToPath } from 'node:url'
import { runScript } from '../../../test/run-script'
import { describe, expect, it } from 'vitest'

// What `npm start` runs in examples/otel: a plain Node script importing the built packages.
const MAIN = fileURLToPath(new URL('../src/main.js', import.meta.url))

const runExample = () => runScript(MAIN, { env: { OTEL_SEMCONV_STABILITY_OPT_IN: undefined } })

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
