export { deepseekAdapter } from './deepseek-adapter'
export type { DeepSeekAdapterOptions } from './deepseek-adapter'
