export { minimaxAdapter } from './minimax-adapter'
export type { MiniMaxAdapterOptions } from './minimax-adapter'
