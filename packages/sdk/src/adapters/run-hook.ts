import { errorMessage, InvokeError, isInvokeError } from '../errors/invoke-error'
import type { Adapter } from './types'

/** Runs an adapter hook; anything it throws becomes a `config_error` naming the adapter and hook. */
export function runHook<T>(adapter: Adapter, hook: string, run: () => T): T {
  try {
    return run()
  } catch (cause) {
    if (isInvokeError(cause)) throw cause
    throw new InvokeError('config_error', `[${adapter.name}] adapter hook ${hook} threw: ${errorMessage(cause)}. Fix or remove the adapter.`, { cause })
  }
}
