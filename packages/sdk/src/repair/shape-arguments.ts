/**
 * The shape stage: a resolved candidate's input shaped and coerced by its tool's schema. Argument
 * layers the tool has no field for are removed, text decoded once more, a macro tool's input put
 * into its `{ ...reflection, action }` shape ({@link shapeMacroInput}, the step that can find the
 * action missing), labelled reflection in the prose before the call lifted in, and the values
 * coerced ({@link coerceToSchema}). An action written as a call in text is read by the read stage
 * and handed in to {@link coerceArguments}.
 */
import type { ExtractedCall } from './extract-calls'
import { coerceToSchema, isPlainObject, pushFix, sanitizeValue, type JsonSchemaNode } from './coerce'
import { decodeArguments } from './decode-arguments'
import { availableList, previewValue } from './describe-issue'
import { Rank, type Context, type Failure } from './repair-context'
import type { ResolvedCall } from './resolve-tool'
import { fieldNames, safeJsonSchema } from './safe-json-schema'
import { foundFixes } from './push-fix'
import { liftLabelledReflection, shapeMacroInput } from './shape-macro-input'
import { unwrapArgumentLayers } from './unwrap'

/** A candidate whose input has its tool's shape (not yet coerced), with the tool's JSON Schema. */
export interface ShapedCall extends ResolvedCall {
  schema: JsonSchemaNode | undefined
}

export function shapeArguments(call: ResolvedCall, context: Context): ShapedCall | Failure {
  const { tool, toolName, fixes, dropped } = call
  const schema = safeJsonSchema(tool)
  let args = unwrapArgumentLayers(call.args, fieldNames(schema), fixes)
  if (typeof args === 'string' && !tool.macro) {
    const again = decodeArguments(args, fixes)
    if ('value' in again) args = sanitizeValue(again.value, fixes)
  }
  const echoed = tool.macro ? undefined : echoedSchema(args, schema)
  if (echoed !== undefined) {
    const where = echoed ? `${toolName}.${echoed}` : toolName
    return { rank: Rank.Invalid, message: `${where}: expected a value, got the JSON schema of one (${previewValue(echoed ? (args as Record<string, unknown>)[echoed] : args)}). ${availableList(tool, context.tools)}` }
  }
  if (tool.macro) {
    const shaped = shapeMacroInput(args, tool.macro, toolName, fixes, dropped)
    // Reflection in the reasoning names no action: no fallback action is taken for it.
    if ('missingAction' in shaped || (context.reasoning && fixes.includes('fallback-action'))) {
      return {
        rank: Rank.MissingAction,
        message: `${toolName}.action: missing — the model wrote its reflection but no action. ${availableList(tool, context.tools)} (Set fallbackAction to use a default.)`,
      }
    }
    args = shaped.args
  }
  return Object.assign(call, { args, schema })
}

/**
 * A shaped input finished and coerced: a macro input takes the `action` the readers read from its
 * action text (`"action": "scroll(down=True)"`) and is shaped again, and the labelled reflection in
 * `before`; then the input is sanitised and coerced by the schema.
 */
export function coerceArguments(call: ShapedCall, action: ExtractedCall | undefined, before: string | undefined): ShapedCall {
  const { tool, toolName, schema, fixes, dropped } = call
  let { args } = call
  if (action) {
    for (const code of foundFixes(action)) if (code) pushFix(fixes, code)
    const shell = args as Record<string, unknown>
    shell.action = action.name ? { [action.name]: action.args } : action.args
    args = (shapeMacroInput(shell, tool.macro!, toolName, fixes, dropped) as { args: unknown }).args
  }
  if (tool.macro && before && isPlainObject(args)) liftLabelledReflection(args, before, tool.macro.reflectionKeys, fixes)
  // Shaping may have decoded nested JSON text: sanitise again before anything assigns its keys.
  args = sanitizeValue(args, fixes)
  if (schema) args = coerceToSchema(args, schema, fixes)
  call.args = args
  return call
}

const SCHEMA_TYPES = new Set('string number integer boolean object array null'.split(' '))
const SCHEMA_KEYWORDS = new Set(
  'type description title enum const default examples format pattern minimum maximum exclusiveMinimum exclusiveMaximum minLength maxLength minItems maxItems items properties required additionalProperties anyOf oneOf allOf nullable $ref'.split(' '),
)

/** A JSON Schema node as a model echoes it: a `type` naming a JSON type, and nothing but schema keywords. */
function isSchemaNode(value: unknown): boolean {
  if (!isPlainObject(value) || !Object.keys(value).every((key) => SCHEMA_KEYWORDS.has(key))) return false
  const { type } = value
  return Array.isArray(type) ? type.length > 0 && type.every((entry) => SCHEMA_TYPES.has(entry as string)) : SCHEMA_TYPES.has(type as string)
}

/** Whether a schema describes objects with a `type` field of their own (then `{"type": …}` is data). */
const hasTypeField = (node: unknown) => isPlainObject(node) && isPlainObject(node.properties) && Object.hasOwn(node.properties, 'type')

/**
 * Where the model wrote a JSON Schema instead of values (Llama 3.x with tools in the prompt echoes
 * `"parameters": {"type": "object", "properties": …}` or `"city": {"type": "string", "description": …}`):
 * `''` for the whole input, a field's name for one value, `undefined` when the values are values. Such a
 * call is invalid: neither the echo's keys nor its descriptions are ever read as arguments.
 */
function echoedSchema(args: unknown, schema: JsonSchemaNode | undefined): string | undefined {
  if (!isPlainObject(args) || hasTypeField(schema)) return undefined
  if (isSchemaNode(args) && (isPlainObject(args.properties) || args.type === 'object')) return ''
  const properties = isPlainObject(schema?.properties) ? schema.properties : {}
  for (const [key, value] of Object.entries(args)) if (isSchemaNode(value) && !hasTypeField(properties[key])) return key
  return undefined
}
