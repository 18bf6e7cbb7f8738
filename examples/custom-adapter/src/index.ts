export { acmeAdapter } from './acme-adapter'
export type { AcmeAdapterOptions } from './acme-adapter'
export { acmeReader } from './acme-reader'
