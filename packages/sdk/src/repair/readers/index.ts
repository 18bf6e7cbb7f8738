// The built-in markup readers, one module each. The JSON and bare-name readers and the full
// built-in set live in `../extract-calls` beside the JSON logic they run.
export { gemmaReader } from './gemma'
export { glmReader } from './glm'
export { hermesReader } from './hermes'
export { kimiK3Reader } from './kimi-k3'
export { keyValueReader } from './key-value'
export { minimaxM3Reader } from './minimax-m3'
export { namedElementReader } from './named-element'
export { pythonicReader } from './pythonic'
export { specialTokenReader } from './special-tokens'
export { xmlCallReader } from './xml-call'
export { xmlTreeReader } from './xml-tree'
export { yamlReader } from './yaml'
