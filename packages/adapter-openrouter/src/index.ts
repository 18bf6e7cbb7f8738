export { openrouterAdapter } from './openrouter-adapter'
export type { OpenRouterReasoning } from './openrouter-adapter'
