// The conventions' well-known `gen_ai.provider.name` values, by the API host that serves them.
const HOSTS: ReadonlyArray<readonly [string, string]> = [
  ['api.openai.com', 'openai'],
  ['openai.azure.com', 'azure.ai.openai'],
  ['api.deepseek.com', 'deepseek'],
  ['api.moonshot.ai', 'moonshot_ai'],
  ['api.moonshot.cn', 'moonshot_ai'],
  ['api.x.ai', 'x_ai'],
  ['api.groq.com', 'groq'],
  ['api.mistral.ai', 'mistral_ai'],
  ['api.perplexity.ai', 'perplexity'],
  ['api.anthropic.com', 'anthropic'],
  ['generativelanguage.googleapis.com', 'gcp.gemini'],
  ['aiplatform.googleapis.com', 'gcp.vertex_ai'],
]

// wildcall's adapter families whose provider has a well-known value under another name.
const FAMILIES: Readonly<Record<string, string>> = { claude: 'anthropic', gemini: 'gcp.gemini', grok: 'x_ai', kimi: 'moonshot_ai' }

/**
 * `gen_ai.provider.name` of a client: the well-known value of the API host, else of the adapter
 * family that serves it (a provider adapter such as `openrouter` comes after the model's, so it
 * wins), else the family's own name; `openai_compatible` when no adapter matched (a local server).
 *
 * @example
 * ```ts
 * providerName('https://api.deepseek.com/v1/chat/completions', client.adapters) // 'deepseek'
 * providerName('https://openrouter.ai/api/v1/chat/completions', ['qwen', 'openrouter']) // 'openrouter'
 * ```
 */
export function providerName(url: string, adapters: readonly string[]): string {
  let host = ''
  try {
    host = new URL(url).hostname
  } catch {
    // Not a URL the client would have taken; the adapters still tell.
  }
  for (const [suffix, name] of HOSTS) if (host === suffix || host.endsWith(`.${suffix}`) || host.endsWith(`-${suffix}`)) return name
  const family = adapters.filter((name) => name !== 'openai').at(-1) ?? adapters[0]
  return family === undefined ? 'openai_compatible' : (FAMILIES[family] ?? family)
}
