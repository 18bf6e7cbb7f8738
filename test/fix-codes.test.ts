import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { builtInReaders } from '@wildcall/sdk/readers'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

// The README's fix-code table against the codes the SDK's source can put in `result.fixes`. The
// codes are read from the source itself (every shipped `.ts` under packages/sdk/src, wherever the
// modules move), so a code added to the code and not to the table, or left in the table after the
// code stopped emitting it, fails here.

const root = fileURLToPath(new URL('..', import.meta.url))
const sourceRoot = join(root, 'packages/sdk/src')

/** Shipped TypeScript: tests, type-only checks and test fixtures emit nothing into a result. */
function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) return entry.name === '__fixtures__' ? [] : sourceFiles(path)
    return /\.ts$/.test(entry.name) && !/\.(test|typecheck)\.ts$/.test(entry.name) ? [path] : []
  })
}

/** A template's unknown part (`${type}` in `coerced:${type}`): decided in DYNAMIC_CODES below. */
const ANY = '*'

// Where a fix code is produced. A string in one of these places is a code:
// - an argument of `pushFix(fixes, …)`, `pushOnce(fixes, …)`, `note(…)`, or of `.push`/`.unshift` on
//   an array whose name ends in `fixes` (`fixes.push`, `step.fixes.push`, `requestFixes.push`);
// - an argument given to a parameter named `fixes` or `extra` (`candidatesIn(text, ['call-in-reasoning'], …)`);
// - the value of a `fixes` or `formats` property, of the `format` of an object that has `fixes` (a
//   call a reader found reports its `format` as a code; a JSON Schema's `format` is none), or of a
//   variable whose name ends in `fixes`.
// The value is followed through `a ? b : c`, `a && b`, `a ?? b`, arrays, spreads of arrays, template
// strings, and calls of functions of the source (their `return` values: `describeFieldChange`).
const PUSHING_FUNCTIONS = new Set(['pushFix', 'pushOnce', 'note'])
const CODE_PROPERTIES = new Set(['fixes', 'format', 'formats'])
const CODE_PARAMETERS = new Set(['fixes', 'extra'])
// Where a `tool-markup:${family}` / `tool-markup:${format}` family comes from: a `family` property,
// a variable `family` or `format` set to a string, or what a function named `…Family` returns.
// (A `format` property is no family: a call's `format` is a whole code, a JSON Schema's a string format.)
const FAMILY_NAMES = new Set(['family', 'format'])

interface Scan {
  /** Codes and code patterns (`coerced:*`) found in the source, with where each was found. */
  codes: Map<string, string>
  /** Families of `tool-markup:<family>` written as plain strings in the source. */
  families: Set<string>
}

/** An object literal of a call a reader found (`{ args, format, fixes, … }`), not a JSON Schema's `format`. */
function isFoundCall(node: ts.ObjectLiteralExpression): boolean {
  return node.properties.some((property) => property.name !== undefined && ts.isIdentifier(property.name) && property.name.text === 'fixes')
}

