import { defineConfig } from 'tsup'

const shared = {
  dts: true,
  target: 'es2022',
  platform: 'neutral',
  external: ['zod', 'vitest', /^node:/],
} as const

export default defineConfig([
  // ESM: all entry points in one build, so they share chunks (one InvokeError class, one registry).
  {
    ...shared,
    format: ['esm'],
    entry: {
      index: 'src/index.ts',
      core: 'src/core.ts',
      readers: 'src/readers.ts',
      streaming: 'src/streaming.ts',
      internal: 'src/internal.ts',
      'json-schema': 'src/json-schema.ts',
      zod3: 'src/zod3.ts',
      'testing/index': 'src/testing/index.ts',
      'testing/vitest': 'src/testing/vitest.ts',
    },
  },
  // CJS: the scripted server and fixtures load with require too. The vitest kit is ESM only: vitest
  // cannot be required from CommonJS.
  { ...shared, format: ['cjs'], splitting: true, entry: { index: 'src/index.ts', core: 'src/core.ts', readers: 'src/readers.ts', streaming: 'src/streaming.ts', internal: 'src/internal.ts', 'json-schema': 'src/json-schema.ts', zod3: 'src/zod3.ts', 'testing/index': 'src/testing/index.ts' } },
])
