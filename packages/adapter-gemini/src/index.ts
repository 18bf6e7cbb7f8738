export { geminiAdapter, toGeminiSchema } from './gemini-adapter'
export type { GeminiAdapterOptions, GeminiReasoningEffort } from './gemini-adapter'
