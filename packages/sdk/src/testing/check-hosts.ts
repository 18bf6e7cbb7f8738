// The conformance checks of where an adapter's patches apply: on hosts it does not claim, on hosts
// that serve every family, and over the user's own settings.
import { matchesAdapter } from '../adapters/registry'
import type { Adapter } from '../adapters/types'
import { buildRequest } from '../client/build-request'
import type { ChatRequest } from '../types'
import { ensure } from './check'
import { adapterContextOf, kitMessages, kitTools, label, matchContextOf, patchOnce, snapshot, toTarget, type AdapterTestTarget } from './kit-fixtures'

/** Hosts that serve every family: a model adapter that claims one takes every model served there. */
export const SHARED_HOSTS = ['openrouter.ai', 'api.together.xyz', 'api.groq.com', 'api.fireworks.ai', 'api.deepinfra.com']

/** Where a family's models also run: the kit's neutral host, OpenRouter, a local vLLM or llama.cpp. */
const FOREIGN_BASE_URLS = ['https://api.example.com/v1', 'https://openrouter.ai/api/v1', 'http://localhost:8000/v1']

/** Models of other families. */
const OTHER_MODELS = ['gpt-4.1', 'llama-3.3-70b', 'qwen3-max']

/** Throws when a model adapter matches other families' models on a host that serves every family. */
export function checkSharedHosts(adapter: Adapter): void {
  if (adapter.kind === 'provider') return
  // A model the adapter takes on a neutral host is its own family's, wherever it runs.
  const others = OTHER_MODELS.filter((model) => !matchesAdapter(adapter, matchContextOf(model)))
  for (const host of SHARED_HOSTS) {
    for (const model of others) {
      const target = { model, baseURL: `https://${host}/v1` }
      ensure(
        !matchesAdapter(adapter, matchContextOf(target)),
        `model adapter "${adapter.name}" matches ${label(target)}: ${host} serves every family, so claiming it takes every model there. A model adapter matches its models wherever they run (match.models); remove "${host}" from match.hosts, or write a provider adapter (kind: 'provider') for that host.`,
      )
    }
  }
}

/** What a patch did to each field wildcall itself sends (`messages` and `model` aside), as text. */
function standardChanges(built: ChatRequest, sent: ChatRequest): Array<{ field: string; change: string }> {
  const changes: Array<{ field: string; change: string }> = []
  for (const field of Object.keys(built)) {
    if (field === 'messages' || field === 'model') continue
    const before = JSON.stringify(built[field])
    if (!Object.hasOwn(sent, field) || sent[field] === undefined) changes.push({ field, change: `removed ${field} (was ${before})` })
    else if (JSON.stringify(sent[field]) !== before) changes.push({ field, change: `changed ${field} from ${before.slice(0, 120)} to ${JSON.stringify(sent[field]).slice(0, 120)}` })
  }
  return changes
}

/**
 * Throws when a model adapter's `patchRequest` removes or rewrites a field wildcall sends
 * (`tool_choice`, `parallel_tool_calls`, `tools`, `temperature`, …) for one of its models served on a
 * host it does not claim, unless that field is listed in `modelQuirks` (a quirk of the model wherever
 * it runs). A provider's API quirk belongs behind a `context.host` test.
 */
export function checkForeignHosts(adapter: Adapter, models: readonly string[], modelQuirks: readonly string[] = []): void {
  if (adapter.kind === 'provider' || !adapter.patchRequest) return
  const allowed = new Set(modelQuirks)
  const home = typeof adapter.match === 'function' ? undefined : adapter.match.hosts?.find((host): host is string => typeof host === 'string')
  for (const model of models) {
    const found: string[] = []
    const fields = new Set<string>()
    for (const baseURL of FOREIGN_BASE_URLS) {
      // A host the adapter claims is its own: its provider patches belong there.
      if (matchesAdapter(adapter, matchContextOf({ model: 'kit-unrelated-model', baseURL }))) continue
      for (const toolChoiceName of [undefined, 'done']) {
        const input = { model, messages: kitMessages(), tools: kitTools, ...(toolChoiceName === undefined ? {} : { toolChoiceName }) }
        const built = snapshot(buildRequest(input)) as ChatRequest
        const { context } = adapterContextOf(adapter, { model, baseURL }, toolChoiceName === undefined ? {} : { toolChoiceName })
        const sent = snapshot(patchOnce(adapter, buildRequest(input), context)) as ChatRequest
        const changes = standardChanges(built, sent).filter(({ field }) => !allowed.has(field))
        for (const { field } of changes) fields.add(field)
        if (changes.length > 0) found.push(`on ${baseURL}${toolChoiceName ? ` (toolChoiceName "${toolChoiceName}")` : ''}: ${changes.map(({ change }) => change).join(', ')}`)
      }
    }
    ensure(
      found.length === 0,
      `patchRequest of "${adapter.name}" for "${model}" on hosts it does not claim ${found.join('; ')}. A patch for one provider's API must test the host (e.g. if (context.host === '${home ?? 'api.your-provider.test'}') delete body.parallel_tool_calls): hosts that did not need it break. If it is a quirk of the model wherever it runs, say so: testAdapter(adapter, { modelQuirks: [${[...fields].map((field) => JSON.stringify(field)).join(', ')}] }).`,
    )
  }
}

/** Throws when `patchRequest` changes or removes a temperature the user configured. */
export function checkUserTemperature(adapter: Adapter, target: AdapterTestTarget, modelQuirks: readonly string[] = []): void {
  if (!adapter.patchRequest || modelQuirks.includes('temperature')) return
  const { model } = toTarget(target)
  for (const temperature of [0.3, 0]) {
    const { context } = adapterContextOf(adapter, target, { temperature })
    const sent = patchOnce(adapter, buildRequest({ model, messages: kitMessages(), tools: kitTools, temperature }), context)
    ensure(
      sent.temperature === temperature,
      `patchRequest of "${adapter.name}" for ${label(target)} sent temperature ${JSON.stringify(sent.temperature)} where the user configured ${temperature}: set a family default only when the user chose none (if (context.temperature === undefined) body.temperature = …).`,
    )
  }
}
