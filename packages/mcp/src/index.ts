export { mcpTools, McpToolError } from './mcp-tools'
export type { McpCallResult, McpClientLike, McpListedTool, McpTool, McpToolOutput, McpToolsOptions } from './mcp-tools'
