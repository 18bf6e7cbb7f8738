// Runs every benchmark in this folder, one after another, in one process each.
// Figures are ratios measured side by side in one run: these machines are shared and noisy.
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const only = process.argv.slice(2)
const files = readdirSync(here)
  .filter((file) => file.endsWith('.mjs') && file !== 'run.mjs' && !file.startsWith('_'))
  .filter((file) => only.length === 0 || only.some((name) => file.includes(name)))
  .sort()
let failed = 0
for (const file of files) {
  console.log(`\n## ${file}`)
  const result = spawnSync(process.execPath, [join(here, file)], { stdio: 'inherit' })
  if (result.status !== 0) failed++
}
if (failed) {
  console.error(`\n${failed} benchmark(s) failed or went over budget`)
  process.exit(1)
}