function scanSource(): Scan {
  const files = sourceFiles(sourceRoot).map((path) => ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true))
  const functions = new Map<string, ts.FunctionDeclaration>()
  for (const file of files) {
    ts.forEachChild(file, (node) => {
      if (ts.isFunctionDeclaration(node) && node.name) functions.set(node.name.text, node)
    })
  }

  /** The strings an expression can evaluate to; `*` for a part no string literal decides. */
  function valuesOf(node: ts.Expression, seen = new Set<ts.Node>()): string[] {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text]
    if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isNonNullExpression(node)) return valuesOf(node.expression, seen)
    if (ts.isConditionalExpression(node)) return [...valuesOf(node.whenTrue, seen), ...valuesOf(node.whenFalse, seen)]
    if (ts.isBinaryExpression(node)) {
      const operator = node.operatorToken.kind
      if (operator === ts.SyntaxKind.AmpersandAmpersandToken) return valuesOf(node.right, seen)
      if (operator === ts.SyntaxKind.QuestionQuestionToken || operator === ts.SyntaxKind.BarBarToken) return [...valuesOf(node.left, seen), ...valuesOf(node.right, seen)]
      return []
    }
    if (ts.isArrayLiteralExpression(node)) return node.elements.flatMap((element) => valuesOf(ts.isSpreadElement(element) ? element.expression : element, seen))
    if (ts.isTemplateExpression(node)) {
      let results = [node.head.text]
      for (const span of node.templateSpans) {
        const parts = valuesOf(span.expression, seen)
        const choices = parts.length > 0 && !parts.includes(ANY) ? parts : [ANY]
        results = results.flatMap((start) => choices.map((choice) => `${start}${choice}${span.literal.text}`))
      }
      return results
    }
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
      const declaration = functions.get(node.expression.text)
      if (!declaration?.body || seen.has(declaration)) return []
      seen.add(declaration)
      const values: string[] = []
      const visit = (child: ts.Node): void => {
        if (ts.isReturnStatement(child) && child.expression) values.push(...valuesOf(child.expression, seen))
        else if (!ts.isFunctionLike(child)) ts.forEachChild(child, visit)
      }
      ts.forEachChild(declaration.body, visit)
      return values
    }
    return []
  }

  const codes = new Map<string, string>()
  const families = new Set<string>()
  for (const file of files) {
    const where = (node: ts.Node) => `${relative(root, file.fileName)}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`
    const add = (node: ts.Expression) => {
      for (const code of valuesOf(node)) if (code && !codes.has(code)) codes.set(code, where(node))
    }
    const addFamilies = (node: ts.Expression) => {
      for (const family of valuesOf(node)) if (family && !family.includes(ANY) && !family.includes(':')) families.add(family)
    }
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) {
        const callee = node.expression
        if (ts.isIdentifier(callee) && PUSHING_FUNCTIONS.has(callee.text)) node.arguments.forEach(add)
        else if (ts.isPropertyAccessExpression(callee) && ['push', 'unshift'].includes(callee.name.text) && /fixes$/i.test(callee.expression.getText())) node.arguments.forEach(add)
        else if (ts.isIdentifier(callee)) {
          const parameters = functions.get(callee.text)?.parameters ?? []
          node.arguments.forEach((argument, index) => {
            const parameter = parameters[index]?.name
            if (parameter && ts.isIdentifier(parameter) && CODE_PARAMETERS.has(parameter.text)) add(argument)
          })
        }
      }
      if (ts.isPropertyAssignment(node) && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name))) {
        if (CODE_PROPERTIES.has(node.name.text) && (node.name.text !== 'format' || isFoundCall(node.parent))) add(node.initializer)
        if (node.name.text === 'family') addFamilies(node.initializer)
      }
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
        if (/fixes$/i.test(node.name.text)) add(node.initializer)
        if (FAMILY_NAMES.has(node.name.text)) addFamilies(node.initializer)
      }
      if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isIdentifier(node.left) && FAMILY_NAMES.has(node.left.text)) addFamilies(node.right)
      if (ts.isReturnStatement(node) && node.expression) {
        const owner = ts.findAncestor(node, ts.isFunctionDeclaration)
        if (owner?.name && /Family$/.test(owner.name.text)) addFamilies(node.expression)
      }
      ts.forEachChild(node, visit)
    }
    visit(file)
  }
  return { codes, families }
}

const readerNames = builtInReaders.map((reader) => reader.name)

/**
 * The codes whose text is only known when the code runs (a template string with a part no literal
 * decides), each decided here by hand: what the table writes for it. A new template in the source
 * that is not decided here fails the test, with where it is.
 */
