import { spawn } from 'node:child_process'

// Unset unless a test gives them: a developer's own endpoint must not leak into a script's run.
const ENDPOINT_VARIABLES = ['WILDCALL_BASE_URL', 'WILDCALL_MODEL', 'WILDCALL_API_KEY']

/** What {@link runScript} passes to the script. */
export interface RunScriptOptions {
  /** Its command-line arguments. */
  args?: string[]
  /** Added to this process's environment less the endpoint variables; a variable given as `undefined` is unset. */
  env?: Record<string, string | undefined>
  /** Written to its standard input, which is then closed (closed at once without it). */
  stdin?: string
  /** The folder it runs in. Default: this process's. */
  cwd?: string
}

/**
 * Runs a Node script (an example as `npm start` would, or the built CLI) asynchronously — a server
 * the test runs in this process keeps answering — and resolves with its exit code and output.
 */
export function runScript(path: string, options: RunScriptOptions = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const childEnv: Record<string, string | undefined> = { ...process.env }
    for (const name of ENDPOINT_VARIABLES) delete childEnv[name]
    for (const [name, value] of Object.entries(options.env ?? {})) {
      if (value === undefined) delete childEnv[name]
      else childEnv[name] = value
    }
    const child = spawn(process.execPath, [path, ...(options.args ?? [])], { env: childEnv, ...(options.cwd ? { cwd: options.cwd } : {}) })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
    child.stdin.end(options.stdin ?? '')
  })
}
