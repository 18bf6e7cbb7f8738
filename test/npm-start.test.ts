import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// `npm start` is a newcomer's first command: the build may run first, but the demo must be what it
// shows, not pages of build logs (turbo prints a failing task's log, and only then).
const root = fileURLToPath(new URL('..', import.meta.url))

function npmStart(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string | undefined> = { ...process.env }
    // The scripted demo, not a developer's own endpoint.
    for (const name of ['WILDCALL_BASE_URL', 'WILDCALL_MODEL', 'WILDCALL_API_KEY']) delete env[name]
    const child = spawn('sh', ['-c', 'npm start 2>&1'], { cwd: root, env })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, output }))
  })
}

describe('npm start', () => {
  // A cold build takes minutes on a loaded machine; a warm one (turbo's cache) a second.
  it('should show the demo within its first 20 lines of output', { timeout: 600_000 }, async () => {
    const { code, output } = await npmStart()
    expect(code).toBe(0)
    const lines = output.split('\n')
    const first = lines.findIndex((line) => line.includes('wildcall agent-loop demo'))
    expect(first, output.slice(0, 2_000)).toBeGreaterThanOrEqual(0)
    expect(first).toBeLessThan(20)
    expect(output).toContain('a SCRIPTED local server started by this demo')
  })
})
