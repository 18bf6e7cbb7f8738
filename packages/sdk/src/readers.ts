// `@wildcall/sdk/readers`: the built-in readers, to pass to a `@wildcall/sdk/core` client or to an
// adapter's `readers`. Each is a plain object; unused ones are left out of a bundle.
export { decodeArgument } from './repair/reading/decode-value'
export { builtInReaders, jsonReader, bareNameReader, gemmaReader, glmReader, hermesReader, keyValueReader, kimiK3Reader, minimaxM3Reader, namedElementReader, pythonicReader, specialTokenReader, xmlCallReader, xmlTreeReader, yamlReader } from './repair/readers'
