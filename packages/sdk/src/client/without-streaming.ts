import { InvokeError } from '../errors/invoke-error'
import type { StreamingSupport } from './client-state'
import { eventBodyOf } from './read-body'

/**
 * The streaming of a `@wildcall/sdk/core` client not given `streaming`: each use says to pass it.
 * A body of stream events sent to a plain request is refused as not retryable: the same server
 * answers the same way again.
 */
export const withoutStreaming: StreamingSupport = {
  name: 'streaming',
  stream() {
    throw new InvokeError('config_error', 'client.stream() needs streaming, which a "@wildcall/sdk/core" client leaves out unless given: pass `streaming` from "@wildcall/sdk/streaming" to createClient (or import createClient from "@wildcall/sdk", which streams out of the box).')
  },
  readEvents(_step, response, text) {
    if (!eventBodyOf(text)) return undefined
    throw new InvokeError(
      'invalid_response',
      'The server answered a plain request with stream events (SSE, or JSON lines of chunks), which this client cannot read. Pass `streaming` from "@wildcall/sdk/streaming" to createClient of "@wildcall/sdk/core" (or import createClient from "@wildcall/sdk"): it reads such bodies.',
      { status: response.status, rawResponse: text, retryable: false },
    )
  },
}
