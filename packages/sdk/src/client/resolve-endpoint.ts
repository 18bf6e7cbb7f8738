import { trimEndOf } from '../text/trim-end-of'

/**
 * The request URL of a base URL: `/chat/completions` goes after the path and before the query
 * (Azure's `…/deployments/NAME?api-version=…`), and `query` adds parameters. `baseURL` and `host`
 * (what adapters match) leave the query out: it may carry a key.
 *
 * @example
 * ```ts
 * resolveEndpoint('https://x.openai.azure.com/openai/deployments/gpt-4o?api-version=2024-10-21').url
 * // 'https://x.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21'
 * ```
 */
export function resolveEndpoint(raw: string, extra?: Record<string, string>): { url: string; baseURL: string; host: string; query: Record<string, string> } {
  const parsed = new URL(raw.trim())
  const path = trimEndOf(parsed.pathname, '/')
  const baseURL = `${parsed.origin}${path}`
  for (const [name, value] of Object.entries(extra ?? {})) parsed.searchParams.set(name, value)
  const url = `${/\/chat\/completions$/.test(path) ? baseURL : `${baseURL}/chat/completions`}${parsed.search}`
  return { url, baseURL, host: parsed.host.toLowerCase(), query: Object.fromEntries(parsed.searchParams) }
}
