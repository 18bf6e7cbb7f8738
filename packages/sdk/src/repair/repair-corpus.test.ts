import { readdirSync, readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient, createMacroTool, isInvokeError, repairToolCall } from '../index'
import { classifyFinish } from '../errors/classify-finish'
import { startScriptedServer, type ScriptedServer } from '../testing'
import { validateSchema } from '../tool/schema'
import type { ChatResponse } from '../types'
import type { ToolSet } from '../tool/types'
import { createBrowserTools } from './__fixtures__/browser-tools'

interface CorpusEntry {
  id: string
  response: ChatResponse
  expect: { action: string; args: Record<string, unknown> } | { error: string }
  /** Fix codes the repair must report (a subset of what it reports). */
  fixes?: string[]
  /** Request options of the step (`max_tokens` for the usage-based truncation check). */
  request?: { max_tokens?: number }
}

const directory = new URL('./__fixtures__/', import.meta.url)
const sections = readdirSync(directory)
  .filter((file) => /^[a-f]-.*\.json$/.test(file))
  .sort()
  .map((file) => ({ file, entries: JSON.parse(readFileSync(new URL(file, directory), 'utf8')) as CorpusEntry[] }))
const all = sections.flatMap(({ entries }) => entries)

const tools = createBrowserTools()
const AgentOutput = createMacroTool(tools)

/** What the model meant, after the action's own defaults: the expectation is the model's intent, not our output. */
function intended(expectation: { action: string; args: Record<string, unknown> }) {
  const checked = validateSchema((tools as ToolSet)[expectation.action]!.inputSchema, expectation.args)
  if (!checked.success) throw new Error(`fixture expectation does not validate: ${JSON.stringify(expectation)}`)
  return { [expectation.action]: checked.data }
}

describe('repair corpus', () => {
  it('should hold at least 150 whole responses across sections A–F with unique ids', () => {
    expect(all.length).toBeGreaterThanOrEqual(150)
    expect(sections.map(({ file }) => file[0])).toEqual(['a', 'b', 'c', 'd', 'e', 'f'])
    expect(new Set(all.map((entry) => entry.id)).size).toBe(all.length)
    for (const entry of all) expect(Array.isArray(entry.response.choices), entry.id).toBe(true)
  })

  for (const { file, entries } of sections) {
    describe(`repairToolCall: ${file}`, () => {
      // Responses the finish classifier stops never reach the repair; the end-to-end run covers them.
      const reachable = entries.filter((entry) => classifyFinish(entry.response.choices[0]!.finish_reason) === 'ok' && entry.request?.max_tokens === undefined)
      it.each(reachable.map((entry) => [entry.id, entry] as const))('%s', (_id, entry) => {
        const before = Object.getOwnPropertyNames(Object.prototype).length
        const message = entry.response.choices[0]!.message
        let outcome: ReturnType<typeof repairToolCall> | undefined
        let failure: unknown
        try {
          outcome = repairToolCall(message, { AgentOutput }, { toolChoiceName: 'AgentOutput' })
        } catch (error) {
          failure = error
        }
        expect(Object.getOwnPropertyNames(Object.prototype).length).toBe(before)
        expect(({} as Record<string, unknown>).polluted).toBeUndefined()
        if ('error' in entry.expect) {
          expect(isInvokeError(failure), String(failure)).toBe(true)
          expect((failure as { type: string }).type, String(failure)).toBe(entry.expect.error)
          return
        }
        expect(failure, String(failure)).toBeUndefined()
        expect(outcome!.toolCall.name).toBe('AgentOutput')
        expect((outcome!.toolCall.args as { action: unknown }).action).toEqual(intended(entry.expect))
        for (const code of entry.fixes ?? []) expect(outcome!.fixes).toContain(code)
        const dropped = outcome!.fixes.find((code) => code.startsWith('dropped-calls:'))
        expect(dropped ? Number(dropped.split(':')[1]) : 0).toBe(outcome!.dropped.length)
      })
    })
  }

  describe('end to end through createClient and a scripted server', () => {
    let server: ScriptedServer
    const byId = new Map(all.map((entry) => [entry.id, entry]))
    beforeAll(async () => {
      server = await startScriptedServer({
        script: (request) => {
          const id = String(request.body.messages?.at(-1)?.content ?? '')
          return { body: byId.get(id)?.response ?? { error: { message: `no fixture ${id}` } } }
        },
      })
    })
    afterAll(() => server.close())

    it('should turn every corpus response into its action (executed) or its error type', async () => {
      const mismatches: string[] = []
      for (const entry of all) {
        const client = createClient({ baseURL: server.url, model: entry.response.model ?? 'gpt-4.1-mini', maxRetries: 0 })
        const options = { toolChoiceName: 'AgentOutput' as const, ...(entry.request?.max_tokens ? { maxTokens: entry.request.max_tokens } : {}) }
        try {
          const result = await client.invoke([{ role: 'user', content: entry.id }], { AgentOutput }, options)
          if ('error' in entry.expect) {
            mismatches.push(`${entry.id}: expected ${entry.expect.error}, got action ${JSON.stringify(result.toolCall.args)}`)
            continue
          }
          const action = (result.toolCall.args as { action: Record<string, unknown> }).action
          const expected = intended(entry.expect)
          const output = await (tools as ToolSet)[entry.expect.action]!.execute!(expected[entry.expect.action], { emit: () => {} })
          if (JSON.stringify(action) !== JSON.stringify(expected) || JSON.stringify((result.toolResult as { output: unknown }).output) !== JSON.stringify(output)) {
            mismatches.push(`${entry.id}: got ${JSON.stringify(action)}`)
          }
        } catch (error) {
          const type = isInvokeError(error) ? error.type : `raw ${String(error)}`
          if (!('error' in entry.expect) || entry.expect.error !== type) mismatches.push(`${entry.id}: threw ${type}: ${String(error).slice(0, 160)}`)
        }
      }
      expect(mismatches).toEqual([])
    })
  })
})
