import { isInvokeError, type InvokeError } from '../../index'

/** The InvokeError that `run` throws; anything else (or nothing thrown) fails the test. */
export function failure(run: () => unknown): InvokeError {
  try {
    run()
  } catch (error) {
    if (!isInvokeError(error)) throw new Error(`not an InvokeError: ${String(error)}`)
    return error
  }
  throw new Error('expected an InvokeError')
}
