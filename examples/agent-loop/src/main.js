// The wildcall demo (`npm start`): a small agent loop over a simulated shop page.
//
// Default: against a SCRIPTED local server that this script starts on 127.0.0.1. It replays replies
// written by hand in the shapes real models send (including mistakes the repair layer fixes). It is
// not a model. Set WILDCALL_BASE_URL and WILDCALL_MODEL (and WILDCALL_API_KEY) to drive a real
// OpenAI-compatible endpoint instead, with every wildcall adapter available.
import { claudeAdapter } from '@wildcall/adapter-claude'
import { deepseekAdapter } from '@wildcall/adapter-deepseek'
import { geminiAdapter } from '@wildcall/adapter-gemini'
import { glmAdapter } from '@wildcall/adapter-glm'
import { grokAdapter } from '@wildcall/adapter-grok'
import { hunyuanAdapter } from '@wildcall/adapter-hunyuan'
import { kimiAdapter } from '@wildcall/adapter-kimi'
import { minimaxAdapter } from '@wildcall/adapter-minimax'
import { openrouterAdapter } from '@wildcall/adapter-openrouter'
import { qwenAdapter } from '@wildcall/adapter-qwen'
import { createClient } from '@wildcall/sdk'
import { startScriptedServer } from '@wildcall/sdk/testing'
import { runAgentLoop } from './run-agent-loop.js'
import { createScript, scriptedFamilyAdapter, scriptedReplies } from './scripted-model.js'
import { createSimulatedPage } from './create-simulated-page.js'

const TASK = 'Search the shop for "trail shoes", open the first result and report its name and price.'
const log = (...lines) => {
  for (const line of lines) console.log(line)
}

const adapters = [
  qwenAdapter(),
  deepseekAdapter(),
  claudeAdapter(),
  geminiAdapter(),
  kimiAdapter(),
  glmAdapter(),
  minimaxAdapter(),
  grokAdapter(),
  hunyuanAdapter(),
  openrouterAdapter(),
]

async function main() {
  const realBaseURL = process.env.WILDCALL_BASE_URL
  const realModel = process.env.WILDCALL_MODEL
  if (realBaseURL && !realModel) {
    console.error('WILDCALL_BASE_URL is set but WILDCALL_MODEL is not: set both (and WILDCALL_API_KEY if the endpoint needs one).')
    return 2
  }
  let server
  let client
  log('wildcall agent-loop demo', '')
  if (realBaseURL) {
    client = createClient({ baseURL: realBaseURL, model: realModel, apiKey: process.env.WILDCALL_API_KEY, adapters, timeoutMs: 120_000 })
    log(`Endpoint: ${realBaseURL} (model ${realModel}) — a real endpoint, from WILDCALL_BASE_URL.`)
  } else {
    server = await startScriptedServer({ script: createScript() })
    client = createClient({ baseURL: server.url, model: 'scripted-demo', adapters: [scriptedFamilyAdapter, ...adapters], retry: { limit: 2, baseDelayMs: 100 } })
    log(
      `Endpoint: ${server.url} — a SCRIPTED local server started by this demo.`,
      'It is NOT a model: it replays replies written by hand in the shapes real models send:',
      ...scriptedReplies.map((entry, index) => `  reply ${index + 1}: ${entry.note}`),
      'It refuses a request whose chat history is not well formed, as a real API would.',
      'Set WILDCALL_BASE_URL, WILDCALL_MODEL and WILDCALL_API_KEY to drive a real model instead.',
    )
  }
  log(`Adapters for this client: ${client.adapters.join(', ') || 'none (the request goes out as built)'}`, `Task: ${TASK}`)
  try {
    const summary = await runAgentLoop({ client, page: createSimulatedPage(), task: TASK, log })
    const codes = [...new Set(summary.fixes)]
    log(
      '',
      'Summary',
      `  steps: ${summary.steps}, finished: ${summary.done ? (summary.success ? 'yes (success)' : 'yes (gave up)') : 'no'}`,
      `  answer: ${summary.answer ?? '(none)'}`,
      `  fixes applied: ${summary.fixes.length}${codes.length > 0 ? ` (${codes.join(', ')})` : ''}`,
      `  retries: ${summary.retries}, failed steps: ${summary.failures}`,
      `  tokens: ${summary.promptTokens} prompt, ${summary.completionTokens} completion`,
      server ? '  (replies came from the scripted server, not from a model)' : `  (replies came from ${realModel})`,
    )
    return summary.done ? 0 : 1
  } finally {
    await server?.close()
  }
}

main().then(
  (code) => {
    process.exitCode = code
  },
  (error) => {
    console.error(error)
    process.exitCode = 1
  },
)
