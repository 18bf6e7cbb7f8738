import { defineConfig } from 'tsup'

export default defineConfig({
  entry: { cli: 'src/cli.ts' },
  format: ['esm'],
  // A command, not a library: no declarations; the shebang of src/cli.ts is kept and the file made executable.
  dts: false,
  clean: true,
  target: 'node20',
  platform: 'node',
})
