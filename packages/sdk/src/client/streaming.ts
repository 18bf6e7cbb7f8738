import type { Streaming } from './config'
import type { StreamingSupport } from './client-state'
import { readEventText, streamStep } from './stream'

/**
 * Streaming for a `@wildcall/sdk/core` client: `client.stream()` (SSE, partial previews, the idle
 * timeout), and the reading of a body of stream events that a server sends to a plain `invoke`.
 * Kept out of the core bundle until passed; `@wildcall/sdk`'s `createClient` always includes it.
 *
 * @example
 * ```ts
 * import { createClient } from '@wildcall/sdk/core'
 * import { streaming } from '@wildcall/sdk/streaming'
 *
 * const client = createClient({ baseURL, model: 'qwen3-max', apiKey, streaming })
 * const run = client.stream(messages, { AgentOutput }, { toolChoiceName: 'AgentOutput' })
 * for await (const event of run) if (event.type === 'partial') render(event.args)
 * const { toolCall } = await run.result
 * ```
 */
export const streaming: Streaming = { name: 'streaming', stream: streamStep, readEvents: readEventText } satisfies StreamingSupport as Streaming
