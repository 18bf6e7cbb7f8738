import { parseArgs, type ParseArgsConfig } from 'node:util'
import { UsageError } from './cli-io'

type Options = NonNullable<ParseArgsConfig['options']>

/** `parseArgs` in strict mode, with its TypeErrors turned into short usage errors that name the command. */
export function parseCommandArguments<T extends Options>(command: string, args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true })
  } catch (error) {
    throw new UsageError(`${command}: ${describeParseError(error, options)}`)
  }
}

// Node's own wording is written for script authors ("To specify a positional argument starting
// with a '-', place it after '--'"): say what is wrong and list what the command takes instead.
function describeParseError(error: unknown, options: Options): string {
  const { code, message } = error as { code?: string; message?: string }
  const known = Object.entries(options)
    .map(([name, option]) => `--${name}${option.short ? ` (-${option.short})` : ''}`)
    .join(', ')
  const option = /'([^']+)'/.exec(message ?? '')?.[1]?.split(/[ =]/)[0]
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) return `unknown option ${option}. Options: ${known}.`
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) {
    return /argument missing/.test(message ?? '') ? `${option} needs a value, e.g. ${option} VALUE.` : `${option} takes no value.`
  }
  return String(message ?? error)
}
