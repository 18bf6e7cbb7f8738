export { hunyuanAdapter } from './hunyuan-adapter'
export type { HunyuanAdapterOptions } from './hunyuan-adapter'
