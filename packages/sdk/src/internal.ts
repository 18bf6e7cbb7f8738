// `@wildcall/sdk/internal`: helpers that sibling packages (the CLI, adapters) need but users should
// not build on. No semver promise: they may change in any release.
export { buildRequest } from './client/build-request'
export type { BuildRequestInput } from './client/build-request'
export { resolveEndpoint } from './client/resolve-endpoint'
export { classifyHttpError, readProviderError, refusesTools } from './errors/classify-http'
export type { ProviderErrorDetail } from './errors/classify-http'
export { trimEndOf } from './text/trim-end-of'
export { hermesPrompt, toPromptBody } from './client/prompt-mode'
