// `@wildcall/sdk`: everything, zero configuration — the core client with every built-in reader
// as the default set (the autoFixer), so an unknown model's markup is read out of the box.
export * from './core'
export { createClient } from './client/create-client'
export { repairToolCall } from './repair/repair-tool-call'
export * from './readers'
