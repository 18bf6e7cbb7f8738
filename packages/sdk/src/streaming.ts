// `@wildcall/sdk/streaming`: `client.stream()` for a `@wildcall/sdk/core` client, passed in
// `createClient({ streaming })` the way readers are, so a core bundle that never streams leaves it out.
export { streaming } from './client/streaming'
export type { Streaming } from './client/config'
export type { StreamRun } from './client/stream-run'
