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
 * The expression at `start` up to the next `,` or `)` outside brackets and quotes, read by `schema`'s
 * type (fixes `unquoted-value`, `evaluated-arithmetic`). A line break, an `=` or a stray closer at the
 * top level ends no value: the text is no argument then (`a=Paris b=2` lacks its comma).
 */
export function readExpression(text: string, start: number, schema: JsonSchemaNode | undefined, budget: Budget, fixes: string[]): LiteralResult {
  const from = skipSpaces(text, start)
  const first = text.charCodeAt(from)
  // A string followed by more (`"a" "b"`, `'O'Brien'`) is no value as written.
  if (!schema || first === 34 || first === 39) return undefined
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
  if (!source || depth > 0 || (closer !== 44 && closer !== 41)) return undefined
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

// A Python number literal: digits with `_`, a fraction, an exponent.
const NUMBER = /(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d+)?/y

/**
 * Constant arithmetic on number literals as Python reads it (`+ - * / // % **`, unary signs,
 * parentheses, Python's precedence and its floor division and modulo), or `undefined` for anything
 * else, a division by zero or a result that is no finite number.
 *
 * @example
 * ```ts
 * evaluateArithmetic('3 * 1.5') // 4.5
 * evaluateArithmetic('-2**2') // -4
 * evaluateArithmetic('x + 1') // undefined
 * ```
 */
export function evaluateArithmetic(source: string): number | undefined {
  let at = 0
  let depth = 0
  const peek = (operator: string) => {
    at = skipSpaces(source, at)
    return source.startsWith(operator, at)
  }
  const take = (operator: string) => peek(operator) && !(operator.length === 1 && (operator === '*' || operator === '/') && source[at + 1] === operator) && ((at += operator.length), true)
  const sum = (): number => {
    let value = product()
    for (;;) {
      if (take('+')) value += product()
      else if (take('-')) value -= product()
      else return value
    }
  }
  const product = (): number => {
    let value = unary()
    for (;;) {
      if (take('//')) value = Math.floor(value / nonZero(unary()))
      else if (take('/')) value /= nonZero(unary())
      else if (take('%')) {
        const divisor = nonZero(unary())
        value -= divisor * Math.floor(value / divisor)
      } else if (take('*')) value *= unary()
      else return value
    }
  }
  const unary = (): number => (take('-') ? -unary() : take('+') ? unary() : power())
  const power = (): number => {
    const base = atom()
    return take('**') ? base ** unary() : base
  }
  const atom = (): number => {
    if (take('(')) {
      if (++depth > 32) throw at
      const value = sum()
      depth--
      if (!take(')')) throw at
      return value
    }
    at = skipSpaces(source, at)
    NUMBER.lastIndex = at
    const literal = NUMBER.exec(source)?.[0]
    // `012` is no Python number (a date's `2025-01-01` is no subtraction).
    if (!literal || /^0[\d_]*[1-9]/.test(literal) && !/[.eE]/.test(literal)) throw at
    at += literal.length
    return Number(literal.replace(/_/g, ''))
  }
  try {
    const value = sum()
    return skipSpaces(source, at) === source.length && Number.isFinite(value) ? value : undefined
  } catch {
    return undefined
  }
}

function nonZero(divisor: number): number {
  if (divisor === 0) throw divisor
  return divisor
}
