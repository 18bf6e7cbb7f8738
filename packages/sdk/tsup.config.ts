import { defineConfig } from 'tsup'

const shared = {
  dts: true,
  target: 'es2022',
  platform: 'neutral',
  external: ['zod', 'vitest', /^node:/],
} as const

export default defineConfig([
  // ESM: all entry points in one build, so they share chunks (one InvokeError class, one registry).
  { ...shared, format: ['esm'], entry: { index: 'src/index.ts', internal: 'src/internal.ts', 'json-schema': 'src/json-schema.ts', 'testing/index': 'src/testing/index.ts' } },
  // CJS: the testing kit imports vitest, which cannot be required from CommonJS, so it is ESM only.
  { ...shared, format: ['cjs'], entry: { index: 'src/index.ts', internal: 'src/internal.ts', 'json-schema': 'src/json-schema.ts' } },
])
