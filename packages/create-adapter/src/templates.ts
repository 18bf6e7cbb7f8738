// The files of a new adapter package. Each follows the rules of docs/writing-adapters.md: a factory
// wrapped in defineAdapter, a provider's patch behind a host test, the user's settings kept, the
// conformance kit on itself, `@wildcall/sdk` as a peer.

/** What the scaffold is asked for. */
export interface AdapterPackage {
  /** The npm name, e.g. `wildcall-adapter-acme` or `@you/wildcall-adapter-acme`. */
  packageName: string
  /** The family, lower-case kebab, e.g. `acme`: the adapter's `name` and the file names. */
  family: string
  /** Whether the family writes its calls in a markup of its own (a reader and its kit test). */
  reader: boolean
  /** The `@wildcall/sdk` peer range, e.g. `^0.1.0`. */
  sdkRange: string
  /** What the dev dependency on `@wildcall/sdk` installs: the range, or a local tarball before the SDK is published. */
  sdkSpec: string
}

/** The SDK version line this scaffold writes adapters for (checked against packages/sdk in the tests). */
export const SDK_RANGE = '^0.1.0'

const camel = (family: string) => family.replace(/-([a-z0-9])/g, (_all, char: string) => char.toUpperCase())
const snake = (family: string) => family.replace(/-/g, '_')
const title = (family: string) => family.charAt(0).toUpperCase() + camel(family).slice(1)

/** The files of the package, by path relative to its folder. */
export function adapterFiles(input: AdapterPackage): Record<string, string> {
  const { family } = input
  const files: Record<string, string> = {
    'package.json': `${JSON.stringify(packageJson(input), null, 2)}\n`,
    'tsconfig.json': `${JSON.stringify(TSCONFIG, null, 2)}\n`,
    'tsup.config.ts': TSUP_CONFIG,
    'vitest.config.ts': VITEST_CONFIG,
    '.gitignore': 'node_modules\ndist\n*.tgz\n',
    '.changeset/config.json': `${JSON.stringify(CHANGESET_CONFIG, null, 2)}\n`,
    '.changeset/README.md': CHANGESET_README,
    'README.md': readme(input),
    'src/index.ts': index(input),
    [`src/${family}-adapter.ts`]: adapter(input),
    [`src/${family}-adapter.test.ts`]: adapterTest(input),
  }
  if (input.reader) {
    files[`src/${family}-reader.ts`] = reader(input)
    files[`src/${family}-reader.test.ts`] = readerTest(input)
  }
  return files
}

function packageJson({ packageName, family, sdkRange, sdkSpec }: AdapterPackage): Record<string, unknown> {
  return {
    name: packageName,
    version: '0.1.0',
    description: `wildcall adapter for ${title(family)} models.`,
    license: 'MIT',
    type: 'module',
    sideEffects: false,
    engines: { node: '>=20' },
    keywords: ['wildcall', 'wildcall-adapter', family],
    files: ['dist'],
    main: './dist/index.cjs',
    module: './dist/index.js',
    types: './dist/index.d.ts',
    exports: {
      '.': {
        import: { types: './dist/index.d.ts', default: './dist/index.js' },
        require: { types: './dist/index.d.cts', default: './dist/index.cjs' },
      },
      './package.json': './package.json',
    },
    scripts: {
      build: 'tsup',
      test: 'vitest run',
      typecheck: 'tsc --noEmit',
      'check:package': 'publint --strict && attw --pack . --profile node16',
      changeset: 'changeset',
      prepublishOnly: 'npm run build && npm run check:package',
    },
    peerDependencies: { '@wildcall/sdk': sdkRange },
    devDependencies: {
      '@arethetypeswrong/cli': '^0.18.5',
      '@changesets/cli': '^2.31.1',
      '@wildcall/sdk': sdkSpec,
      publint: '^0.3.25',
      tsup: '^8.5.1',
      typescript: '^5.9.3',
      vitest: '^4.1.12',
    },
  }
}

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'Bundler',
    lib: ['ES2022', 'DOM'],
    types: [],
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    noImplicitOverride: true,
    isolatedModules: true,
    verbatimModuleSyntax: true,
    skipLibCheck: true,
    declaration: true,
    noEmit: true,
  },
  include: ['src', '*.config.ts'],
}