const DYNAMIC_CODES: Record<string, (scan: Scan) => string[]> = {
  // `reader:${reader.name}`: the reader that read the call; the built-in ones by name, and yours.
  'reader:*': () => ['reader:<name>', ...readerNames.map((name) => `reader:${name}`)],
  // `tool-markup:${family}` (special tokens, text markers), `tool-markup:${format}` (pythonic) and
  // `tool-markup:${reader.name}` (a reader of yours that gave no `format`): every family a string
  // of the source names, and a placeholder for the families of your own readers.
  'tool-markup:*': (scan) => ['tool-markup:<family>', ...[...scan.families].map((family) => `tool-markup:${family}`)],
  // `coerced:${type}` in coerce.ts's convertScalar, inside `type === 'number' || type === 'integer'`.
  'coerced:*': () => ['coerced:number', 'coerced:integer'],
  // `dropped-calls:${dropped.length}`: how many calls were dropped.
  'dropped-calls:*': () => ['dropped-calls:N'],
  // `${…}-parameter:${change.field}` and `${…}-message-field:${key}`: the request field, the message field.
  'dropped-parameter:*': () => ['dropped-parameter:<field>'],
  'renamed-parameter:*': () => ['renamed-parameter:<field>'],
  'echoed-message-field:*': () => ['echoed-message-field:<field>'],
  'stripped-message-field:*': () => ['stripped-message-field:<field>'],
}

/** Every code the source can emit, as the table writes it; and the dynamic codes left undecided. */
function emittedCodes(scan: Scan): { codes: Set<string>; undecided: string[] } {
  const codes = new Set<string>()
  const undecided: string[] = []
  for (const [code, where] of scan.codes) {
    if (!code.includes(ANY)) codes.add(code)
    else if (DYNAMIC_CODES[code]) for (const expanded of DYNAMIC_CODES[code](scan)) codes.add(expanded)
    else undecided.push(`${code} (${where})`)
  }
  // Reader formats are codes too (a reader's call reports its `format`).
  for (const reader of builtInReaders) for (const format of reader.formats ?? []) codes.add(format)
  return { codes, undecided }
}

// The table follows this marker in README.md. A row is `| group | codes | notes |`: the codes cell holds
// only codes in backticks; a row whose group names `<family>` or `<name>` lists the families of
// `tool-markup:<family>` or the built-in readers of `reader:<name>`.
const TABLE_MARKER = '<!-- fix-codes'

interface Table {
  codes: Set<string>
  /** Text in a codes cell that is not a code in backticks (the convention says there is none). */
  strays: string[]
}

function readTable(): Table {
  const readme = readFileSync(join(root, 'README.md'), 'utf8')
  const start = readme.indexOf(TABLE_MARKER)
  if (start < 0) throw new Error(`README.md has no "${TABLE_MARKER} … -->" marker before the fix-code table`)
  const rows = readme.slice(readme.indexOf('-->', start) + 3).trimStart().split('\n')
  const codes = new Set<string>()
  const strays: string[] = []
  for (const row of rows.slice(2)) {
    if (!row.startsWith('|')) break
    const [group = '', cell = ''] = row.split('|').slice(1)
    const listed = [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!)
    const rest = cell.replace(/`[^`]+`/g, '').replace(/[,\s]/g, '')
    if (rest) strays.push(`${group.trim()}: ${rest}`)
    const prefix = group.includes('`<family>`') ? 'tool-markup:' : group.includes('`<name>`') ? 'reader:' : ''
    for (const code of listed) codes.add(`${prefix}${code}`)
  }
  return { codes, strays }
}

describe('the README fix-code table', () => {
  const scan = scanSource()
  const { codes: emitted, undecided } = emittedCodes(scan)
  const table = readTable()

  it('should find the codes in the source (the scan itself works)', () => {
    // Codes from the repair layer, the client, a reader's format, a function's return value and the
    // families of special tokens: if one of these is gone, the scan missed a place codes come from.
    for (const code of ['unwrapped-envelope', 'stream-body', 'content-json', 'tool-choice-required', 'fenced', 'tool-markup:harmony', 'reader:hermes']) expect(emitted).toContain(code)
    expect(readerNames.length).toBeGreaterThan(10)
  })

  it('should decide every code the source builds from a template', () => {
    expect(undecided).toEqual([])
  })

  it('should hold only codes in backticks in its codes column', () => {
    expect(table.strays).toEqual([])
  })

  it('should list every code the source can emit', () => {
    const missing = [...emitted].filter((code) => !table.codes.has(code))
    expect(missing, 'codes the source emits that README.md does not list').toEqual([])
  })

  it('should list no code the source cannot emit', () => {
    const unknown = [...table.codes].filter((code) => !emitted.has(code))
    expect(unknown, 'codes README.md lists that no source emits').toEqual([])
  })
})
