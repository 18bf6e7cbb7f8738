import { isRecord } from '../util/is-record'
import { tryParseJson } from '../util/try-parse-json'
import type { ClientState } from './client-state'
import { ESSENTIAL, type FieldChange } from './adapt-to-rejected-field'
import { TURN_FIELDS } from './adapt-to-message-field'
import type { EndpointProfile } from './endpoint-profile'

/**
 * The profile of what `state` learnt so far (a fresh object each time).
 *
 * @example
 * ```ts
 * readProfile(state) // { version: 1, baseURL, model, fields: [], messageFields: {} } before anything is learnt
 * ```
 */
export function readProfile(state: ClientState): EndpointProfile {
  const { baseURL, model } = state.match
  const profile: EndpointProfile = { version: 1, baseURL, model, fields: [], messageFields: { ...state.messageFields } }
  for (const { field, rename, required } of state.fieldChanges) {
    if (field === 'tool_choice') profile.toolChoice = required && profile.toolChoice !== 'auto' ? 'required' : 'auto'
    else profile.fields.push(rename ? { field, rename } : { field })
  }
  if (state.promptMode) profile.toolMode = 'prompt'
  return profile
}

/**
 * Tells the client's listeners that its profile changed (`learned` event). Call it after changing
 * what the client learnt (`fieldChanges`, `messageFields`, `promptMode`).
 *
 * @example
 * ```ts
 * state.promptMode = true
 * noteLearned(state, step.callId)
 * ```
 */
export function noteLearned(state: ClientState, callId: string): void {
  state.events.emit('learned', { callId, profile: readProfile(state) })
}

const isName = (value: unknown): boolean => typeof value === 'string' && /^[a-z]\w*$/i.test(value) && !ESSENTIAL.has(value) && !TURN_FIELDS.has(value)

/**
 * Starts `state` from a saved profile (an object, or its JSON text; `null`/`undefined` for none). A
 * profile that is corrupt, outdated or saved for another base URL or model changes nothing: the
 * logger is told why (the console when there is no logger), and the client learns afresh.
 *
 * @example
 * ```ts
 * loadProfile(state, JSON.parse(readFileSync('profile.json', 'utf8')))
 * ```
 */
export function loadProfile(state: ClientState, saved: unknown): void {
  if (saved == null) return
  const profile = (typeof saved === 'string' ? tryParseJson(saved) : saved) as EndpointProfile
  let problem = 'not a wildcall profile of version 1'
  if (isRecord(profile) && profile.version === 1) {
    problem = `saved for "${profile.model}" at ${profile.baseURL}`
    if (profile.baseURL === state.match.baseURL && profile.model === state.match.model) {
      problem = 'corrupt'
      try {
        const { fields, toolChoice, messageFields, toolMode } = profile
        const fieldChanges: FieldChange[] = fields.map(({ field, rename }) => (rename ? { field, rename } : { field }))
        if (toolChoice) fieldChanges.push(toolChoice === 'required' ? { field: 'tool_choice', required: true } : { field: 'tool_choice' })
        const learned = { fieldChanges, messageFields: { ...messageFields }, promptMode: toolMode === 'prompt' }
        // What reads back exactly as saved, with names that can only be fields of the request or of a turn: nothing else is applied.
        const valid =
          [...fieldChanges.flatMap(({ field, rename }) => [field, rename ?? field]), ...Object.keys(messageFields)].every((name) => name === 'tool_choice' || isName(name)) &&
          Object.values(messageFields).every((rule) => rule === 'echo' || rule === 'strip') &&
          JSON.stringify(readProfile({ ...state, ...learned })) === JSON.stringify(profile)
        if (valid) return void Object.assign(state, learned)
      } catch {
        // A shape that does not even destructure is corrupt too.
      }
    }
  }
  // The user who saved it must learn why the first request fails again: the console without a logger.
  ;(state.config.logger ?? console).warn(`[wildcall] Ignored the saved profile (${problem}): the client learns afresh.`)
}
