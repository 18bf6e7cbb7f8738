import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))

// npm 11.16+ ends `npm install` / `npm ci` with an "install scripts not yet covered by allowScripts"
// warning for every dependency with an install script the root package.json has not reviewed. A
// fresh clone must install quietly: each such package is listed in `allowScripts`.
describe('allowScripts in package.json', () => {
  it('should cover every locked package that has an install script', async () => {
    const lock = JSON.parse(await readFile(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean; version?: string; link?: boolean }> }
    const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> }
    const withScripts = Object.entries(lock.packages)
      .filter(([path, entry]) => path.includes('node_modules/') && entry.hasInstallScript && !entry.link)
      .map(([path, entry]) => ({ name: path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length), version: entry.version }))
    expect(withScripts.length).toBeGreaterThan(0)
    const allowed = manifest.allowScripts ?? {}
    const uncovered = withScripts.filter(({ name, version }) => allowed[name] === undefined && allowed[`${name}@${version}`] === undefined)
    expect(uncovered, 'add these to "allowScripts" in package.json (npm install-scripts approve NAME) after reviewing their scripts').toEqual([])
  })
})
