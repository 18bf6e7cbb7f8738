// `@wildcall/sdk/readers`: the built-in readers, to pass to a `@wildcall/sdk/core` client or to an
// adapter's `readers`. Each is a plain object; unused ones are left out of a bundle.
export { builtInReaders, jsonReader, bareNameReader } from './repair/extract-calls'
export { decodeArgument } from './repair/decode-value'
export { gemmaReader, glmReader, hermesReader, keyValueReader, kimiK3Reader, minimaxM3Reader, namedElementReader, pythonicReader, specialTokenReader, xmlCallReader, xmlTreeReader, yamlReader } from './repair/readers'
