import { UsageError, type CliIo } from './cli-io'
import { runDoctor } from './run-doctor'
import { ExitCode } from './exit-code'
import { runRepair } from './run-repair'

export const MAIN_HELP = `Usage: wildcall <command> [options]

Commands:
  doctor    send one real macro-tool request to an endpoint and explain what happened
  repair    run the repair layer on a saved response and print the action and fix codes

Run "wildcall <command> --help" for a command's options.

Exit codes: 0 ok · 1 the model or endpoint fails (retrying will not help) · 2 usage error ·
3 transient failure (a retry may help) · 4 unreachable (doctor: nothing answered at the base URL).
`

const COMMANDS: Record<string, (args: string[], io: CliIo) => Promise<number>> = {
  doctor: runDoctor,
  repair: runRepair,
}

/**
 * Runs the `wildcall` command line and resolves with its exit code. Never throws: a usage mistake
 * is exit code 2, an unexpected failure exit code 1, each with a message on stderr.
 *
 * @example
 * ```ts
 * process.exitCode = await runCli(process.argv.slice(2), io)
 * ```
 */
export async function runCli(args: string[], io: CliIo, version = '0.0.0'): Promise<number> {
  const [command, ...rest] = args
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    const topic = command === 'help' ? rest[0] : undefined
    if (topic !== undefined && topic in COMMANDS) return runCli([topic, '--help'], io, version)
    io.stdout(MAIN_HELP)
    return command === undefined ? ExitCode.usage : ExitCode.ok
  }
  if (command === '--version' || command === '-v') {
    io.stdout(`${version}\n`)
    return ExitCode.ok
  }
  const run = Object.prototype.hasOwnProperty.call(COMMANDS, command) ? COMMANDS[command] : undefined
  if (!run) {
    io.stderr(`wildcall: unknown command "${command}". Commands: ${Object.keys(COMMANDS).join(', ')}. Try "wildcall --help".\n`)
    return ExitCode.usage
  }
  try {
    return await run(rest, io)
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`wildcall ${error.message}\nTry "wildcall ${command} --help".\n`)
      return ExitCode.usage
    }
    io.stderr(`wildcall ${command}: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    return ExitCode.failure
  }
}
