import { testReader } from '../../testing/test-reader'
import { templateRenderers as render } from '../__fixtures__/template-renderers'
import { bareNameReader, gemmaReader, glmReader, hermesReader, keyValueReader, kimiK3Reader, minimaxM3Reader, namedElementReader, pythonicReader, specialTokenReader, xmlCallReader, xmlTreeReader, yamlReader, jsonReader } from '.'

// Every built-in reader passes the conformance kit, once per family template it reads.
const flat = [
  { name: 'scroll', args: { down: true, num_pages: 2 } },
  { name: 'click_element_by_index', args: { index: 3 } },
  { name: 'input_text', args: { index: 7, text: 'hello' } },
]
const plainText = [
  { name: 'search', args: { query: 'weather in Paris', limit: 5 } },
  { name: 'click_element_by_index', args: { index: 3 } },
  { name: 'input_text', args: { text: 'line one\nline two', clear: true } },
]

testReader(hermesReader, { render: render.hermes })
testReader(xmlCallReader, { render: render.qwen3Coder, scalars: 'text' })
testReader({ ...xmlCallReader, name: 'xml-call-minimax' }, { render: render.minimaxM2, scalars: 'text' })
testReader({ ...xmlCallReader, name: 'xml-call-dsml' }, { render: render.dsml })
// A GLM call without arguments (`<tool_call>done\n</tool_call>`) is a bare name in a wrapper: the
// Hermes reader reads it, which is why the GLM adapter declares both.
testReader(glmReader, { render: render.glm46, scalars: 'text', calls: [...plainText, { name: 'search', args: { query: 'a\nb<c', filter: { tags: ['a'] } } }] })
testReader(specialTokenReader, { render: render.mistral })
testReader({ ...specialTokenReader, name: 'special-tokens-kimi' }, { render: render.kimi })
testReader({ ...specialTokenReader, name: 'special-tokens-deepseek' }, { render: render.deepseekV31 })
testReader(gemmaReader, { render: render.gemma4 })
testReader(kimiK3Reader, { render: render.kimiK3 })
// M3 writes every value as element text, typed only by the schema (which the kit does not pass): leaves come back as text.
testReader(minimaxM3Reader, { render: render.minimaxM3, scalars: 'text', calls: [...plainText, { name: 'search', args: { query: 'a\nb<c & "d"', filter: { tags: ['a', 'b c'] } } }] })
testReader(pythonicReader, { render: render.llama4 })
testReader(jsonReader, { render: render.json })
// YAML scalars stay text for the schema-guided decoder; a YAML answer is one document.
testReader(yamlReader, { render: render.yaml, scalars: 'text', several: false })
testReader(keyValueReader, { render: render.keyValue, scalars: 'text', calls: flat })
testReader(namedElementReader, { render: render.namedElement, scalars: 'text', calls: plainText })
testReader(xmlTreeReader, { render: render.xmlTree, scalars: 'text', calls: plainText })
testReader(bareNameReader, { render: ({ name }) => `\`${name}\``, calls: [{ name: 'done', args: {} }, { name: 'wait', args: {} }], several: false })
