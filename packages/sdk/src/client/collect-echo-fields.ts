import type { Adapter, EchoFields } from '../adapters/types'

/** The echo declarations of every adapter of a chain, merged. */
export interface ResolvedEchoFields {
  message: readonly string[]
  toolCall: readonly string[]
}

/** Merges the {@link EchoFields} the adapters of a client declare (a field named twice counts once). */
export function collectEchoFields(chain: readonly Adapter[]): ResolvedEchoFields {
  const message = new Set<string>()
  const toolCall = new Set<string>()
  for (const adapter of chain) {
    const echo: EchoFields | undefined = adapter.echoFields
    for (const field of echo?.message ?? []) message.add(field)
    for (const field of echo?.toolCall ?? []) toolCall.add(field)
  }
  return { message: [...message], toolCall: [...toolCall] }
}
