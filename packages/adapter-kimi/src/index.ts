export { kimiAdapter } from './kimi-adapter'
export type { KimiAdapterOptions } from './kimi-adapter'
