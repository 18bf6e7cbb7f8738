export { claudeAdapter } from './claude-adapter'