const TSUP_CONFIG = `import { defineConfig } from 'tsup'

// ESM + CJS + declarations. The SDK is a peer: never bundled, so the app's one copy (its registry,
// its InvokeError) is the one this adapter uses.
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  target: 'es2022',
  platform: 'neutral',
  external: ['@wildcall/sdk'],
})
`

const VITEST_CONFIG = `import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: { include: ['src/**/*.test.ts'] },
})
`

const CHANGESET_CONFIG = {
  $schema: 'https://unpkg.com/@changesets/config@3.1.4/schema.json',
  changelog: '@changesets/cli/changelog',
  commit: false,
  fixed: [],
  linked: [],
  access: 'public',
  baseBranch: 'main',
  updateInternalDependencies: 'patch',
  ignore: [],
}

const CHANGESET_README = `# Changesets

Every change your users can notice (a quirk patched or no longer patched, a new option, a finish
reason) gets a changeset: run \`npm run changeset\`, pick the bump, describe the change. \`npx changeset
version\` turns them into a version and a CHANGELOG entry before you publish.
`

function index({ family, reader: withReader }: AdapterPackage): string {
  const name = camel(family)
  return `export { ${name}Adapter } from './${family}-adapter'
export type { ${title(family)}AdapterOptions } from './${family}-adapter'
${withReader ? `export { ${name}Reader } from './${family}-reader'\n` : ''}`
}

function adapter({ family, packageName, reader: withReader }: AdapterPackage): string {
  const name = camel(family)
  const Title = title(family)
  return `import { defineAdapter, type Adapter } from '@wildcall/sdk'
${withReader ? `import { ${name}Reader } from './${family}-reader'\n` : ''}
/** Options of {@link ${name}Adapter}. */
export interface ${Title}AdapterOptions {
  /** Let ${Title} models think before answering (slower, more tokens). Default: off. */
  reasoning?: boolean
}

// ${Title}'s own API (the host and its subdomains, any port). A quirk of that API is patched there
// only: ${Title} models served elsewhere (OpenRouter, a local vLLM) take the standard request.
const ${snake(family).toUpperCase()}_API = /(?:^|\\.)api\\.${family}\\.example(?::\\d+)?$/

/**
 * wildcall adapter for ${Title} models, wherever they are served.
 *
 * - Model quirk (every host): ${Title} models think unless sent \`reasoning: 'off'\`.
 * - Provider quirk (\`api.${family}.example\` only): the API refuses \`parallel_tool_calls\`.
 * - The history echoes \`${snake(family)}_state\`, which ${Title} reads back on the next turn.
 * - Finish reason \`budget_exhausted\` is a truncated answer.
 *
 * @example
 * \`\`\`ts
 * import { createClient } from '@wildcall/sdk'
 * import { ${name}Adapter } from '${packageName}'
 *
 * const client = createClient({ baseURL: 'https://api.${family}.example/v1', model: '${family}-2', adapters: [${name}Adapter()] })
 * \`\`\`
 */
export function ${name}Adapter(options: ${Title}AdapterOptions = {}): Adapter {
  return defineAdapter({
    name: '${family}',
    kind: 'model',
    match: { models: ['${family}-'], hosts: ['api.${family}.example'] },
    // Provider fields of an answer that the next request must send back (delete what your family does not need).
    echoFields: { message: ['${snake(family)}_state'] },
${withReader ? `    readers: [${name}Reader],\n` : ''}    patchRequest(body, context) {
      // The model's quirk, on every host; set only what nobody chose (the user's settings win).
      if (body.reasoning === undefined) body.reasoning = options.reasoning ? 'on' : 'off'
      // The provider's quirks, on its API only.
      if (!${snake(family).toUpperCase()}_API.test(context.host)) return
      delete body.parallel_tool_calls
    },
    classifyFinish: (reason) => (reason === 'budget_exhausted' ? 'truncated' : undefined),
  })
}
`
}

