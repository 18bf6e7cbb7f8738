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

/** One line per change, in the style of a unified diff: `+ path: value`, `- path: value`, `~ path: a → b`. */
export function formatChanges(changes: JsonChange[], maxValueLength = 120): string[] {
  const show = (value: unknown) => {
    const text = value === undefined ? 'undefined' : JSON.stringify(value)
    return text.length > maxValueLength ? `${text.slice(0, maxValueLength - 1)}…` : text
  }
  return changes.map((change) => {
    if (change.kind === 'added') return `+ ${change.path}: ${show(change.after)}`
    if (change.kind === 'removed') return `- ${change.path}: ${show(change.before)}`
    return `~ ${change.path}: ${show(change.before)} → ${show(change.after)}`
  })
}
