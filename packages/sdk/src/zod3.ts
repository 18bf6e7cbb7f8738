// `@wildcall/sdk/zod3`: tools whose input is a zod 3 schema. A separate entry point, so the zod 3 to
// JSON Schema converter is in the bundle of those who use it only (zod 4 converts itself).
export { zod3Schema } from './tool/zod3-schema'
export type { Zod3Schema } from './tool/zod3-schema'
