import { fileURLToPath } from 'node:url'
import { runScript } from '../../../test/run-script'
import { checkHistory, startScriptedServer, toolCallResponse, type ScriptedServer } from '@wildcall/sdk/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// What `npm start` runs (after the build): a plain Node script importing the built packages.
const MAIN = fileURLToPath(new URL('../src/main.js', import.meta.url))

const runDemo = (env: Record<string, string> = {}) => runScript(MAIN, { env })

describe('examples/agent-loop (npm start)', { timeout: 60_000 }, () => {
  it('should run the loop against its scripted server, say so, and print each step, the fixes and a summary', async () => {
    const { code, stdout, stderr } = await runDemo()
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(stdout).toContain('a SCRIPTED local server started by this demo')
    expect(stdout).toContain('It is NOT a model')
    expect(stdout).toMatch(/Endpoint: http:\/\/127\.0\.0\.1:\d+\/v1/)

    const steps = stdout.split(/\n(?=Step \d+ — )/).slice(1)
    expect(steps).toHaveLength(4)
    expect(steps[0]).toContain('next_goal: Type "trail shoes" into the search box [1].')
    expect(steps[0]).toContain('action: input_text {"index":1,"text":"trail shoes"}')
    expect(steps[0]).toMatch(/fixes: \S+/)
    expect(steps[0]).not.toContain('fixes: none')
    expect(steps[1]).toContain('action: click_element_by_index {"index":2}')
    expect(steps[1]).toContain('result: searched for "trail shoes": 2 results')
    expect(steps[1]).toMatch(/fixes: .*double-encoded-arguments/)
    expect(steps[2]).toMatch(/retry: attempt 1\/3 failed with server_error \(HTTP 503\)/)
    expect(steps[2]).toContain('result: opened Trail Runner 2')
    expect(steps[2]).toContain('fixes: none')
    expect(steps[3]).toContain('action: done')

    expect(stdout).toContain('steps: 4, finished: yes (success)')
    expect(stdout).toContain('answer: The first result for "trail shoes" is Trail Runner 2 at $89, in stock.')
    expect(stdout).toMatch(/fixes applied: [3-9] \(/)
    expect(stdout).toContain('retries: 1, failed steps: 0')
    expect(stdout).toContain('tokens: 2121 prompt, 357 completion')
  })

  describe('with WILDCALL_BASE_URL set', () => {
    let endpoint: ScriptedServer
    const step = (action: Record<string, unknown>) => ({ body: toolCallResponse('AgentOutput', { next_goal: 'next', action }) })

    beforeAll(async () => {
      // Plays the part of a real endpoint: the demo must not start its own server.
      endpoint = await startScriptedServer({
        script: [
          step({ input_text: { index: 1, text: 'trail shoes' } }),
          step({ click_element_by_index: { index: 2 } }),
          step({ done: { text: 'Trail Runner 2, $89', success: true } }),
        ],
      })
    })
    afterAll(() => endpoint?.close())

    it('should drive that endpoint with the given model and key, and every adapter', async () => {
      const { code, stdout } = await runDemo({ WILDCALL_BASE_URL: endpoint.url, WILDCALL_MODEL: 'qwen3-max', WILDCALL_API_KEY: 'sk-demo-key' })
      expect(code).toBe(0)
      expect(stdout).toContain(`Endpoint: ${endpoint.url} (model qwen3-max) — a real endpoint`)
      expect(stdout).not.toContain('SCRIPTED')
      expect(stdout).toContain('Adapters for this client: qwen\n')
      expect(stdout).toContain('steps: 3, finished: yes (success)')
      expect(stdout).toContain('(replies came from qwen3-max)')
      expect(endpoint.requests).toHaveLength(3)
      expect(endpoint.requests[0]!.headers.authorization).toBe('Bearer sk-demo-key')
      expect(endpoint.requests[0]!.body.model).toBe('qwen3-max')
      expect(endpoint.requests[0]!.body.enable_thinking).toBe(false)
      // The loop feeds the history back: the third request holds both earlier calls and their results.
      const third = endpoint.requests[2]!.body.messages
      expect(checkHistory(third)).toEqual([])
      expect(third.filter((message) => message.role === 'tool').map((message) => message.content)).toEqual(['typed "trail shoes" into [1] Search products', 'searched for "trail shoes": 2 results'])
    })

    it('should exit 2 when the base URL is set without a model', async () => {
      const { code, stderr } = await runDemo({ WILDCALL_BASE_URL: endpoint.url })
      expect(code).toBe(2)
      expect(stderr).toContain('WILDCALL_MODEL is not')
    })
  })
})