function adapterTest({ family, reader: withReader }: AdapterPackage): string {
  const name = camel(family)
  return `import { contentResponse, toolCallResponse } from '@wildcall/sdk/testing'
import { testAdapter } from '@wildcall/sdk/testing/vitest'
import { ${name}Adapter } from './${family}-adapter'

// The conformance kit: the checks every adapter passes (matching, idempotent patches that keep the
// caller's messages, the user's temperature and other hosts' requests alone, echoed fields …), then
// ${family}'s own cases.
testAdapter(${name}Adapter(), {
  matches: ['${family}-2', 'vendor/${family}-2-mini', { model: 'house-model', baseURL: 'https://api.${family}.example/v1' }],
  rejects: ['not-${family}-1'],
  requests: [
    { name: "on its API: parallel_tool_calls removed, reasoning off", model: '${family}-2', baseURL: 'https://api.${family}.example/v1', after: { reasoning: 'off' }, absent: ['parallel_tool_calls'] },
    // A foreign host: only the model's quirk applies there.
    { name: 'on OpenRouter: the standard request, reasoning off', model: 'vendor/${family}-2', baseURL: 'https://openrouter.ai/api/v1', after: { parallel_tool_calls: false, reasoning: 'off' } },
  ],
  responses: [
    {
      // The echo case: the field comes back in the next request's history.
      name: 'keeps ${snake(family)}_state for the next turn',
      model: '${family}-2',
      response: toolCallResponse('done', { text: 'ok' }, { message: { ${snake(family)}_state: 'opaque-1' } }),
      expected: { name: 'done', args: { text: 'ok' } },
    },
${withReader ? `    {
      name: 'reads its call markup',
      model: '${family}-2',
      response: contentResponse('<${family}:call name="scroll">{"down":true}</${family}:call>'),
      expected: { name: 'scroll', args: { down: true } },
    },
` : ''}    { name: 'budget_exhausted is output_truncated', model: '${family}-2', response: contentResponse('', { finishReason: 'budget_exhausted' }), expected: { error: 'output_truncated' } },
  ],
  finishes: [
    { reason: 'budget_exhausted', expected: 'truncated' },
    { reason: 'stop', expected: undefined },
  ],
})

testAdapter(${name}Adapter({ reasoning: true }), {
  requests: [{ name: 'the reasoning option turns it on', model: '${family}-2', after: { reasoning: 'on' } }],
})
`
}

