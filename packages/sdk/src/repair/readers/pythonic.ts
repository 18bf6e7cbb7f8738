import { recognizePythonicCalls } from '../markup-pythonic'
import type { Reader } from '../reader'
import { readAlone, type BuiltInReader } from '../reading-context'

const reader: BuiltInReader = {
  name: 'pythonic',
  formats: ['tool-markup:pythonic', 'tool-markup:python-tag', 'tool-markup:tool-code'],
  stage: 'fallback',
  recognize: recognizePythonicCalls,
  read: (text, context) => readAlone(reader, text, context),
}

/**
 * Python-style calls: `[scroll(down=True)]` (Llama 4, Llama 3.2 pythonic), `<|python_start|>…`,
 * ```` ```tool_code ```` fences (Gemma). Outside such a context a call needs keyword arguments or a
 * known name, so `foo(5)` in prose is not one. Runs after the JSON values: `f(x)` inside a JSON
 * string is text.
 *
 * @example
 * ```ts
 * pythonicReader.read('[scroll(down=True)]', { names: new Set(['scroll']), claimed: () => false }) // [{ name: 'scroll', args: { down: true }, … }]
 * ```
 */
export const pythonicReader: Reader = reader
