import { expect } from 'vitest'
import { isInvokeError } from '../../errors/invoke-error'

/** Runs `run`, expects it to throw a `config_error`, and returns the error's message. */
export function configError(run: () => unknown): string {
  try {
    run()
  } catch (error) {
    expect(isInvokeError(error) && error.type).toBe('config_error')
    return (error as Error).message
  }
  throw new Error('expected a config_error')
}
