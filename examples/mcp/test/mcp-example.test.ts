import { fileURLToPath } from 'node:url'
import { runScript } from '../../../test/run-script'
import { describe, expect, it } from 'vitest'

// What `npm start` runs in examples/mcp: a plain Node script importing the built packages, which
// starts the notes MCP server over stdio and the scripted "model" on 127.0.0.1.
const MAIN = fileURLToPath(new URL('../src/main.js', import.meta.url))

const runExample = () => runScript(MAIN)

describe('examples/mcp (npm start)', { timeout: 60_000 }, () => {
  it('should drive the MCP server tools through the macro tool: save, find (structured), a refused delete, done', async () => {
    const { code, stdout, stderr } = await runExample()
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(stdout).toContain('a SCRIPTED local server (NOT a model)')
    const steps = stdout.split('\n').filter((line) => line.startsWith('step '))
    expect(steps).toEqual([
      'step 1: add_note({"title":"Planning meeting","body":"Ship the MCP bridge on Friday.","tags":["work","mcp"]}) → "Saved note 1: \\"Planning meeting\\""',
      // The server found the note saved by step 1: the tools ran on the real server, in order.
      'step 2: search_notes({"query":"mcp","limit":3}) → {"matches":[{"id":1,"title":"Planning meeting"}]}  fixes: tool-markup:hermes, reader:hermes, unwrapped-envelope, coerced:integer',
      expect.stringMatching(/^step 3: the tool failed: .*There is no note 42\.$/),
      'step 4: done({"text":"Saved \\"Planning meeting\\" and found it by its tag."}) → "Saved \\"Planning meeting\\" and found it by its tag."  fixes: flattened-action',
    ])
    expect(stdout).toContain('answer: Saved "Planning meeting" and found it by its tag.')
  })
})
