import { parseArgs, type ParseArgsConfig } from 'node:util'
import { UsageError } from './cli-io'

type Options = NonNullable<ParseArgsConfig['options']>

/** `parseArgs` in strict mode, with its TypeErrors turned into usage errors that name the command. */
export function parseCommandArguments<T extends Options>(command: string, args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true })
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error)
    throw new UsageError(`${command}: ${detail}`)
  }
}
