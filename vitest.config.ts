import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@wildcall\/sdk\/testing\/vitest$/, replacement: here('./packages/sdk/src/testing/vitest.ts') },
      { find: /^@wildcall\/sdk\/testing$/, replacement: here('./packages/sdk/src/testing/index.ts') },
      { find: /^@wildcall\/mcp$/, replacement: here('./packages/mcp/src/index.ts') },
      { find: /^@wildcall\/otel\/attributes$/, replacement: here('./packages/otel/src/attributes.ts') },
      { find: /^@wildcall\/otel$/, replacement: here('./packages/otel/src/index.ts') },
      { find: /^@wildcall\/sdk\/json-schema$/, replacement: here('./packages/sdk/src/json-schema.ts') },
      { find: /^@wildcall\/sdk\/internal$/, replacement: here('./packages/sdk/src/internal.ts') },
      { find: /^@wildcall\/sdk\/core$/, replacement: here('./packages/sdk/src/core.ts') },
      { find: /^@wildcall\/sdk\/readers$/, replacement: here('./packages/sdk/src/readers.ts') },
      { find: /^@wildcall\/sdk\/streaming$/, replacement: here('./packages/sdk/src/streaming.ts') },
      { find: /^@wildcall\/sdk\/zod3$/, replacement: here('./packages/sdk/src/zod3.ts') },
      { find: /^@wildcall\/sdk$/, replacement: here('./packages/sdk/src/index.ts') },
    ],
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'examples/*/src/**/*.test.ts', 'examples/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 20_000,
    setupFiles: ['./test/fast-check-seed.ts'],
    // CI asks for a JSON report as well, to print the closing "N passed, M failed" line.
    reporters: process.env.WILDCALL_VITEST_JSON ? ['default', 'json'] : ['default'],
    outputFile: process.env.WILDCALL_VITEST_JSON ? { json: process.env.WILDCALL_VITEST_JSON } : undefined,
    hookTimeout: 30_000,
  },
})
