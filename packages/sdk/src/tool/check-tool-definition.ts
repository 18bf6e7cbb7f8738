import { InvokeError } from '../errors/invoke-error'

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
