// xgrammar (the structured-generation engine of vLLM and SGLang, as its WebAssembly build) as the
// judge of every schema constrained decoding sends: does the grammar compiled from it admit a text?
import { copyFileSync, mkdtempSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

interface XGrammar {
  Grammar: { fromJSONSchema(schema: string): Promise<unknown> }
  Testings: { isGrammarAcceptString(grammar: unknown, text: string): Promise<boolean> }
}

let loaded: XGrammar | undefined

// Its `lib/index.js` is a UMD file inside a `"type": "module"` package: required as a `.cjs` copy.
function xgrammar(): XGrammar {
  if (!loaded) {
    const require = createRequire(import.meta.url)
    const copy = join(mkdtempSync(join(tmpdir(), 'wildcall-xgrammar-')), 'xgrammar.cjs')
    copyFileSync(require.resolve('@mlc-ai/web-xgrammar'), copy)
    loaded = require(copy) as XGrammar
  }
  return loaded
}

/** A judge of `schema`: whether the grammar xgrammar compiles from it accepts a text. */
export async function grammarOf(schema: unknown): Promise<(text: string) => Promise<boolean>> {
  const { Grammar, Testings } = xgrammar()
  const grammar = await Grammar.fromJSONSchema(JSON.stringify(schema))
  return (text) => Testings.isGrammarAcceptString(grammar, text)
}
