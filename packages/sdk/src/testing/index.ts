export { startScriptedServer, toolCallResponse, contentResponse, sseChunks } from './scripted-server'
export type { ScriptedReply, ScriptedServer, ScriptedServerOptions, RecordedRequest, ResponseOptions } from './scripted-server'
