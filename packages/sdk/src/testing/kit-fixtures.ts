// What the conformance kit's checks share: the kit's tools and history, targets and the contexts an
// adapter's hooks see, and one patch run that says which frozen value a patch wrote to.
import { normalizeModelName } from '../adapters/normalize-model-name'
import { createAdapterRegistry, resolveAdapters } from '../adapters/registry'
import type { Adapter, AdapterContext, MatchContext } from '../adapters/types'
import { resolveEndpoint } from '../client/resolve-endpoint'
import { defineTool } from '../tool/define-tool'
import { jsonSchema } from '../tool/json-schema'
import { deepFreeze } from '../util/deep-freeze'
import type { ChatMessage, ChatRequest } from '../types'
import type { ToolSet } from '../tool/types'
import { ConformanceError } from './check'

/** A model name (on `https://api.example.com/v1`), or a model on a given base URL. */
export type AdapterTestTarget = string | { model: string; baseURL: string }

export const DEFAULT_BASE_URL = 'https://api.example.com/v1'

/**
 * The kit's default tools: small, with a boolean, an optional number, an integer and strings, so
 * request patches and response repairs meet the usual schema shapes. Plain JSON Schema, not zod: the
 * kit runs in an adapter package that has no schema library installed.
 */
export const kitTools: ToolSet = {
  scroll: defineTool({
    description: 'Scroll the page',
    inputSchema: jsonSchema({ type: 'object', properties: { down: { type: 'boolean' }, num_pages: { type: 'number' } }, required: ['down'] }),
  }),
  input_text: defineTool({
    description: 'Type text into the element with this index',
    inputSchema: jsonSchema({ type: 'object', properties: { index: { type: 'integer' }, text: { type: 'string' } }, required: ['index', 'text'] }),
  }),
  done: defineTool({
    description: 'Finish the task',
    inputSchema: jsonSchema({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }),
  }),
}


/**
 * A short agent history (system, user, an assistant call with reasoning, its tool result), deeply
 * frozen like the cached tool definitions: `body.messages` holds the app's own objects, so a patch
 * that writes to them (a trim, a deleted field, a push) throws instead of passing unseen.
 */
export function kitMessages(): ChatMessage[] {
  return deepFreeze([
    { role: 'system', content: 'You are a browser agent. Call exactly one tool. ' },
    { role: 'user', content: 'Scroll down, then finish.\n' },
    {
      role: 'assistant',
      content: null,
      reasoning_content: 'The page is long; scroll first.',
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'scroll', arguments: '{"down":true}' } }],
    },
    { role: 'tool', tool_call_id: 'call_1', content: 'Scrolled one page.' },
  ] as ChatMessage[])
}

export function toTarget(target: AdapterTestTarget): { model: string; baseURL: string } {
  return typeof target === 'string' ? { model: target, baseURL: DEFAULT_BASE_URL } : target
}

export function label(target: AdapterTestTarget): string {
  const { model, baseURL } = toTarget(target)
  return baseURL === DEFAULT_BASE_URL ? `"${model}"` : `"${model}" on ${baseURL}`
}

export function sameTarget(a: AdapterTestTarget, b: AdapterTestTarget): boolean {
  const x = toTarget(a)
  const y = toTarget(b)
  return normalizeModelName(x.model) === normalizeModelName(y.model) && new URL(x.baseURL).host === new URL(y.baseURL).host
}

/** The match context `createClient` computes for a model and base URL. */
export function matchContextOf(target: AdapterTestTarget): MatchContext {
  const { model, baseURL } = toTarget(target)
  const endpoint = resolveEndpoint(baseURL)
  return { model, modelId: normalizeModelName(model), baseURL: endpoint.baseURL, host: endpoint.host }
}

export function adapterContextOf(adapter: Adapter, target: AdapterTestTarget, extra: { toolChoiceName?: string; temperature?: number; tools?: ToolSet } = {}): { context: AdapterContext; chain: Adapter[] } {
  const match = matchContextOf(target)
  const chain = resolveAdapters(createAdapterRegistry(), [adapter], match)
  const context: AdapterContext = {
    ...match,
    adapters: chain.map((item) => item.name),
    tools: extra.tools ?? kitTools,
    stream: false,
    ...(extra.temperature === undefined ? {} : { temperature: extra.temperature }),
    ...(extra.toolChoiceName === undefined ? {} : { toolChoiceName: extra.toolChoiceName }),
  }
  return { context, chain }
}

export function snapshot(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value))
}

const WROTE_FROZEN = /read[- ]only|frozen|not extensible|Cannot (?:assign|add|delete|define)/i

/**
 * Runs the adapter's `patchRequest` once. A write to a frozen value fails with what to copy: the
 * caller's messages when the same patch passes on thawed copies of them, else a tool definition.
 */
export function patchOnce(adapter: Adapter, body: ChatRequest, context: AdapterContext): ChatRequest {
  const patch = adapter.patchRequest
  if (!patch) return body
  try {
    return patch.call(adapter, body, context) ?? body
  } catch (error) {
    if (!(error instanceof TypeError) || !WROTE_FROZEN.test(error.message)) throw error
    let messages = false
    try {
      patch.call(adapter, { ...body, messages: structuredClone(body.messages) }, context)
      messages = true
    } catch {
      // Still a frozen write: a tool definition.
    }
    throw new ConformanceError(
      messages
        ? `patchRequest of "${adapter.name}" mutated the caller's messages in place (${error.message}). body.messages holds the app's own history objects: copy what you change, e.g. body.messages = body.messages.map((message) => ({ ...message, content: … })).`
        : `patchRequest of "${adapter.name}" mutated a frozen tool definition (${error.message}). Tool definitions are cached and shared: copy what you change, e.g. body.tools = body.tools.map((tool) => ({ ...tool, function: { ...tool.function } })).`,
    )
  }
}
