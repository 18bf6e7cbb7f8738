import type { Adapter, AdapterContext, ChatResponse, ChatToolCall, FinishClass } from '@wildcall/sdk'

// Opus, Sonnet and Haiku accept `thinking: { type: 'disabled' }` and a forced tool choice.
const SWITCHABLE = /(?:^|-)(?:opus|sonnet|haiku)(?:-|$)/

// Anthropic's stop reasons (a proxy may pass them through instead of OpenAI's finish reasons).
const FINISH: Record<string, FinishClass> = {
  end_turn: 'ok',
  tool_use: 'ok',
  stop_sequence: 'ok',
  max_tokens: 'truncated',
  // Sonnet 4.5+: the answer stopped because the context window filled up — cut like max_tokens.
  model_context_window_exceeded: 'truncated',
  refusal: 'filtered',
  // A server-tool turn paused mid-way: a new attempt starts it over.
  pause_turn: 'server_error',
}

/**
 * Claude through an OpenAI-compatible endpoint (Anthropic's, OpenRouter, a gateway). Opus, Sonnet
 * and Haiku get `thinking: { type: 'disabled' }`, and, except behind OpenRouter (which takes
 * OpenAI's shapes), `tool_choice` in Anthropic's shape (`'required'` → `{ type: 'any' }`, a named
 * tool → `{ type: 'tool', name }`). Other Claude models, which always think, get
 * `reasoning_effort: 'low'` and no `tool_choice` (thinking forbids a forced choice). Responses:
 * Anthropic stop reasons and native `tool_use`/`thinking` content blocks a proxy passed through.
 * Anthropic's error wording (credit balance, `overloaded_error`, `prompt is too long`) needs no
 * adapter: the SDK's own classification already recognises it.
 *
 * Every request patch here is a model quirk (thinking and forced choices), except the shape of
 * `tool_choice`, which follows the endpoint: Anthropic's everywhere but behind OpenRouter.
 *
 * @example
 * ```ts
 * import { createClient } from '@wildcall/sdk'
 * import { claudeAdapter } from '@wildcall/adapter-claude'
 *
 * const client = createClient({
 *   baseURL: 'https://api.anthropic.com/v1',
 *   model: 'claude-sonnet-4-5',
 *   apiKey: process.env.ANTHROPIC_API_KEY,
 *   adapters: [claudeAdapter()],
 * })
 * ```
 */
export function claudeAdapter(): Adapter {
  return {
    name: 'claude',
    kind: 'model',
    match: { models: ['claude'] },
    patchRequest(body, context) {
      if (!SWITCHABLE.test(context.modelId)) {
        body.reasoning_effort = 'low'
        delete body.tool_choice
        return
      }
      body.thinking = { type: 'disabled' }
      if (isBehindOpenRouter(context)) return
      const choice = body.tool_choice
      if (choice === 'required') body.tool_choice = { type: 'any' }
      else if (isNamedChoice(choice)) body.tool_choice = { type: 'tool', name: choice.function.name }
    },
    classifyFinish(reason) {
      const key = typeof reason === 'string' ? reason.toLowerCase() : ''
      // Own keys only: a reason such as "constructor" must not find Object.prototype's.
      return Object.hasOwn(FINISH, key) ? FINISH[key] : undefined
    },
    fixResponse(response) {
      return liftContentBlocks(response)
    },
  }
}

function isBehindOpenRouter(context: AdapterContext): boolean {
  return context.adapters.includes('openrouter') || /(?:^|\.)openrouter\.ai(?::\d+)?$/.test(context.host)
}

function isNamedChoice(choice: unknown): choice is { type: 'function'; function: { name: string } } {
  if (typeof choice !== 'object' || choice === null) return false
  const named = choice as { type?: unknown; function?: { name?: unknown } }
  return named.type === 'function' && typeof named.function?.name === 'string'
}

interface ContentBlock {
  type?: unknown
  text?: unknown
  thinking?: unknown
  id?: unknown
  name?: unknown
  input?: unknown
}

/**
 * A gateway that passes Anthropic's content blocks through leaves `message.content` an array of
 * `text`, `thinking` and `tool_use` blocks. This puts them where the OpenAI shape expects them:
 * `tool_use` → `tool_calls`, `thinking` → `reasoning_content`, text → `content`.
 */
function liftContentBlocks(response: ChatResponse): ChatResponse {
  const choice = response.choices[0]
  const message = choice?.message
  if (!choice || typeof message !== 'object' || message === null || !Array.isArray(message.content)) return response
  const blocks = message.content as ContentBlock[]
  if (!blocks.some((block) => block?.type === 'tool_use' || block?.type === 'thinking')) return response
  const texts: string[] = []
  const thoughts: string[] = []
  const calls: ChatToolCall[] = []
  for (const block of blocks) {
    if (block?.type === 'text' && typeof block.text === 'string') texts.push(block.text)
    else if (block?.type === 'thinking' && typeof block.thinking === 'string') thoughts.push(block.thinking)
    else if (block?.type === 'tool_use' && typeof block.name === 'string') {
      calls.push({
        ...(typeof block.id === 'string' ? { id: block.id } : {}),
        type: 'function',
        function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
      })
    }
  }
  const existing = Array.isArray(message.tool_calls) ? message.tool_calls : []
  return {
    ...response,
    choices: [
      {
        ...choice,
        message: {
          ...message,
          content: texts.join(''),
          ...(thoughts.length > 0 ? { reasoning_content: thoughts.join('\n\n') } : {}),
          ...(existing.length > 0 || calls.length > 0 ? { tool_calls: [...existing, ...calls] } : {}),
        },
      },
      ...response.choices.slice(1),
    ],
  }
}

