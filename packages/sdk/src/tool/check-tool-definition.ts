import { InvokeError } from '../errors/invoke-error'

// What the OpenAI API accepts as a function name; most compatible servers copy the rule.
const TOOL_NAME = /^[\w-]{1,64}$/

/** Throws `config_error` for a tool name the OpenAI API refuses, suggesting one it accepts. */
export function assertToolName(name: string, where: string, what = 'tool name'): void {
  if (TOOL_NAME.test(name)) return
  const suggestion = name.replace(/[^\w-]+/g, '_').slice(0, 64) || 'tool'
  throw new InvokeError(
    'config_error',
    `${where}: ${what} "${name.length > 80 ? `${name.slice(0, 80)}…` : name}" is refused by the OpenAI API: use 1 to 64 letters, digits, "_" or "-" (got ${name.length} characters), e.g. "${suggestion}".`,
  )
}

/**
 * Throws `config_error` unless a tool's JSON Schema is an object at the top level: the OpenAI API
 * refuses any other parameters (a string, an array, a top-level union).
 */
export function assertObjectSchema(json: Record<string, unknown>, where: string): void {
  if (json.type === 'object') return
  const got = typeof json.type === 'string' ? `"${json.type}"` : ['anyOf', 'oneOf', 'allOf'].find((key) => key in json) ?? 'no type'
  throw new InvokeError(
    'config_error',
    `${where}: the input schema must be an object at the top level (got ${got}): the OpenAI API refuses other tool parameters. Wrap it in an object, e.g. z.object({ value: z.string() }), or make each union member its own tool.`,
  )
}
