import { toPromptBody, type PromptForm } from '../client/prompt-mode'
import { builtInReaders } from '../repair/extract-calls'
import type { Reader } from '../repair/reader'
import { repairWithReaders } from '../repair/repair-tool-call'
import { defineTool } from '../tool/define-tool'
import { jsonSchema } from '../tool/json-schema'
import { toolDefinition } from '../client/build-request'
import type { ToolSet } from '../tool/types'
import { ensure, ensureEqual } from './check'

// A tool of every value shape a call carries, and values that break naive renderers: quotes,
// backslashes, line breaks, markup, JSON-looking and number-looking strings, non-ASCII, negative and
// fractional numbers, empty and nested values.
const promptTools: ToolSet = {
  fill_form: defineTool({
    description: 'Fill in a form',
    inputSchema: jsonSchema({
      type: 'object',
      properties: {
        text: { type: 'string' },
        count: { type: 'integer' },
        ratio: { type: 'number' },
        flag: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'string' } },
        address: { type: 'object', properties: { street: { type: 'string' }, zip: { type: 'string' } }, required: ['street', 'zip'] },
      },
      required: ['text', 'count', 'flag'],
    }),
  }),
  done: defineTool({ description: 'Finish the task', inputSchema: jsonSchema({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }) }),
}

const PROMPT_CALLS: Array<{ name: string; args: Record<string, unknown> }> = [
  { name: 'done', args: { text: 'finished' } },
  { name: 'done', args: { text: '' } },
  { name: 'fill_form', args: { text: 'Grüße, "quoted" and a back\\slash', count: 3, flag: true } },
  { name: 'fill_form', args: { text: 'two\nlines\tand a tab', count: -7, ratio: 0.25, flag: false } },
  { name: 'fill_form', args: { text: '<b>bold</b> & <i>more</i>', count: 0, flag: true, tags: [] } },
  { name: 'fill_form', args: { text: '{"looks": "like JSON"}', count: 12, ratio: -1.5, flag: false, tags: ['a', 'b "c"'] } },
  { name: 'fill_form', args: { text: '42', count: 1, flag: true, address: { street: '1 Main St.', zip: '01234' } } },
  { name: 'fill_form', args: { text: 'true', count: 2, ratio: 1e-7, flag: false } },
  { name: 'done', args: { text: '  padded  🙂 日本語 ' } },
]

/**
 * Checks a family's prompt form (an adapter's `prompt`) against its readers: every call the form
 * renders, the way its tools block asks the model to write it, is read back by `readers` (then the
 * built-in set) with the same name and identical values; the tools block names every tool; and a
 * history rendered with the form keeps each tool result. Throws a plain `AssertionError` on the
 * first failure, so it runs under any test runner.
 *
 * @example
 * ```ts
 * import { checkPromptForm } from '@wildcall/sdk/testing'
 * it('should read back the calls its prompt asks for', () => checkPromptForm(acmeAdapter().prompt!, acmeAdapter().readers))
 * ```
 */
export function checkPromptForm(form: PromptForm, readers: readonly Reader[] = []): void {
  const functions = Object.keys(promptTools).map((name) => toolDefinition(name, promptTools[name]!).function)
  for (const named of [undefined, 'fill_form']) {
    const block = form.tools(functions, named)
    ensure(typeof block === 'string' && Object.keys(promptTools).every((name) => block.includes(name)), `prompt.tools() must return text that names every tool (got ${JSON.stringify(block)?.slice(0, 200)}).`)
  }
  for (const { name, args } of PROMPT_CALLS) {
    const content = `Doing it now.\n${form.call(name, args)}`
    let read: ReturnType<typeof repairWithReaders>
    try {
      read = repairWithReaders({ role: 'assistant', content }, promptTools, {}, [...readers, ...builtInReaders])
    } catch (error) {
      throw new Error(`The call prompt.call() rendered was not read back: ${(error as Error).message}\n  rendered: ${JSON.stringify(content)}`)
    }
    ensureEqual({ name: read.toolCall.name, args: read.toolCall.args }, { name, args }, `prompt.call() rendered ${JSON.stringify(content)}, which the readers read back differently`)
  }
  const results = ['first result', 'second "result"\nwith a line break']
  const body = toPromptBody(
    {
      model: 'm',
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'done', arguments: '{"text":"x"}' } }, { id: 'b', type: 'function', function: { name: 'done', arguments: '{"text":"y"}' } }] },
        { role: 'tool', tool_call_id: 'a', content: results[0]! },
        { role: 'tool', tool_call_id: 'b', content: results[1]! },
      ],
    },
    form,
  )
  const resultTurn = body.messages.at(-1)!
  const text = String(resultTurn.content)
  ensure(resultTurn.role === 'user' && text.indexOf(results[0]!) >= 0 && text.indexOf(results[1]!) > text.indexOf(results[0]!), `prompt.results() must keep every result, in call order, in one user message (got ${JSON.stringify(resultTurn)}).`)
}
