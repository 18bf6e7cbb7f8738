#!/usr/bin/env node
import { readFileSync } from 'node:fs'
import { text } from 'node:stream/consumers'
import { runCli } from './run-cli'

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }

process.exitCode = await runCli(
  process.argv.slice(2),
  {
    stdout: (chunk) => process.stdout.write(chunk),
    stderr: (chunk) => process.stderr.write(chunk),
    readStdin: () => text(process.stdin),
    env: process.env,
  },
  version,
)
