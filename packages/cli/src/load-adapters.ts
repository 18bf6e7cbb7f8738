import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { isAbsolute, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { isInvokeError, type Adapter } from '@wildcall/sdk'
import { UsageError } from './cli-io'

function isAdapterLike(value: unknown): value is Adapter {
  return typeof value === 'object' && value !== null && typeof (value as Adapter).name === 'string' && 'match' in value
}

/** A path (`./dist/index.js`, `/abs/file.mjs`, anything that exists) rather than a package name. */
function isPath(spec: string, cwd: string): boolean {
  return spec.startsWith('.') || isAbsolute(spec) || /^[a-z]:[\\/]/i.test(spec) || existsSync(resolve(cwd, spec))
}

/**
 * The file `--adapter SPEC` names: a path, or a package (and subpath) resolved from `cwd` as Node
 * resolves it for the project there (`node_modules`, the package's `exports`).
 */
function locate(spec: string, cwd: string, command: string): string {
  if (isPath(spec, cwd)) return resolve(cwd, spec)
  try {
    return createRequire(join(cwd, 'noop.js')).resolve(spec)
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('\n')[0] : String(error)
    throw new UsageError(`${command}: --adapter ${spec} is neither a file nor a package installed where wildcall runs (${detail}). Install it there (npm install --save-dev ${spec}), or give the built module's path (e.g. --adapter ./dist/index.js).`)
  }
}

/** The options `--adapter-options JSON` gives every adapter factory: a JSON object. */
export function parseAdapterOptions(text: string | undefined, command: string): Record<string, unknown> | undefined {
  if (text === undefined) return undefined
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new UsageError(`${command}: --adapter-options must be JSON (${error instanceof Error ? error.message : String(error)}), e.g. --adapter-options '{"reasoning":true}'`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(`${command}: --adapter-options must be a JSON object, the factory's options, e.g. --adapter-options '{"reasoning":true}'`)
  }
  return value as Record<string, unknown>
}

/**
 * The adapters of the modules given with `--adapter NAME|PATH`: each export that is an adapter, and
 * each factory named `…Adapter` (or the default export) called with `options` (`--adapter-options`),
 * or none. A module that cannot be loaded or exports no adapter is a usage error.
 */
export async function loadAdapterModules(specs: readonly string[], command: string, options?: Record<string, unknown>, cwd = process.cwd()): Promise<Adapter[]> {
  if (options !== undefined && specs.length === 0) throw new UsageError(`${command}: --adapter-options goes with --adapter, e.g. --adapter wildcall-adapter-acme --adapter-options '{"reasoning":true}'`)
  const adapters: Adapter[] = []
  for (const spec of specs) {
    const file = locate(spec, cwd, command)
    let exports: Record<string, unknown>
    try {
      exports = (await import(pathToFileURL(file).href)) as Record<string, unknown>
    } catch (error) {
      const detail = error instanceof Error ? error.message.split('\n')[0] : String(error)
      throw new UsageError(`${command}: --adapter ${spec} could not be loaded: ${detail}. Give the built JavaScript module (e.g. dist/index.js), not TypeScript source.`)
    }
    const found: Adapter[] = []
    for (const [name, value] of Object.entries(exports)) {
      if (isAdapterLike(value)) found.push(value)
      else if (typeof value === 'function' && (name === 'default' || /adapter$/i.test(name))) {
        let made: unknown
        try {
          made = options === undefined ? (value as () => unknown)() : (value as (options: unknown) => unknown)(options)
        } catch (error) {
          if (isInvokeError(error)) throw new UsageError(`${command}: --adapter ${spec}: ${name}() threw: ${error.message}`)
          continue
        }
        if (isAdapterLike(made)) found.push(made)
      }
    }
    if (found.length === 0) throw new UsageError(`${command}: --adapter ${spec} exports no adapter. Export an adapter factory, e.g. export function acmeAdapter() { return defineAdapter({ … }) }.`)
    adapters.push(...found.filter((adapter, index) => found.findIndex((other) => other.name === adapter.name) === index))
  }
  return adapters
}
