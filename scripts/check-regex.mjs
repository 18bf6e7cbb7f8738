#!/usr/bin/env node
// Lists every regular expression in packages/*/src (shipped code, not tests) and runs `recheck` on
// each: a model or a server controls every byte of a response, so a pattern that can backtrack
// super-linearly is a denial of service. A vulnerable pattern (or one built at run time) fails the run unless
// the comment just above it (or on its line) says `regex-bounded: <why its input is short>` and
// names the test that proves that bound: `(test: path/to/file.test.ts)`, a file that exists.
//
//   node scripts/check-regex.mjs            check all, print a summary
//   node scripts/check-regex.mjs --list     also print every pattern and its verdict
// Pure-JS backend: no Java, no native binary, no network (set before recheck loads).
process.env.RECHECK_BACKEND = 'pure'

import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const { check } = await import('recheck')
const repository = join(dirname(fileURLToPath(import.meta.url)), '..')
// Another tree to check (the script's own test points it at fixtures).
const root = process.env.CHECK_REGEX_ROOT ?? repository
const list = process.argv.includes('--list')
const MARKER = /regex-bounded:\s*\S.*?\(test:\s*([^\s)]+)\)/s

/** Shipped TypeScript sources: not tests, fixtures or type-only checks. */
function sources() {
  const files = []
  const walk = (directory) => {
    for (const name of readdirSync(directory)) {
      const path = join(directory, name)
      if (statSync(path).isDirectory()) {
        if (name !== '__fixtures__' && name !== 'node_modules') walk(path)
      } else if (name.endsWith('.ts') && !/\.(test|typecheck|d)\.ts$/.test(name)) files.push(path)
    }
  }
  for (const pkg of readdirSync(join(root, 'packages'))) {
    const src = join(root, 'packages', pkg, 'src')
    if (existsSync(src)) walk(src)
  }
  return files.sort()
}

/** Every regex literal and `RegExp(...)` / `new RegExp(...)` of a file, its pattern resolved through same-file string constants. */
function regexesOf(path) {
  const text = readFileSync(path, 'utf8')
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true)
  const constants = new Map()
  const collect = (node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && ts.isVariableDeclarationList(node.parent) && node.parent.flags & ts.NodeFlags.Const) {
      constants.set(node.name.text, node.initializer)
    }
    ts.forEachChild(node, collect)
  }
  collect(file)

  // The string value of an expression built from literals and constants, or undefined.
  const evaluate = (node, depth = 0) => {
    if (!node || depth > 20) return undefined
    if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node)) return evaluate(node.expression, depth + 1)
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text
    if (ts.isIdentifier(node)) return evaluate(constants.get(node.text), depth + 1)
    // `new RegExp(OTHER.source, 'g')`: the source of a regex literal constant.
    if (ts.isPropertyAccessExpression(node) && node.name.text === 'source' && ts.isIdentifier(node.expression)) {
      const literal = constants.get(node.expression.text)
      return literal?.kind === ts.SyntaxKind.RegularExpressionLiteral ? literal.text.slice(1, literal.text.lastIndexOf('/')) : undefined
    }
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const left = evaluate(node.left, depth + 1)
      const right = evaluate(node.right, depth + 1)
      return left === undefined || right === undefined ? undefined : left + right
    }
    // `String.raw` keeps the escapes as written, a plain template their values.
    const raw = ts.isTaggedTemplateExpression(node) && node.tag.getText(file) === 'String.raw'
    const template = raw ? node.template : node
    if (raw && ts.isNoSubstitutionTemplateLiteral(template)) return template.rawText
    if ((raw || ts.isTemplateExpression(node)) && ts.isTemplateExpression(template)) {
      const part = (literal) => (raw ? literal.rawText : literal.text)
      let out = part(template.head)
      for (const span of template.templateSpans) {
        const value = evaluate(span.expression, depth + 1)
        if (value === undefined) return undefined
        out += value + part(span.literal)
      }
      return out
    }
    return undefined
  }

  const found = []
  const add = (node, source, flags) => {
    const { line } = file.getLineAndCharacterOfPosition(node.getStart(file))
    // The comment lines right above the statement, and the rest of its first line.
    const lines = text.split('\n')
    let first = line
    while (first > 0 && /^\s*(\/\/|\*|\/\*)/.test(lines[first - 1])) first--
    const comment = lines.slice(first, line + 1).join('\n')
    found.push({ path, line: line + 1, source, flags, comment })
  }
  const visit = (node) => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const literal = node.text
      const slash = literal.lastIndexOf('/')
      add(node, literal.slice(1, slash), literal.slice(slash + 1))
    } else if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && ts.isIdentifier(node.expression) && node.expression.text === 'RegExp' && node.arguments?.length) {
      const [pattern, flags] = node.arguments
      // `RegExp(text).source` only escapes text for a JSON Schema `pattern`: it never matches anything here.
      const sourceOnly = ts.isPropertyAccessExpression(node.parent) && node.parent.name.text === 'source'
      if (!sourceOnly) add(node, evaluate(pattern), flags ? evaluate(flags) : '')
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
  return found
}

