import { isSpaceCode, isWordCode } from '../text/char-codes'

// Headers that address a message to the user: harmony's `final` channel (`assistantfinal` once its
// tokens are stripped) or recipient `to=user`, Functionary's `>>>all` and `<|recipient|>all`.
const TO_USER = /<\|channel\|>[ \t]*final\b|assistantfinal|\bto=(?:user|all)\b|(?:>>>|<\|recipient\|>)[ \t]*all\b/g
// Where such a message ends: the tokens that end or start a message, the next recipient.
const MESSAGE_END = /<\|(?:end|return|call|start|from|recipient|stop)\|>|>>>|assistant(?:commentary|analysis)/g
// The sentence that introduces a call as an example: `For example`, `e.g.`, `Usage:`, `how to call
// it`, `you would call`, `the call would look like`…
const EXAMPLE =
  /\bexamples?\b(?![.-]\w)|\be\.g\.|\bfor instance\b|^\W*(?:usage|syntax)\b|\bthe syntax\b|\bwould look like\b|\bhow (?:to|you)[ \t]+(?:can[ \t]+|would[ \t]+)?(?:call|invoke|use)\b|\byou(?:'d|[ \t]+(?:would|could|might))[ \t]+(?:invoke|call|use|run|write|send)\b/i
// …or tells the user to make it (`you invoke it like this`, `Use the following`). "I will call it
// like this:" and "so you can use it:" introduce a real call.
const YOU_CALL = /\byou(?:'ll|[ \t]+(?:can|may|should|need to|have to|just|then|will))*[ \t]+(?:invoke|call|use|run|send)\b|^\W*(?:to[ \t]+)?(?:invoke|call|use|run|send)\b/i
const LIKE_THIS = /\blike (?:this|so)\b|\bas follows\b|\bthe following\b/i
// A sentence break: the end of one sentence and the capital that starts the next.
const SENTENCE_BREAK = /[.!?][ \t]+(?=[A-Z])/g

/**
 * Which calls of an answer are shown to the user rather than made: those in a message the format
 * addresses to the user, and those the sentence right before presents as an example (also before the
 * fence around the call). Returns the test for a call's start offset.
 *
 * @example
 * ```ts
 * const shown = shownToUser('For example: {"name": "search", "arguments": {}}')
 * shown(13) // true
 * ```
 */
export function shownToUser(text: string): (start: number) => boolean {
  const ranges: Array<[number, number]> = []
  let end = -1
  for (const header of text.matchAll(TO_USER)) {
    const after = header.index + header[0].length
    // The next end is searched for once per message, not once per header: a flood stays linear.
    if (end < after) {
      MESSAGE_END.lastIndex = after
      end = MESSAGE_END.exec(text)?.index ?? text.length
      ranges.push([header.index, end])
    }
  }
  return (start) => {
    if (ranges.some(([from, to]) => start >= from && start < to)) return true
    const sentence = sentenceBefore(text, start)
    return EXAMPLE.test(sentence) || (YOU_CALL.test(sentence) && LIKE_THIS.test(sentence))
  }
}

/** The last sentence before `start` on its line, once the spaces, backticks and fence opener before the call are cut. */
function sentenceBefore(text: string, start: number): string {
  const floor = Math.max(0, start - 300)
  let end = start
  const skip = () => {
    while (end > floor && (isSpaceCode(text.charCodeAt(end - 1)) || text.charCodeAt(end - 1) === 96)) end--
  }
  skip()
  // A fence's info word (```json): the word, then its backticks.
  let word = end
  while (word > floor && isWordCode(text.charCodeAt(word - 1))) word--
  if (word < end && text.charCodeAt(word - 1) === 96) {
    end = word
    skip()
  }
  const window = text.slice(floor, end)
  const line = window.slice(window.lastIndexOf('\n') + 1)
  let from = 0
  for (const sentenceBreak of line.matchAll(SENTENCE_BREAK)) from = sentenceBreak.index + sentenceBreak[0].length
  return line.slice(from)
}
