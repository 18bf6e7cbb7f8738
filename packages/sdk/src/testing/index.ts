export { startScriptedServer, toolCallResponse, contentResponse, sseChunks } from './scripted-server'
export type { ScriptedReply, ScriptedServer, ScriptedServerOptions, RecordedRequest, ResponseOptions } from './scripted-server'
export { testAdapter } from './test-adapter'
export type { AdapterTestOptions, AdapterTestTarget, AdapterRequestCase, AdapterResponseCase, AdapterFinishCase } from './test-adapter'
