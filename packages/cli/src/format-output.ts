const REDACTED = '[REDACTED]'

/** Replaces every occurrence of the API key, so a pasted report never leaks it. */
export function redactText(text: string, apiKey: string | undefined): string {
  return apiKey && text.includes(apiKey) ? text.split(apiKey).join(REDACTED) : text
}

/** Indents every line of `text`. */
export function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => prefix + line)
    .join('\n')
}

/**
 * One line for a call's arguments: a macro tool's action as `name {input}`, anything else as JSON.
 *
 * @example
 * describeAction({ next_goal: 'search', action: { input_text: { index: 1, text: 'hi' } } })
 * // 'input_text {"index":1,"text":"hi"}'
 */
export function describeAction(args: unknown): string {
  if (typeof args === 'object' && args !== null && 'action' in args) {
    const action = (args as { action: unknown }).action
    if (typeof action === 'object' && action !== null) {
      const [name] = Object.keys(action)
      if (name !== undefined) return `${name} ${JSON.stringify((action as Record<string, unknown>)[name])}`
    }
  }
  return JSON.stringify(args)
}

/** The reflection fields of a macro call (every string-valued key but `action`). */
export function describeReflection(args: unknown): Array<[string, string]> {
  if (typeof args !== 'object' || args === null) return []
  return Object.entries(args as Record<string, unknown>)
    .filter(([key, value]) => key !== 'action' && typeof value === 'string' && value !== '')
    .map(([key, value]) => [key, value as string])
}
