import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))

/** The source files an entry's browser bundle is made of, as esbuild's metafile lists them. */
async function bundledFiles(entry: string): Promise<string[]> {
  const result = await build({ entryPoints: [entry], absWorkingDir: root, bundle: true, format: 'esm', platform: 'browser', write: false, metafile: true, logLevel: 'silent', external: ['zod', 'zod/*'] })
  return Object.keys(result.metafile.inputs)
}

// Issue 14: in @wildcall/sdk/core zod 3 conversion is paid only by the users of zod 3 schemas, through
// the opt-in import; @wildcall/sdk (zero configuration) reads bare zod 3 schemas, so it carries it.
describe('@wildcall/sdk/zod3', () => {
  it('should keep the zod 3 converter out of the core entry', async () => {
    const files = await bundledFiles('packages/sdk/src/core.ts')
    expect(files).toContain('packages/sdk/src/tool/schema.ts')
    expect(files.filter((file) => file.includes('zod3'))).toEqual([])
  })

  it('should bring the converter with the root entry, which reads bare zod 3 schemas', async () => {
    expect(await bundledFiles('packages/sdk/src/index.ts')).toContain('packages/sdk/src/tool/zod3-to-json-schema.ts')
  })

  it('should bring the converter with the zod3 entry', async () => {
    expect(await bundledFiles('packages/sdk/src/zod3.ts')).toContain('packages/sdk/src/tool/zod3-to-json-schema.ts')
  })
})
