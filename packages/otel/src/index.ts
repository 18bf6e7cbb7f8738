export { instrument } from './instrument'
export type { InstrumentOptions } from './instrument'
