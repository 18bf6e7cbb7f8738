export { qwenAdapter } from './qwen-adapter'
export type { QwenAdapterOptions } from './qwen-adapter'
