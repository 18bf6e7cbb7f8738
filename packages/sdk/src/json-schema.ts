// `@wildcall/sdk/json-schema`: tools whose input is plain JSON Schema. A separate entry point, so
// the validator is in the bundle of those who use it only.
export { jsonSchema } from './tool/json-schema'
export type { InferJsonSchema, JsonSchema, JsonSchemaObject } from './tool/json-schema'
