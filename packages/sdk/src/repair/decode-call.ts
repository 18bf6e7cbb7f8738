/**
 * The decode stage, a candidate's first: its arguments as a value ({@link decodeArguments}), its name
 * trimmed. Argument text that is no JSON and no `key=value` text of the named tool comes back in
 * {@link UnusableArguments}, for the readers to try as a call written in text.
 */
import type { DroppedCall } from '../types'
import { sanitizeValue } from './coerce'
import { decodeArguments } from './decode-arguments'
import { previewValue, unclosedMessage } from './describe-issue'
import { fieldsOf, findTool, Rank, type Context, type Failure } from './repair-context'
import type { RawCall } from './unwrap'

/** A candidate with its arguments as a value: what the later stages take, fill in and hand on. */
export interface DecodedCall {
  name: string | undefined
  id: string | undefined
  args: unknown
  /** The candidate's fixes, copied: every later stage adds to this list. */
  fixes: string[]
  /** Calls found inside this one and not taken (extra envelopes, extra actions). */
  dropped: DroppedCall[]
}

/**
 * Arguments that cannot be used. With `text` (and the candidate's trimmed `name`): argument text that
 * is not JSON, maybe a call written as text; the candidate's fixes are its own then, nothing was decoded.
 */
export interface UnusableArguments extends Failure {
  text?: string
  name?: string | undefined
}

export function decodeCall(raw: RawCall, context: Context): DecodedCall | UnusableArguments {
  const fixes = [...raw.fixes]
  const name = raw.name?.trim() || undefined
  if (raw.unreadable) return { rank: Rank.Invalid, message: `The arguments of "${name}" hold a value no reading takes: ${previewValue(raw.args)}.` }
  const decoded = decodeArguments(raw.args, fixes, () => fieldsOf(name, context))
  // Arguments of a known tool that cannot be read are invalid; of no tool, no call at all.
  const rank = () => (name && findTool(name, context) ? Rank.Invalid : Rank.NoTool)
  if ('unclosed' in decoded) {
    context.unclosed = true
    return { rank: rank(), message: unclosedMessage(name) }
  }
  if ('unparseable' in decoded) {
    return { rank: rank(), message: `The arguments of "${name ?? 'the call'}" are not JSON: ${previewValue(decoded.unparseable)}.`, text: decoded.unparseable, name }
  }
  return { name, id: raw.id, args: sanitizeValue(decoded.value, fixes), fixes, dropped: [] }
}
