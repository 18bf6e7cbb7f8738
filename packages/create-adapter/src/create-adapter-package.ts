import { existsSync, readdirSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { adapterFiles, SDK_RANGE } from './templates'

export const CREATE_HELP = `Usage: npm create @wildcall/adapter NAME [-- options]
       create-adapter NAME [options]

Scaffolds a wildcall adapter package: exports (ESM + CJS + types), @wildcall/sdk as a peer, strict
TypeScript, tsup and vitest configs, starter tests (the conformance kit, a request case on a foreign
host, an echo case, a reader round trip with --reader), a README and changesets.

NAME is the family (acme → wildcall-adapter-acme) or the full package name
(wildcall-adapter-acme, @you/wildcall-adapter-acme).

Options:
  --reader        the family writes its calls in its own markup: add a reader and its kit test
  --dir PATH      the folder to create (default: the package name without its scope)
  --sdk SPEC      what the dev dependency on @wildcall/sdk installs (default ${SDK_RANGE}; a packed
                  tarball's path before the SDK is published)
  -h, --help      show this help
`

/** Where the package was created and what was written (no files: help was asked for). */
export interface CreatedPackage {
  packageName: string
  folder: string
  files: string[]
}

const PREFIX = 'wildcall-adapter-'
const FAMILY = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/

/** The package name and family of NAME: a family, or a package named by the naming rule. */
function namesOf(name: string): { packageName: string; family: string } {
  const scoped = /^(@[a-z0-9][\w.-]*\/)?(.+)$/.exec(name)!
  const scope = scoped[1] ?? ''
  const bare = scoped[2]!
  const family = bare.startsWith(PREFIX) ? bare.slice(PREFIX.length) : bare
  if (!FAMILY.test(family) || (scope !== '' && !bare.startsWith(PREFIX))) {
    throw new Error(`create-adapter: "${name}" is not a family name or an adapter package name. Give the family in lower-case kebab (acme, acme-cloud), or a package named wildcall-adapter-<family> (optionally scoped: @you/wildcall-adapter-<family>).`)
  }
  return { packageName: `${scope}${PREFIX}${family}`, family }
}

/** Writes a new adapter package for the command line `args`, relative to `cwd`. */
export async function createAdapterPackage(args: string[], cwd: string): Promise<CreatedPackage> {
  let parsed: ReturnType<typeof parse>
  try {
    parsed = parse(args)
  } catch (error) {
    throw new Error(`create-adapter: ${error instanceof Error ? error.message : String(error)}. See create-adapter --help.`)
  }
  const { values, positionals } = parsed
  if (values.help) return { packageName: '', folder: '', files: [] }
  if (positionals.length !== 1) throw new Error('create-adapter: give one NAME, e.g. npm create @wildcall/adapter acme')
  const { packageName, family } = namesOf(positionals[0]!)
  const folder = resolve(cwd, values.dir ?? packageName.replace(/^@[^/]+\//, ''))
  if (existsSync(folder) && readdirSync(folder).length > 0) throw new Error(`create-adapter: ${folder} exists and is not empty. Choose another --dir.`)
  const files = adapterFiles({ packageName, family, reader: values.reader === true, sdkRange: SDK_RANGE, sdkSpec: sdkSpec(values.sdk, cwd) })
  for (const [path, content] of Object.entries(files)) {
    const target = join(folder, path)
    await mkdir(dirname(target), { recursive: true })
    await writeFile(target, content)
  }
  return { packageName, folder: relative(cwd, folder) || '.', files: Object.keys(files) }
}

/** A tarball path becomes a `file:` spec npm installs from wherever the package is. */
function sdkSpec(given: string | undefined, cwd: string): string {
  if (given === undefined) return SDK_RANGE
  return /\.tgz$/.test(given) && !given.startsWith('file:') ? `file:${resolve(cwd, given)}` : given
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: {
      reader: { type: 'boolean' },
      dir: { type: 'string' },
      sdk: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  })
}
