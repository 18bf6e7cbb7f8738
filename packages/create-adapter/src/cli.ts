#!/usr/bin/env node
import { createAdapterPackage, CREATE_HELP } from './create-adapter-package'

try {
  const { folder, files, packageName } = await createAdapterPackage(process.argv.slice(2), process.cwd())
  if (files.length > 0) {
    process.stdout.write(`Created ${packageName} in ${folder}:\n${files.map((file) => `  ${file}`).join('\n')}\n\nNext:\n  cd ${folder}\n  npm install\n  npm test\n`)
  } else {
    process.stdout.write(CREATE_HELP)
  }
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
  process.exitCode = 2
}