function reader({ family }: AdapterPackage): string {
  const name = camel(family)
  const Title = title(family)
  return `import type { Reader, ReaderCall } from '@wildcall/sdk'

const OPENER = /<${family}:call name="([\\w.-]{1,64})">/g
const CLOSER = '</${family}:call>'
const FORMAT = 'tool-markup:${family}'

/** Where the JSON object starting at \`from\` ends (one past its \`}\`), or -1 when it never closes. */
function objectEnd(text: string, from: number): number {
  if (text[from] !== '{') return -1
  let depth = 0
  let inString = false
  for (let index = from; index < text.length; index++) {
    const char = text[index]
    if (inString) {
      if (char === '\\\\') index++
      else if (char === '"') inString = false
    } else if (char === '"') inString = true
    else if (char === '{') depth++
    else if (char === '}' && --depth === 0) return index + 1
  }
  return -1
}

/**
 * Reads ${Title}'s call markup, \`<${family}:call name="NAME">{json arguments}</${family}:call>\`, in one
 * linear pass: a call ends where its JSON ends (a closing tag inside a string is a value), text an
 * earlier reader took is skipped, and a call that never closes is returned as truncated (never run).
 *
 * @example
 * \`\`\`ts
 * createClient({ baseURL, model, readers: [${name}Reader] })
 * \`\`\`
 */
export const ${name}Reader: Reader = {
  name: '${family}',
  formats: [FORMAT],
  read(text, context) {
    const calls: ReaderCall[] = []
    const opener = new RegExp(OPENER)
    for (let match = opener.exec(text); match; match = opener.exec(text)) {
      const start = match.index
      const bodyStart = opener.lastIndex
      const bodyEnd = objectEnd(text, bodyStart)
      if (bodyEnd < 0) {
        calls.push({ name: match[1]!, args: undefined, format: FORMAT, fixes: [], start, end: text.length, truncated: true })
        break
      }
      if (!text.startsWith(CLOSER, bodyEnd)) continue
      const end = bodyEnd + CLOSER.length
      opener.lastIndex = end
      if (context.claimed(start, end)) continue
      let args: unknown
      try {
        args = JSON.parse(text.slice(bodyStart, bodyEnd))
      } catch {
        continue
      }
      calls.push({ name: match[1]!, args, format: FORMAT, fixes: [], start, end })
    }
    return calls
  },
}
`
}

function readerTest({ family }: AdapterPackage): string {
  const name = camel(family)
  return `import { testReader } from '@wildcall/sdk/testing/vitest'
import { ${name}Reader } from './${family}-reader'

// The readers' kit: every call rendered as ${family}'s template writes it reads back with identical
// values (calls inside string values included), no call from prose or other formats, linear on floods.
testReader(${name}Reader, {
  render: ({ name, args }) => \`<${family}:call name="\${name}">\${JSON.stringify(args)}</${family}:call>\`,
})
`
}

function readme({ packageName, family, reader: withReader }: AdapterPackage): string {
  const name = camel(family)
  const Title = title(family)
  return `# ${packageName}

A [wildcall](https://www.npmjs.com/package/@wildcall/sdk) adapter for ${Title} models.

## Use it

\`\`\`ts
import { createClient, registerAdapter } from '@wildcall/sdk'
import { ${name}Adapter } from '${packageName}'

// For one client …
const client = createClient({ baseURL: 'https://api.${family}.example/v1', model: '${family}-2', apiKey, adapters: [${name}Adapter()] })
// … or for every client created after this line.
registerAdapter(${name}Adapter({ reasoning: true }))
\`\`\`

Try it on a real endpoint: \`npx wildcall doctor --adapter ${packageName} --adapter-options '{"reasoning":true}' --base-url URL --model NAME\`.

## Develop

\`\`\`sh
npm test               # the conformance kit (testAdapter${withReader ? ', testReader' : ''}) and your cases
npm run typecheck      # strict TypeScript
npm run build          # ESM + CJS + declarations (tsup)
npm run check:package  # publint and Are The Types Wrong on the packed package
npm run changeset      # describe a change for the next version
\`\`\`

Before writing a patch, see what wildcall already handles: \`npx wildcall repair saved-response.json --model NAME\`
and \`npx wildcall doctor --base-url URL --model NAME\` with no \`--adapter\`.

## Rules this package keeps

- \`@wildcall/sdk\` is a **peer** dependency (\`${SDK_RANGE}\`, the range it is tested with): one SDK copy at run time.
- A quirk of the model is patched wherever it runs; a quirk of one provider's API behind a \`context.host\` test.
- The user's settings (\`context.temperature\`, a named tool choice) are kept; the caller's messages are copied, never edited.
- The name is \`wildcall-adapter-<family>\` (or \`@scope/wildcall-adapter-<family>\`), with the \`wildcall-adapter\` keyword,
  and the adapter's \`name\` is the family (\`${family}\`): two adapters of one name shadow each other.
`
}
