/**
 * A whole answer that is only a known action name (`done`, `` `wait` ``, `**done**.`): that action with
 * no arguments (`bare-name`). Quotes, backticks, asterisks and closing punctuation around the name are
 * layout. Only for short answers (256 characters at most) in which no other reader found anything.
 */
import { trimEndOf } from '../../text/trim-end-of'
import { cleanToolName } from '../match-tool-name'
import { addFound, readAlone, type BuiltInReader, type ExtractionContext } from '../reading/reading-context'

/** A whole answer that is only a known action name (`done`, `` `wait` ``): that action, no arguments. */
export function recognizeBareName(context: ExtractionContext): void {
  if (context.found.length > 0 || !context.names || context.text.length > 256) return
  const bare = trimEndOf(context.text.trim().replace(/^[`'"*]+/, ''), '`\'"*.!').trim()
  const name = cleanToolName(bare, context.names)
  if (context.names.has(name)) addFound(context, { name, args: {}, format: 'bare-name', fixes: [], start: context.text.indexOf(bare) }, context.text.length)
}

/**
 * A whole answer that is only a known action name (`done`, `` `wait` ``): that action with no
 * arguments (`bare-name`). Only for short answers in which nothing else was found.
 *
 * @example
 * ```ts
 * bareNameReader.read('`done`', { names: new Set(['done']), claimed: () => false }) // [{ name: 'done', args: {}, … }]
 * ```
 */
export const bareNameReader: BuiltInReader = {
  name: 'bare-name',
  formats: ['bare-name'],
  stage: 'fallback',
  recognize: recognizeBareName,
  read: (text, context) => readAlone(bareNameReader, text, context),
}
