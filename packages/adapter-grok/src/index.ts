export { grokAdapter } from './grok-adapter'
