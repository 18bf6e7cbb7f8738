/** Markdown code fences (``` or ~~~): paired once per text, so a reader can tell a call written in one (fix `fenced`). */
import { MAX_CALLS } from './limits'

/** A fenced block: its markers, its info string and its body. */
export interface Fence {
  start: number
  /** Offset just after the closing marker (or the end of the text). */
  end: number
  /** The info string in lower case: `json`, `tool_code`, `python`, ``. */
  language: string
  bodyStart: number
  bodyEnd: number
}

/** Pairs ``` (or ~~~) markers into fences, in one pass. */
export function findFences(text: string): Fence[] {
  const fences: Fence[] = []
  let index = text.indexOf('```')
  if (index < 0) index = text.indexOf('~~~')
  while (index >= 0 && fences.length < MAX_CALLS * 4) {
    const marker = text.slice(index, index + 3)
    const lineEnd = text.indexOf('\n', index + 3)
    const infoEnd = lineEnd < 0 ? text.length : lineEnd
    const info = text.slice(index + 3, infoEnd)
    // An opening marker's info string is one word (or none); anything else means the body starts
    // right away. The word and the spaces after it form one optional group, so no two runs of spaces
    // touch (that was quadratic on a long run of them).
    const opening = /^[ \t]*(?:([\w.+-]+)[ \t]*)?$/.exec(info)
    const language = opening?.[1]?.toLowerCase() ?? ''
    const bodyStart = opening ? Math.min(text.length, infoEnd + 1) : index + 3
    const close = text.indexOf(marker, bodyStart)
    const bodyEnd = close < 0 ? text.length : close
    const end = close < 0 ? text.length : close + 3
    fences.push({ start: index, end, language, bodyStart, bodyEnd })
    if (close < 0) break
    index = text.indexOf(marker, end)
  }
  return fences
}

/** The fence around `position`, if any. */
export function fenceAround(context: { readonly fences: readonly Fence[] }, position: number): Fence | undefined {
  for (const fence of context.fences) if (position >= fence.bodyStart && position < fence.bodyEnd) return fence
  return undefined
}
