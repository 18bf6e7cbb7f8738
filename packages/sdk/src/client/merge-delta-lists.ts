import { isRecord } from '../util/is-record'

/**
 * Accumulates the list fields of stream deltas that the assembler has no own rule for (OpenRouter's
 * and MiniMax's `reasoning_details`): entries that carry the same `index` (and `type`) are one entry
 * sent in pieces, so their string fields are joined and other fields kept from the first piece that
 * had them; entries without an `index` are appended. The result is what a whole response would have
 * carried, so a history can echo it.
 *
 * @example
 * ```ts
 * const lists = createDeltaLists(new Set(['role', 'content']))
 * lists.push({ reasoning_details: [{ type: 'reasoning.text', index: 0, text: 'Look ' }] })
 * lists.push({ reasoning_details: [{ type: 'reasoning.text', index: 0, text: 'first.', signature: 's' }] })
 * lists.result() // { reasoning_details: [{ type: 'reasoning.text', index: 0, text: 'Look first.', signature: 's' }] }
 * ```
 */
export function createDeltaLists(known: ReadonlySet<string>) {
  const lists = new Map<string, Array<Record<string, unknown>>>()
  // Entries by list, type and index: finding the entry a piece belongs to stays O(1).
  const byIndex = new Map<string, Record<string, unknown>>()
  return {
    push(delta: Record<string, unknown>): void {
      for (const key in delta) {
        const value = delta[key]
        if (!Array.isArray(value) || known.has(key) || key === '__proto__') continue
        let list = lists.get(key)
        if (!list) lists.set(key, (list = []))
        for (const item of value) {
          if (!isRecord(item)) continue
          const slot = item.index === undefined ? undefined : `${key}\u0000${String(item.type)}\u0000${String(item.index)}`
          const same = slot === undefined ? undefined : byIndex.get(slot)
          if (!same) {
            const entry = { ...item }
            list.push(entry)
            if (slot !== undefined) byIndex.set(slot, entry)
            continue
          }
          for (const field in item) {
            const piece = item[field]
            if (field === '__proto__' || piece === undefined || piece === null) continue
            if (typeof piece === 'string' && typeof same[field] === 'string' && field !== 'type' && field !== 'id' && field !== 'format') same[field] += piece
            else same[field] ??= piece
          }
        }
      }
    },
    /** The accumulated lists, by field name (empty lists left out). */
    result(): Record<string, unknown> {
      const out: Record<string, unknown> = {}
      for (const [key, list] of lists) if (list.length > 0) out[key] = list
      return out
    },
  }
}
