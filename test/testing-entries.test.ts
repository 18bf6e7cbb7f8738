import { readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))
const manifest = JSON.parse(readFileSync(`${root}packages/sdk/package.json`, 'utf8')) as { dependencies: Record<string, string> }

/** The bare packages a built entry imports, followed through every chunk it loads (esbuild's metafile). */
async function packagesImported(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: root,
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    metafile: true,
    logLevel: 'silent',
    // Every bare import stays external, so it shows as an import of the output instead of being bundled.
    packages: 'external',
  })
  const imports = Object.values(result.metafile.outputs).flatMap((output) => output.imports.filter((item) => item.external).map((item) => item.path))
  return [...new Set(imports)].sort()
}

// Issue 33: an adapter author installs @wildcall/sdk and vitest, nothing else. The conformance kit's
// fixture tools are plain JSON Schema, so neither testing entry reaches zod (an optional peer).
describe('@wildcall/sdk/testing entries (built)', () => {
  it.each(['packages/sdk/dist/testing/index.js', 'packages/sdk/dist/testing/index.cjs', 'packages/sdk/dist/testing/vitest.js'])('should import no zod from %s or the chunks it loads', async (entry) => {
    const imported = await packagesImported(entry)
    expect(imported.filter((name) => name === 'zod' || name.startsWith('zod/'))).toEqual([])
    // What it does import is what installing the SDK brings (its dependencies), vitest, or Node's own.
    const allowed = new Set([...Object.keys(manifest.dependencies), 'vitest', ...builtinModules])
    expect(imported.filter((name) => !name.startsWith('node:') && !allowed.has(name.split('/')[0]!.startsWith('@') ? name.split('/').slice(0, 2).join('/') : name.split('/')[0]!))).toEqual([])
  })
})
