/** One difference between two JSON values, at a path such as `tools[0].function.parameters`. */
export interface JsonChange {
  path: string
  kind: 'added' | 'removed' | 'changed'
  before?: unknown
  after?: unknown
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

function child(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`
  return /^[A-Za-z_$][\w$]*$/.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`
}

/**
 * Lists what differs between two JSON values, deepest first reached: objects key by key, arrays
 * index by index, anything else by value. Used to show what adapters changed in a request body.
 */
export function diffJson(before: unknown, after: unknown, path = ''): JsonChange[] {
  if (Object.is(before, after)) return []
  if (Array.isArray(before) && Array.isArray(after)) {
    const changes: JsonChange[] = []
    const length = Math.max(before.length, after.length)
    for (let index = 0; index < length; index++) {
      if (index >= after.length) changes.push({ path: child(path, index), kind: 'removed', before: before[index] })
      else if (index >= before.length) changes.push({ path: child(path, index), kind: 'added', after: after[index] })
      else changes.push(...diffJson(before[index], after[index], child(path, index)))
    }
    return changes
  }
  if (isObject(before) && isObject(after)) {
    const changes: JsonChange[] = []
    for (const key of Object.keys(before)) {
      if (!Object.prototype.hasOwnProperty.call(after, key)) changes.push({ path: child(path, key), kind: 'removed', before: before[key] })
      else changes.push(...diffJson(before[key], after[key], child(path, key)))
    }
    for (const key of Object.keys(after)) {
      if (!Object.prototype.hasOwnProperty.call(before, key)) changes.push({ path: child(path, key), kind: 'added', after: after[key] })
    }
    return changes
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return []
  return [{ path: path || '(body)', kind: 'changed', before, after }]
}

// Characters of the shared start kept before a string's change, to show where it is.
const CONTEXT = 20

/**
 * One line per change, in the style of a unified diff: `+ path: value`, `- path: value`, `~ path: a → b`.
 * Two strings with a long start in common are shown from just before they differ (`…`), so a block
 * appended to a message is seen, not cut off at the same place on both sides.
 */
export function formatChanges(changes: JsonChange[], maxValueLength = 120): string[] {
  const cut = (text: string) => (text.length > maxValueLength ? `${text.slice(0, maxValueLength - 1)}…` : text)
  const show = (value: unknown) => cut(value === undefined ? 'undefined' : JSON.stringify(value))
  // A string from `from` on, marked as the end of a longer one.
  const tail = (text: string, from: number) => (from > 0 ? cut(`…"${JSON.stringify(text.slice(from)).slice(1)}`) : show(text))
  return changes.map(({ kind, path, before, after }) => {
    if (kind === 'added') return `+ ${path}: ${show(after)}`
    if (kind === 'removed') return `- ${path}: ${show(before)}`
    if (typeof before !== 'string' || typeof after !== 'string') return `~ ${path}: ${show(before)} → ${show(after)}`
    let same = 0
    while (same < before.length && before[same] === after[same]) same++
    const from = same > CONTEXT ? same - CONTEXT : 0
    // Text appended to the end: the end of the old text, then what was added, whole from its start.
    if (same === before.length) return `~ ${path}: ${tail(before, from)} + ${show(after.slice(same))}`
    return `~ ${path}: ${tail(before, from)} → ${tail(after, from)}`
  })
}
