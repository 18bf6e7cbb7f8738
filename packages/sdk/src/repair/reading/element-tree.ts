/**
 * An element sequence read as the object it spells (`<name>scroll</name><arguments><down>true</down>
 * </arguments>` → `{ name: 'scroll', arguments: { down: 'true' } }`): child elements are keys, a
 * repeated element collects into a list, leaves are text laid out {@link ON_OWN_LINE} and decoded
 * without a schema. Used by the xml-tree reader and by xml-call for a call whose body is elements of
 * any name; `toObject` also builds MiniMax M3's objects.
 */
import { isRecord } from '../../util/is-record'
import { setOwn } from '../../util/set-own'
import { pushFix } from '../push-fix'
import { decodeValue } from './decode-value'
import { elementText } from './element-text'
import { ON_OWN_LINE, valueText } from './xml-value-text'
import { CALL_TAG_HINT, PARAMETER_TAGS, WRAPPER_TAGS } from './xml-tags'

// Any element, for the tree reader: `<name attr="…">`, `</name>`, `<name/>`. Bounded, anchored on `<`,
// and no `\s*` before the `>`: it traded a run of spaces with the attribute text (1 s on 100 kB).
// regex-bounded: a match attempt reads at most ~510 characters from its `<` and stops at the next `<` (test: packages/sdk/src/linear-time.test.ts)
const ELEMENT = /<(\/?)(?:[A-Za-z_][\w-]{0,40}:)?([A-Za-z_][\w.-]{0,60})((?:\s[^<>]{0,400})?)(\/?)>/g
const MAX_TREE_ELEMENTS = 512
const MAX_TREE_DEPTH = 32

interface TreeFrame {
  key: string
  local: string
  at: number
  children: Array<[string, unknown]>
}

/**
 * The object an element sequence spells, descending through lone call/wrapper elements; undefined when
 * malformed. With `open`, elements left open at `to` close there when every value in them closed
 * (`'truncated'` when the text stops inside a value of a call).
 */
export function readElementTree(text: string, from: number, to: number, fixes: string[], open = false): unknown {
  const root: TreeFrame = { key: '', local: '', at: from, children: [] }
  const stack: TreeFrame[] = [root]
  const pattern = new RegExp(ELEMENT.source, 'g')
  pattern.lastIndex = from
  let count = 0
  for (let match = pattern.exec(text); match && match.index < to; match = pattern.exec(text)) {
    if (++count > MAX_TREE_ELEMENTS) return undefined
    const local = match[2]!.toLowerCase()
    const top = stack[stack.length - 1]!
    if (match[1] === '/') {
      if (top === root) return undefined
      if (top.local !== local) {
        // A leaf left open inside the element this tag closes (`<query>x</arguments>`): it ends here.
        const parent = stack[stack.length - 2]!
        if (top.children.length > 0 || parent === root || parent.local !== local) return undefined
        stack.pop()
        parent.children.push([top.key, decodeValue(valueText(text.slice(top.at, match.index), ON_OWN_LINE), undefined, fixes)])
        pushFix(fixes, 'closed-element')
        pattern.lastIndex = match.index
        continue
      }
      stack.pop()
      const inner = valueText(text.slice(top.at, match.index), ON_OWN_LINE)
      let value: unknown
      if (top.children.length > 0) {
        value = toObject(top.children)
        elementText.set(value as object, inner)
      } else value = decodeValue(inner, undefined, fixes)
      stack[stack.length - 1]!.children.push([top.key, value])
      continue
    }
    const nameAttribute = /\bname\s*=\s*["']([^"']{1,80})["']/.exec(match[3] ?? '')?.[1]
    const key = PARAMETER_TAGS.has(local) && nameAttribute ? nameAttribute : match[2]!
    if (match[4] === '/') {
      top.children.push([key, ''])
      continue
    }
    if (stack.length > MAX_TREE_DEPTH) return undefined
    stack.push({ key, local, at: match.index + match[0].length, children: [] })
  }
  while (open && stack.length > 1) {
    const top = stack.pop()!
    if (top.children.length === 0) return stack.length > 1 || root.children.length > 0 ? 'truncated' : undefined
    stack[stack.length - 1]!.children.push([top.key, toObject(top.children)])
  }
  if (stack.length !== 1 || root.children.length === 0) return undefined
  let children = root.children
  // `<function_calls><invoke>…</invoke></function_calls>`: the lone call element is the call.
  while (children.length === 1 && isRecord(children[0]![1]) && (WRAPPER_TAGS.has(children[0]![0].toLowerCase()) || CALL_TAG_HINT.test(children[0]![0].toLowerCase()))) {
    children = Object.entries(children[0]![1] as Record<string, unknown>)
  }
  // Several call elements side by side are several calls.
  if (children.length > 1 && children.every(([key, value]) => key === children[0]![0] && isRecord(value)) && CALL_TAG_HINT.test(children[0]![0].toLowerCase())) {
    return children.map(([, value]) => value)
  }
  return toObject(children)
}

/** Children as an object; a repeated element becomes an array. Keys are set as own data properties. */
export function toObject(children: ReadonlyArray<[string, unknown]>): Record<string, unknown> {
  const object: Record<string, unknown> = {}
  for (const [key, value] of children) {
    if (Object.hasOwn(object, key)) {
      const existing = object[key]
      setOwn(object, key, Array.isArray(existing) ? [...existing, value] : [existing, value])
    } else setOwn(object, key, value)
  }
  return object
}
