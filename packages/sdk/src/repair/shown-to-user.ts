/**
 * Which calls of an answer are shown to the user rather than made (examples, descriptions of the
 * tools, messages addressed to the user): the read stage leaves them out, and an answer addressed to
 * the user ends the turn.
 */
// Headers that address a message to the user — harmony's `final` channel (`assistantfinal` once its
// tokens are stripped) or recipient `to=user`, Functionary's `>>>all` — and, in the group, the tokens
// that end such a message or start the next one.
const TO_USER = /(?:<\|channel\|>|assistant)final|\bto=(?:user|all)\b|>>>all\b|(<\|(?:end|return|start)\|>|>>>)/g
// An introduction that gives the call to the user: "you invoke it", "you can call it", "you can use
// them as follows", "how to call it", "an example of calling", a `Usage:` label, an instruction
// ("Use the following call:").
const FOR_USER = /\byou(?:'d| would| can| could| should| may| might| will)? (?:\w+ )?(?:invoke|call|use)\b|\bhow to (?:call|use|invoke)\b|\bexample of (?:calling|using|invoking)\b|^\W*(?:usage|syntax)\b|^\W*(?:use|call|invoke|try|run) (?:the|this|these|it|them)\b/i
// An introduction that presents what follows as an illustration: `For example`, `an example`,
// `Example:`, `e.g.`, `would look like`, "I can call": only when text for the user follows the call.
const EXAMPLE = /\b(?:for|an) example\b|\bexamples?:|^\W*examples?\b|\be\.g\b|\bwould look\b|\bI can (?:\w+ )?(?:call|use|invoke)\b/i
// An introduction in which the model says it acts now ("I'll", "let me", "Searching …"): the call
// after it is made, whatever other words the sentence holds ("let me run an example search:").
const ACTING = /\b(?:I(?:'ll| will| shall|'m going to| am going to| need to| must)|let me|let's|we(?:'ll| will))\b|^\W*[a-z]+ing\b/i
// Markup, special tokens, fence markers and `key=value` headers (`to=NAME`): layout around a call, no text for anyone.
// regex-bounded: each alternative reads at most ~60 characters (test: packages/sdk/src/linear-time.test.ts)
const LAYOUT = /<[^<>\n]{0,60}>|```\w*|~~~\w*|\[\/?[A-Z_]{1,30}\]|\w{1,60}=[^\s<>]{0,60}/g

/** A call as the read stage found it: where it starts and ends, and the tool it names (if it names one). */
export interface PlacedCall {
  start: number
  end: number
  name?: string | undefined
}

/**
 * Whether `text` holds prose: three words or more, once markup, fences and tokens are taken out (a
 * format's own words between calls — `function`, `assistant to=NAME` — are none).
 */
const hasProse = (text: string) => (text.replace(LAYOUT, ' ').match(/\p{L}{2,}/gu)?.length ?? 0) >= 3

/**
 * Which calls of an answer are shown to the user rather than made, decided by the answer's structure:
 *
 * - a call inside a message the format addresses to the user;
 * - calls written one after another with no prose between are one group, which the prose before it
 *   introduces. A group the introduction gives to the user ("you can call it like so:", "Usage:") is
 *   shown; one it presents as an example ("For example,") is shown only when text for the user
 *   follows it. A call that ends the answer is not an example because of a word before it, and one
 *   the model introduces as its own act ("let me run an example search:") is made;
 * - an answer that describes the tools: groups of calls of at least two different tools, each
 *   introduced by its own prose that is not the model acting, and either followed by text for the user
 *   or each introduced by prose that names its tool or presents its call, are all shown (a list of
 *   calls, or calls each after "I'll …", is a step).
 *
 * `addressed` says whether the answer holds a message to the user at all (the turn then ends in an
 * answer: a draft in its reasoning is no call).
 *
 * @example
 * ```ts
 * const { shown } = shownToUser('For example, {"name": "search", "arguments": {}} finds pages.', [{ start: 13, end: 48, name: 'search' }])
 * shown // [true]
 * ```
 */
export function shownToUser(text: string, calls: readonly PlacedCall[] = []): { shown: boolean[]; addressed: boolean } {
  // Where messages to the user start and end, alternately, in text order.
  const edges: number[] = []
  for (const match of text.matchAll(TO_USER)) if (edges.length % 2 === (match[1] ? 1 : 0)) edges.push(match.index)
  const inMessage = (start: number) => edges.filter((edge) => edge <= start).length % 2 === 1
  const shown = calls.map((call) => inMessage(call.start))
  // Groups of calls with no prose between them: [first, last] indexes.
  const groups: Array<[number, number]> = []
  for (let index = 0; index < calls.length; index++) {
    const last = groups[groups.length - 1]
    if (last && !hasProse(text.slice(calls[index - 1]!.end, calls[index]!.start))) last[1] = index
    else groups.push([index, index])
  }
  const describing: Array<[number, number]> = []
  const described = new Set<string>()
  const endsInText = hasProse(text.slice(calls[calls.length - 1]?.end ?? text.length))
  // Whether every describing introduction names its tool or presents its call (else text must follow the last call).
  let presented = true
  let proseAfter = endsInText
  for (let group = groups.length - 1; group >= 0; group--) {
    const [first, last] = groups[group]!
    const intro = text.slice(first > 0 ? calls[first - 1]!.end : 0, calls[first]!.start)
    const lead = sentenceBefore(intro)
    const acting = ACTING.test(lead)
    const verdict = !acting && (FOR_USER.test(lead) || (proseAfter && EXAMPLE.test(lead)))
    for (let index = first; index <= last; index++) shown[index] ||= verdict
    if (!acting && hasProse(intro)) {
      describing.push([first, last])
      const names = calls.slice(first, last + 1).flatMap((call) => (call.name ? [call.name] : []))
      for (const name of names) described.add(name)
      const words = intro.slice(-300).toLowerCase()
      const wordList = words.split(/[^\w.-]+/)
      presented &&= EXAMPLE.test(lead) || FOR_USER.test(lead) || names.some((name) => wordList.includes(name.toLowerCase()) || (name.includes('_') && words.includes(name.toLowerCase().replaceAll('_', ' '))))
    }
    proseAfter ||= hasProse(intro)
  }
  if (describing.length > 1 && described.size > 1 && (endsInText || presented)) for (const [first, last] of describing) for (let index = first; index <= last; index++) shown[index] = true
  return { shown, addressed: edges.length > 0 }
}

/** The last sentence of the last line of prose in the last 300 characters of `intro` (not the fence opener around the call). */
function sentenceBefore(intro: string): string {
  let line = ''
  for (line of intro.slice(-300).split('\n').reverse()) if (/[^\s`]/.test(line.replace(/^\s*```\w*/, ''))) break
  return line.split(/[.!?] (?=[A-Z])/).pop()!
}
