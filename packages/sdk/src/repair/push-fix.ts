/** Fix codes: recorded once, and those a call read from text brings. Every stage and reader notes its repairs here. */
import type { ExtractedCall } from './reader'

/** Adds a fix code once, keeping first-seen order. */
export function pushFix(fixes: string[], code: string): void {
  if (!fixes.includes(code)) fixes.push(code)
}

/** The fixes of a call read from text: its format, the reader's own, and `reader:<name>` when a reader is named. */
export const foundFixes = (call: ExtractedCall): string[] => [call.format, ...call.fixes, ...(call.reader ? [`reader:${call.reader}`] : [])]
