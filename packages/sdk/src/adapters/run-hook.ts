import { errorMessage, InvokeError, isInvokeError } from '../errors/invoke-error'
import type { Adapter } from './types'

/**
 * Calls `adapter[name]` as `hook(value, context)` (no closure made per call: hooks run on every step);
 * anything it throws becomes a `config_error` naming the adapter and hook.
 */
export function runHook<V, C, T>(adapter: Adapter, name: string, hook: (this: Adapter, value: V, context: C) => T, value: V, context: C): T {
  try {
    return hook.call(adapter, value, context)
  } catch (cause) {
    if (isInvokeError(cause)) throw cause
    throw new InvokeError('config_error', `[${adapter.name}] adapter hook ${name} threw: ${errorMessage(cause)}. Fix or remove the adapter.`, { cause })
  }
}
