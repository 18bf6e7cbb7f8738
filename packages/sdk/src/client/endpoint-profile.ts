// What a client learnt about its endpoint, as it is saved and loaded (`EndpointProfile`).

/** What a client learnt to do with one field of the assistant turns it sends: echo it back, or strip it. */
export type MessageFieldRule = 'echo' | 'strip'

/**
 * Everything a client learnt about its endpoint (one base URL + model) from the endpoint's own
 * answers: plain, versioned JSON. Read it as `client.profile` (the `learned` event fires when it
 * changes), save it where you like, and pass it back as `createClient({ profile })`: the new client
 * then skips every request that failed before. An entry that stops being true is corrected after
 * one failure, as it was learnt.
 *
 * @example
 * ```ts
 * const client = createClient({ baseURL, model, profile: localStorage.getItem('wildcall-profile') })
 * client.events.on('learned', ({ profile }) => localStorage.setItem('wildcall-profile', JSON.stringify(profile)))
 * // e.g. { version: 1, baseURL: 'http://localhost:1234/v1', model: 'acme-reasoner-2', fields: [{ field: 'parallel_tool_calls' }],
 * //        toolChoice: 'required', messageFields: { reasoning_content: 'echo' } }
 * ```
 */
export interface EndpointProfile {
  version: 1
  /** The base URL it was learnt at (as the client resolved it: no query, no trailing slash). */
  baseURL: string
  model: string
  /** Request fields the endpoint refused (dropped), or wanted under another name (`rename`). */
  fields: Array<{ field: string; rename?: string }>
  /** The `tool_choice` form the endpoint took after refusing a named one: `'required'`, or `'auto'` (none sent; the prompt asks for the call). */
  toolChoice?: 'required' | 'auto'
  /** Fields of history turns the endpoint wants back (`echo`) or refuses (`strip`). */
  messageFields: Record<string, MessageFieldRule>
  /** `'prompt'` once the endpoint refused tools: they are described in the prompt instead. */
  toolMode?: 'prompt'
}
