export { glmAdapter } from './glm-adapter'
export type { GlmAdapterOptions } from './glm-adapter'
