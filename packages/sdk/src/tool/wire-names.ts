import { InvokeError } from '../errors/invoke-error'

/**
 * The name a tool is sent under: its own name when the OpenAI API accepts it (1 to 64 letters,
 * digits, `_` or `-`), else every other character as `_` (`Calendar.create_event` →
 * `Calendar_create_event`). A name over 64 characters, an empty one, or one with characters beyond
 * printable ASCII (whose `_`s would say little and collide easily) keeps its start and gets a hash
 * of the whole: the same name maps the same way in every run and process.
 */
export function toWireName(name: string): string {
  const safe = name.replace(/[^\w-]/g, '_')
  if (safe.length <= 64 && /^[\x20-\x7e]+$/.test(name)) return safe
  // FNV-1a over the UTF-16 code units: short, stable, and nothing to download.
  let hash = 0x811c9dc5
  for (let index = 0; index < name.length; index++) hash = Math.imul(hash ^ name.charCodeAt(index), 0x01000193)
  const suffix = `_${(hash >>> 0).toString(36)}`
  return safe.slice(0, 64 - suffix.length) + suffix
}

// Keyed by the tool set: computed once, checked against its names (a set may gain tools between steps).
const byToolSet = new WeakMap<object, [names: string[], toOwn: Map<string, string> | undefined]>()

/**
 * For a tool set with names the OpenAI API refuses: each tool's wire name → its own name (the
 * unchanged ones too). `undefined` when it accepts them all, the usual case: then nothing is mapped
 * anywhere. Two names sent under the same name are a `config_error` that names both.
 */
export function wireNames(tools: object): Map<string, string> | undefined {
  const names = Object.keys(tools)
  const cached = byToolSet.get(tools)
  if (cached?.[0].length === names.length && cached[0].every((name, index) => name === names[index])) return cached[1]
  let toOwn: Map<string, string> | undefined = new Map()
  let renamed = false
  for (const name of names) {
    const sent = toWireName(name)
    if (toOwn.has(sent)) throw new InvokeError('config_error', `invoke: tools "${toOwn.get(sent)}" and "${name}" are both sent as "${sent}": rename one.`)
    toOwn.set(sent, name)
    renamed ||= sent !== name
  }
  if (!renamed) toOwn = undefined
  byToolSet.set(tools, [names, toOwn])
  return toOwn
}
