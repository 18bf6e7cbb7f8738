// `@wildcall/sdk/core`: the whole client with only the JSON reader by default, for a lean bundle.
// Readers of other formats come from `createClient({ readers })` and the adapters' `readers`
// (import them from `@wildcall/sdk/readers`).
export { createCoreClient as createClient } from './client/create-client'
export type { Client } from './client/create-client'
export type { ClientConfig, Logger, Streaming, Strict, ToolMode } from './client/config'
export { hermesPrompt } from './client/prompt-mode'
export type { PromptForm } from './client/prompt-mode'
export type { InvokeOptions } from './client/client-state'
export type { StreamRun } from './client/stream-run'
export { defineTool } from './tool/define-tool'
export type { StandardSchemaLike, InferSchemaOutput } from './tool/schema'
export { InvokeError, isInvokeError } from './errors/invoke-error'
export type { InvokeErrorConstructor, InvokeErrorType, InvokeErrorOptions } from './errors/invoke-error'
export { classifyFinish } from './errors/classify-finish'
export { createAdapterRegistry, registerAdapter, defaultRegistry } from './adapters/registry'
export type { AdapterRegistry, AdapterRegistryOptions } from './adapters/registry'
export { defineAdapter } from './adapters/define-adapter'
export { normalizeModelName } from './adapters/normalize-model-name'
export { openaiAdapter } from './adapters/openai-adapter'
export { patchHistoryReasoning } from './client/history-reasoning'
export type { Adapter, AdapterContext, AdapterMatch, EchoFields, MatchContext, ErrorContext } from './adapters/types'
export { createMacroTool } from './macro/create-macro-tool'
export type { MacroAction, MacroActionTaken, MacroInput, MacroTool, MacroToolOptions, MacroToolResult, MacroWaitToolOptions } from './macro/create-macro-tool'
export { repairToolCallCore as repairToolCall } from './repair/repair-tool-call'
export type { DroppedCall, RepairOptions, RepairResult } from './repair/repair-tool-call'
export type { Reader, ReaderCall, ReaderContext, ReaderPreview } from './repair/reader'
export type { RetryOptions } from './retry/with-retry'
export { parseRetryAfter } from './retry/retry-after'
export type { HeadersLike } from './retry/retry-after'
export type {
  ChatChoice,
  ChatMessage,
  ChatRequest,
  ChatResponse,
  ChatResponseMessage,
  ChatStreamChunk,
  ChatStreamDelta,
  ChatStreamToolCallDelta,
  ChatToolCall,
  ChatToolChoice,
  ChatToolDefinition,
  ChatUsage,
  DeepPartial,
  JsonValue,
  ToolCall,
  Usage,
} from './types'
export type { InvokeResultOf, MacroToolInfo, Tool, ToolCallOf, ToolExecuteContext, ToolName, ToolSet, ToolSetInput, ToolSetOutput } from './tool/types'
export type { AttemptDetail, InvokeResult } from './client/invoke-result'
export type { ClientEvents } from './client/client-events'
export type { StreamEvent } from './client/stream-run'
export type { FinishClass } from './errors/classify-finish'
export type { EndpointProfile, MessageFieldRule } from './client/endpoint-profile'
