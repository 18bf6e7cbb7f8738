import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { isInvokeError, type Adapter } from '@wildcall/sdk'
import { UsageError } from './cli-io'

function isAdapterLike(value: unknown): value is Adapter {
  return typeof value === 'object' && value !== null && typeof (value as Adapter).name === 'string' && 'match' in value
}

/**
 * The adapters of the modules given with `--adapter PATH`: each export that is an adapter, and each
 * factory named `…Adapter` (or the default export) called without options (`export function acmeAdapter()`). A module
 * that cannot be loaded or exports no adapter is a usage error.
 */
export async function loadAdapterModules(paths: readonly string[], command: string): Promise<Adapter[]> {
  const adapters: Adapter[] = []
  for (const path of paths) {
    let exports: Record<string, unknown>
    try {
      exports = (await import(pathToFileURL(resolve(path)).href)) as Record<string, unknown>
    } catch (error) {
      const detail = error instanceof Error ? error.message.split('\n')[0] : String(error)
      throw new UsageError(`${command}: --adapter ${path} could not be loaded: ${detail}. Give the built JavaScript module (e.g. dist/index.js), not TypeScript source.`)
    }
    const found: Adapter[] = []
    for (const [name, value] of Object.entries(exports)) {
      if (isAdapterLike(value)) found.push(value)
      else if (typeof value === 'function' && (name === 'default' || /adapter$/i.test(name))) {
        let made: unknown
        try {
          made = (value as () => unknown)()
        } catch (error) {
          if (isInvokeError(error)) throw new UsageError(`${command}: --adapter ${path}: ${name}() threw: ${error.message}`)
          continue
        }
        if (isAdapterLike(made)) found.push(made)
      }
    }
    if (found.length === 0) throw new UsageError(`${command}: --adapter ${path} exports no adapter. Export an adapter factory, e.g. export function acmeAdapter() { return defineAdapter({ … }) }.`)
    adapters.push(...found.filter((adapter, index) => found.findIndex((other) => other.name === adapter.name) === index))
  }
  return adapters
}
