import type { Adapter } from '@wildcall/sdk'
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

/** Every adapter wildcall publishes, with default options: the CLI lets matching pick among them. */
export function createAllAdapters(): Adapter[] {
  return [
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
}
