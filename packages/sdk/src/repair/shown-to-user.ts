/**
 * Which calls of an answer are shown to the user rather than made (examples, messages addressed to
 * the user): the read stage leaves them out, and an answer addressed to the user ends the turn.
 */
// Headers that address a message to the user — harmony's `final` channel (`assistantfinal` once its
// tokens are stripped) or recipient `to=user`, Functionary's `>>>all` — and, in the group, the tokens
// that end such a message or start the next one.
const TO_USER = /(?:<\|channel\|>|assistant)final|\bto=(?:user|all)\b|>>>all\b|(<\|(?:end|return|start)\|>|>>>)/g
// A sentence that presents what follows as an example: `For example`, `an example`, `Example:`,
// `e.g.`, `Usage:`, `would look like`, `you invoke it`, `you would call`, `how to call it`. "I will
// call it:", "so you can use it:" and "about the example, I will search:" introduce a real call.
const EXAMPLE = /\b(?:for|an) example\b|\bexamples?:|^\W*(?:examples?|usage)\b|\be\.g\b|\bwould look\b|\b(?:you|how to)(?:'d)? (?:\w+ )?(?:invoke|call)\b/i

/**
 * Which calls of an answer are shown to the user rather than made: those in a message the format
 * addresses to the user, and those the sentence right before (or before their fence) presents as an
 * example. Returns the test for a call's start offset; `addressed` says whether the answer holds a
 * message to the user at all (the turn then ends in an answer: a draft in its reasoning is no call).
 *
 * @example
 * ```ts
 * const shown = shownToUser('For example: {"name": "search", "arguments": {}}')
 * shown(13) // true
 * shown.addressed // false
 * ```
 */
export function shownToUser(text: string): ((start: number) => boolean) & { addressed: boolean } {
  // Where messages to the user start and end, alternately, in text order.
  const edges: number[] = []
  for (const match of text.matchAll(TO_USER)) if (edges.length % 2 === (match[1] ? 1 : 0)) edges.push(match.index)
  return Object.assign((start: number) => edges.filter((edge) => edge <= start).length % 2 === 1 || EXAMPLE.test(sentenceBefore(text, start)), { addressed: edges.length > 0 })
}

/** The last sentence of the last line of prose within 300 characters before `start` (not the fence opener around the call). */
function sentenceBefore(text: string, start: number): string {
  let line = ''
  for (line of text.slice(Math.max(0, start - 300), start).split('\n').reverse()) if (/[^\s`]/.test(line.replace(/^\s*```\w*/, ''))) break
  return line.split(/[.!?] (?=[A-Z])/).pop()!
}
