/** Where a command reads and writes: the real process in `cli.ts`, strings in tests. */
export interface CliIo {
  /** Results: human-readable text, or JSON with `--json`. */
  stdout: (text: string) => void
  /** Progress and diagnostics: never mixed into results, so `--json` output stays parseable. */
  stderr: (text: string) => void
  /** Reads all of standard input (for `repair -`). */
  readStdin: () => Promise<string>
  env: Record<string, string | undefined>
}

/** A mistake in how the command was called: printed with a pointer to `--help`, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError'
}