// Verdicts depend only on the pattern, its flags and recheck's version: kept between runs in
// node_modules/.cache, so a run re-checks only new or changed patterns (a clean install checks all).
const recheckVersion = JSON.parse(readFileSync(join(repository, 'node_modules/recheck/package.json'), 'utf8')).version
const cachePath = join(repository, 'node_modules/.cache/check-regex.json')
const cached = existsSync(cachePath) ? JSON.parse(readFileSync(cachePath, 'utf8')) : {}
// A pattern recheck cannot decide within the timeout is reported, not failed: its fuzzing then
// depends on the machine's speed, and a longer fuzz flags patterns V8 runs in linear time.
const PARAMETERS = { timeout: 5_000, randomSeed: 1 }
const setting = `recheck ${recheckVersion} ${JSON.stringify(PARAMETERS)}`
const verdicts = cached.setting === setting ? cached.verdicts : {}
const used = {}

/** recheck's verdict, with its own choice of checker (automaton when it can, else fuzz) and a fixed seed. */
async function verdictOf(source, flags) {
  const key = `/${source}/${flags}`
  if (!verdicts[key]) {
    const diagnostics = await check(source, flags, PARAMETERS)
    verdicts[key] =
      diagnostics.status === 'vulnerable'
        ? { status: 'vulnerable', detail: `${diagnostics.complexity.summary}, attack ${JSON.stringify(diagnostics.attack.pattern)}` }
        : { status: diagnostics.status, ...(diagnostics.error ? { detail: diagnostics.error.kind } : {}) }
  }
  return (used[key] = verdicts[key])
}

const started = performance.now()
const results = []
for (const path of sources()) {
  for (const regex of regexesOf(path)) {
    const where = `${relative(root, regex.path)}:${regex.line}`
    const verdict = regex.source === undefined || regex.flags === undefined ? { status: 'dynamic' } : await verdictOf(regex.source, regex.flags)
    const marker = MARKER.exec(regex.comment)
    const proof = marker && existsSync(join(root, marker[1])) ? marker[1] : undefined
    results.push({ where, ...regex, ...verdict, bounded: proof, badMarker: marker && !proof ? marker[1] : undefined })
  }
}
const seconds = (performance.now() - started) / 1000
mkdirSync(dirname(cachePath), { recursive: true })
// Only a run over the repository drops the verdicts of patterns that are gone.
writeFileSync(cachePath, JSON.stringify({ setting, verdicts: root === repository ? used : { ...verdicts, ...used } }))

const failures = results.filter((result) => (result.status === 'vulnerable' || result.status === 'dynamic') && !result.bounded)
for (const result of results.filter((result) => result.status === 'unknown' && !result.bounded)) {
  console.log(`undecided  ${result.where}  /${result.source}/${result.flags}: recheck could not decide in time (${result.detail ?? 'unknown'}); ESLint's regexp rules still check it`)
}
if (list) for (const result of results) console.log(`${result.status.padEnd(10)} ${result.where}  /${result.source ?? '<dynamic>'}/${result.flags ?? ''}${result.detail ? `  (${result.detail})` : ''}`)
for (const result of results.filter((result) => result.status !== 'safe' && result.status !== 'unknown' && result.bounded)) {
  console.log(`bounded    ${result.where}  /${result.source ?? '<dynamic>'}/  ${result.status}, its input bounded (proof: ${result.bounded})`)
}
for (const failure of failures) {
  const why = failure.status === 'vulnerable' ? `super-linear backtracking: ${failure.detail}` : 'built at run time, so it cannot be checked'
  console.error(`✗ ${failure.where}  /${failure.source ?? '<dynamic>'}/${failure.flags ?? ''}: ${why}`)
  if (failure.badMarker) console.error(`  its regex-bounded comment names ${failure.badMarker}, which does not exist`)
}
const tally = new Map()
for (const result of results) tally.set(result.status, (tally.get(result.status) ?? 0) + 1)
const counts = [...tally].map(([status, count]) => `${count} ${status}`)
console.log(`check-regex: ${results.length} regexes in ${new Set(results.map((result) => result.path)).size} files (${counts.join(', ')}) in ${seconds.toFixed(1)} s`)
if (failures.length > 0) {
  console.error(
    `check-regex: ${failures.length} regex(es) may take super-linear time on hostile input. Make each linear (a scan with indexOf or a sticky regex that advances, loops to trim), or if its input is bounded, say so beside it: // regex-bounded: <why> (test: <the test file that proves the bound>)`,
  )
  process.exit(1)
}
