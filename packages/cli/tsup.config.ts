import { defineConfig } from 'tsup'

export default defineConfig({
  entry: { cli: 'src/cli.ts' },
  format: ['esm'],
  // A command, not a library: no declarations; the shebang of src/cli.ts is kept and the file made executable.
  dts: false,
  clean: true,
  target: 'node20',
  platform: 'node',
  // The adapters are bundled (devDependencies): `npm install @wildcall/cli` fetches the SDK and zod,
  // not ten adapter packages, and doctor still knows every family. One SDK stays external, so the
  // bundled adapters and a user's --adapter module share its registry and error class.
  external: [/^@wildcall\/sdk(\/|$)/, 'zod'],
})
