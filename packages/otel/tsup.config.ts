import { defineConfig } from 'tsup'

export default defineConfig({
  entry: ['src/index.ts', 'src/attributes.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  target: 'es2022',
  platform: 'neutral',
  external: ['@wildcall/sdk', '@opentelemetry/api'],
})
