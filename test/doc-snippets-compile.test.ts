import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

// Every ```ts (or ```typescript) block of the READMEs and docs/ type-checks against the built
// packages, as an app would import them: `@wildcall/*` resolve through the workspace node_modules to
// each package's `dist` declarations. One program for all the blocks, each its own module.
//
// A block that continues an earlier one, or uses a value the prose around it names, says what it
// assumes in an HTML comment right before it (the page does not render it; the source shows it):
//   <!-- snippet-assumes: import type { Client } from '@wildcall/sdk'; declare const client: Client -->
// Its text is put in front of the block: imports and declarations, so that the block is checked as
// written. A block whose relative imports name the modules of an example says where it would sit:
//   <!-- snippet-folder: examples/custom-adapter/src -->
// Blocks in other languages (sh, json, output) are not checked.

const root = fileURLToPath(new URL('..', import.meta.url))
// Where a block with no `snippet-folder` is checked: as a file of an app.
const DEFAULT_FOLDER = 'test-results/doc-snippets'

function markdownFiles(): string[] {
  const packages = readdirSync(join(root, 'packages')).map((name) => `packages/${name}/README.md`)
  const docs = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)
  return ['README.md', ...packages, ...docs].filter((path) => {
    try {
      readFileSync(join(root, path))
      return true
    } catch {
      return false
    }
  })
}

interface Snippet {
  /** `README.md:120`: the file and the line of the block's opening fence. */
  where: string
  source: string
  /** Lines put in front of the block (from its `snippet-assumes` comment). */
  assumes: string
  /** The folder the block is checked in (its `snippet-folder` comment), from the repository root. */
  folder: string
}

// A fenced ts block and the HTML comments on the lines right before it.
const BLOCK = /((?:^<!--[^\n]*-->\n)*)^```(?:ts|typescript)\n([\s\S]*?)^```$/gm

function readSnippets(): Snippet[] {
  return markdownFiles().flatMap((path) => {
    const text = readFileSync(join(root, path), 'utf8')
    return [...text.matchAll(BLOCK)].map((match) => {
      const comments = match[1]!
      const fence = match.index + comments.length
      return {
        where: `${path}:${text.slice(0, fence).split('\n').length}`,
        source: match[2]!,
        assumes: /<!-- snippet-assumes: (.*) -->/.exec(comments)?.[1] ?? '',
        folder: /<!-- snippet-folder: (\S+) -->/.exec(comments)?.[1] ?? DEFAULT_FOLDER,
      }
    })
  })
}

const BASE_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  moduleDetection: ts.ModuleDetectionKind.Force,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: ['node'],
  typeRoots: [join(root, 'node_modules/@types')],
  strict: true,
  skipLibCheck: true,
  noEmit: true,
  esModuleInterop: true,
}
// What an app writes: a strict ESM app as the README's "TypeScript settings" describe it, nodenext
// and the strictest options that change what a snippet may write (optional fields, indexed access).
const APP_OPTIONS: ts.CompilerOptions = {
  ...BASE_OPTIONS,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
}
// A block that sits in an example's sources (`snippet-folder`) is checked as that example compiles.
const EXAMPLE_OPTIONS: ts.CompilerOptions = { ...BASE_OPTIONS, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler }

/** The type errors of every snippet, by snippet, in one program. */
function typeErrors(snippets: Snippet[], options: ts.CompilerOptions): Map<string, string[]> {
  // The files sit in the repository (never written to disk), so module resolution finds the
  // workspace node_modules.
  const files = new Map<string, Snippet>()
  snippets.forEach((snippet, index) => files.set(join(root, snippet.folder, `doc-snippet-${index}.ts`), snippet))
  const preambleLines = (snippet: Snippet) => (snippet.assumes ? 1 : 0)
  const textOf = (snippet: Snippet) => (snippet.assumes ? `${snippet.assumes}\n` : '') + snippet.source
  const host = ts.createCompilerHost(options)
  const getSourceFile = host.getSourceFile.bind(host)
  host.getSourceFile = (fileName, language, onError, create) => {
    const snippet = files.get(fileName)
    return snippet ? ts.createSourceFile(fileName, textOf(snippet), language, true) : getSourceFile(fileName, language, onError, create)
  }
  const fileExists = host.fileExists.bind(host)
  host.fileExists = (fileName) => files.has(fileName) || fileExists(fileName)
  const program = ts.createProgram([...files.keys()], options, host)
  const errors = new Map<string, string[]>()
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const snippet = diagnostic.file && files.get(diagnostic.file.fileName)
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')
    if (!snippet) {
      const list = errors.get('(outside the snippets)') ?? []
      errors.set('(outside the snippets)', [...list, message])
      continue
    }
    const line = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line - preambleLines(snippet)
    const [path, fence] = snippet.where.split(':')
    const at = line < 0 ? `${snippet.where} (snippet-assumes)` : `${path}:${Number(fence) + 1 + line}`
    errors.set(snippet.where, [...(errors.get(snippet.where) ?? []), `${at}: ${message}`])
  }
  return errors
}

describe('the TypeScript snippets of the READMEs and docs/', () => {
  const snippets = readSnippets()

  it('should find the blocks (the extraction itself works)', () => {
    expect(snippets.length).toBeGreaterThan(30)
    expect(snippets.map((snippet) => snippet.where)).toContain(snippets.find((snippet) => snippet.source.includes("from '@wildcall/adapter-qwen'"))?.where)
  })

  it('should type-check every block against the built packages', () => {
    const inApp = snippets.filter((snippet) => snippet.folder === DEFAULT_FOLDER)
    const errors = [...typeErrors(inApp, APP_OPTIONS).values(), ...typeErrors(snippets.filter((snippet) => !inApp.includes(snippet)), EXAMPLE_OPTIONS).values()]
    expect(errors.flat()).toEqual([])
    // Every README's blocks are among the app's.
    expect(inApp.filter((snippet) => snippet.where.startsWith('README.md')).length).toBeGreaterThan(10)
  }, 60_000)
})
