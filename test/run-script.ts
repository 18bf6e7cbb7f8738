import { spawn } from 'node:child_process'

// Unset unless a test gives them: a developer's own endpoint must not leak into an example's run.
const ENDPOINT_VARIABLES = ['WILDCALL_BASE_URL', 'WILDCALL_MODEL', 'WILDCALL_API_KEY']

/**
 * Runs a Node script as `npm start` would, with this process's environment less the endpoint
 * variables, plus `env` (a variable given as `undefined` is unset), and resolves with its exit code
 * and output.
 */
export function runScript(path: string, env: Record<string, string | undefined> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const childEnv: Record<string, string | undefined> = { ...process.env }
    for (const name of ENDPOINT_VARIABLES) delete childEnv[name]
    for (const [name, value] of Object.entries(env)) {
      if (value === undefined) delete childEnv[name]
      else childEnv[name] = value
    }
    const child = spawn(process.execPath, [path], { env: childEnv })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}
