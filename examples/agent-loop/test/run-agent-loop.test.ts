import { createClient } from '@wildcall/sdk'
import { checkHistory, startScriptedServer, type ScriptedServer } from '@wildcall/sdk/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { createSimulatedPage } from '../src/create-simulated-page.js'
import { runAgentLoop } from '../src/run-agent-loop.js'
import { createScript, scriptedFamilyAdapter } from '../src/scripted-model.js'

let server: ScriptedServer | undefined
afterEach(() => server?.close())

describe('runAgentLoop', () => {
  it('should send a well-formed history on every step, echoing the reasoning the scripted family needs', async () => {
    server = await startScriptedServer({ script: createScript() })
    const client = createClient({ baseURL: server.url, model: 'scripted-demo', adapters: [scriptedFamilyAdapter], retry: { limit: 2, baseDelayMs: 1 } })
    const summary = await runAgentLoop({ client, page: createSimulatedPage(), task: 'Find trail shoes.', log: () => {} })
    expect(summary.done).toBe(true)
    expect(server.requests).toHaveLength(5)
    for (const request of server.requests) expect(checkHistory(request.body.messages)).toEqual([])
    const last = server.requests[4]!.body.messages
    const turns = last.filter((message) => message.role === 'assistant')
    expect(turns).toHaveLength(3)
    // Reply 1 was Hermes markup in content: its call got an id, answered by the tool message after it.
    expect(typeof turns[0]!.tool_calls![0]!.id).toBe('string')
    expect(turns[2]!.reasoning_content).toBe('Two results; the first is the cheaper one, open it to check stock.')
    expect(summary.messages.at(-1)).toMatchObject({ role: 'tool', content: expect.stringContaining('finished (success)') })
  })

  it('should be refused by the scripted server when the history does not echo the reasoning', async () => {
    server = await startScriptedServer({ script: createScript() })
    // Without the family's adapter nothing declares reasoning_content, so the fourth step's history lacks it.
    const client = createClient({ baseURL: server.url, model: 'scripted-demo', retry: { limit: 2, baseDelayMs: 1 } })
    const lines: string[] = []
    const summary = await runAgentLoop({ client, page: createSimulatedPage(), task: 'Find trail shoes.', log: (...text: string[]) => lines.push(...text) })
    expect(summary.done).toBe(false)
    expect(lines.join('\n')).toMatch(/bad_request .*does not echo its reasoning_content/)
  })
})
