/**
 * A call argument that is no literal (`city=Paris`, `x=frame["revenue"]`, `venue=Royal Albert Hall`,
 * `radius=3 * 1.5`), read by the type its parameter declares: for a string, the source text as
 * written; for a number, constant arithmetic on number literals, worked out by the small evaluator
 * below. Nothing else is ever evaluated: no name is looked up, no code is run.
 */
import { skipSpaces } from '../../text/char-codes'
import type { JsonSchemaNode } from '../coerce'
import { pushFix } from '../push-fix'
import { admittedTypes } from './decode-value'
import type { Budget, LiteralResult } from './python-literal'

/**
 * The expression at `start` up to the next `,` or the closer `close` (`)`) outside brackets and quotes, read by `schema`'s
 * type (fixes `unquoted-value`, `evaluated-arithmetic`). A line break, an `=` or a stray closer at the
 * top level ends no value: the text is no argument then (`a=Paris b=2` lacks its comma).
 */
export function readExpression(text: string, start: number, schema: JsonSchemaNode | undefined, budget: Budget, fixes: string[], close = 41): LiteralResult {
  const from = skipSpaces(text, start)
  const first = text.charCodeAt(from)
  // A string followed by more (`"a" "b"`, `'O'Brien'`) or an f-string is no value as written.
  if (!schema || first === 34 || first === 39 || /^[A-Za-z]{1,2}["']/.test(text.slice(from, from + 3))) return undefined
  let depth = 0
  let cursor = from
  for (; cursor < text.length; cursor++) {
    const code = text.charCodeAt(cursor)
    if (code === 34 || code === 39) {
      cursor++
      while (cursor < text.length && text.charCodeAt(cursor) !== code && text.charCodeAt(cursor) !== 10) cursor += text.charCodeAt(cursor) === 92 ? 2 : 1
      if (text.charCodeAt(cursor) !== code) break
    } else if (code === 40 || code === 91 || code === 123) depth++
    else if (code === 41 || code === 93 || code === 125) {
      if (depth === 0) break
      depth--
    } else if (depth === 0 && (code === 44 || code === 61 || code === 10 || code === 13)) break
  }
  budget.steps += cursor - from
  if (cursor >= text.length) return 'truncated'
  const source = text.slice(from, cursor).trimEnd()
  const closer = text.charCodeAt(cursor)
  if (!source || depth > 0 || (closer !== 44 && closer !== close)) return undefined
  const types = admittedTypes(schema)
  if (types.has('string')) {
    pushFix(fixes, 'unquoted-value')
    return { value: source, end: cursor }
  }
  const value = types.has('number') ? evaluateArithmetic(source) : undefined
  if (value === undefined) return undefined
  pushFix(fixes, 'evaluated-arithmetic')
  return { value, end: cursor }
}

// Binary operators by level (0 binds loosest): Python's `+ -`, then `* / // %` with its floor division and modulo.
const OPERATORS: Record<string, [level: number, apply: (left: number, right: number) => number]> = {
  '+': [0, (left, right) => left + right],
  '-': [0, (left, right) => left - right],
  '*': [1, (left, right) => left * right],
  '/': [1, (left, right) => left / right],
  '//': [1, (left, right) => Math.floor(left / right)],
  '%': [1, (left, right) => left - right * Math.floor(left / right)],
}

/**
 * Constant arithmetic on number literals as Python reads it (`+ - * / // % **`, unary signs,
 * parentheses, Python's precedence), or `undefined` for anything else, and for a division by zero or
 * any step that is no finite number.
 *
 * @example
 * ```ts
 * evaluateArithmetic('3 * 1.5') // 4.5
 * evaluateArithmetic('-2**2') // -4
 * evaluateArithmetic('x + 1') // undefined
 * ```
 */
export function evaluateArithmetic(source: string): number | undefined {
  const tokens = source.match(/\*\*|\/\/|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?|\S/g) ?? []
  // A model writes short sums: a long one is no argument value (and would nest deep).
  if (tokens.length > 200) return undefined
  let at = 0
  const finite = (value: number) => {
    if (!Number.isFinite(value)) throw value
    return value
  }
  // Level 2: a signed power, whose exponent is signed too (`2 ** -1`); `**` binds tighter than the sign before it.
  const parse = (level: number): number => {
    if (level > 1) {
      const token = tokens[at]
      if (token === '-' || token === '+') return at++, token === '-' ? -parse(2) : parse(2)
      const base = atom()
      return tokens[at] === '**' ? (at++, finite(base ** parse(2))) : base
    }
    let value = parse(level + 1)
    while (OPERATORS[tokens[at]!]?.[0] === level) value = finite(OPERATORS[tokens[at++]!]![1](value, parse(level + 1)))
    return value
  }
  const atom = (): number => {
    const token = tokens[at++] ?? ''
    if (token === '(') {
      const value = parse(0)
      if (tokens[at++] === ')') return value
    }
    // `012` is no Python number (a date's `2025-01-01` is no subtraction).
    if (!/^\.?\d/.test(token) || /^0[\d_]*[1-9]/.test(token) && !/[.eE]/.test(token)) throw token
    return finite(Number(token.replace(/_/g, '')))
  }
  try {
    const value = parse(0)
    return at === tokens.length ? value : undefined
  } catch {
    return undefined
  }
}
