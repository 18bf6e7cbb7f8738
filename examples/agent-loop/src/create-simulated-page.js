// A tiny shop page held in memory: what a browser agent would see, as numbered interactive elements.
// It stands in for a real browser so the loop is easy to follow and runs anywhere.

const CATALOG = [
  { name: 'Trail Runner 2', price: 89, tags: ['trail', 'shoes', 'running'] },
  { name: 'Summit Hiker GTX', price: 149, tags: ['trail', 'shoes', 'hiking', 'boots'] },
  { name: 'City Sneaker', price: 59, tags: ['shoes', 'city'] },
  { name: 'Trail Socks (3 pack)', price: 15, tags: ['trail', 'socks'] },
]

/**
 * Creates the simulated page. `observe()` renders it for the model, `act(name, input)` performs one
 * action and returns what happened (or throws, which the SDK reports as `tool_execution_error`).
 *
 * @example
 * const page = createSimulatedPage()
 * page.act('input_text', { index: 1, text: 'trail shoes' })
 * page.act('click_element_by_index', { index: 2 })
 * console.log(page.observe())
 */
export function createSimulatedPage() {
  const state = { url: 'https://shop.example/', query: '', results: [], product: undefined }

  function elements() {
    if (state.product) {
      return [
        { kind: 'button', label: 'Add to cart' },
        { kind: 'link', label: 'Back to results' },
      ]
    }
    return [
      { kind: 'input', label: 'Search products', value: state.query },
      { kind: 'button', label: 'Search' },
      ...state.results.map((item) => ({ kind: 'link', label: `${item.name} — $${item.price}`, item })),
    ]
  }

  function observe() {
    const lines = [`URL: ${state.url}`]
    if (state.product) lines.push(`Product page: ${state.product.name}, $${state.product.price}, in stock.`)
    else if (state.results.length > 0) lines.push(`${state.results.length} results for "${state.query}".`)
    lines.push('Interactive elements:')
    elements().forEach((element, position) => {
      const value = element.kind === 'input' ? ` value="${element.value}"` : ''
      lines.push(`[${position + 1}]<${element.kind}${value}>${element.label}</${element.kind}>`)
    })
    return lines.join('\n')
  }

  function elementAt(index) {
    const element = elements()[index - 1]
    if (!element) throw new Error(`there is no element [${index}] on this page`)
    return element
  }

  const actions = {
    input_text({ index, text }) {
      const element = elementAt(index)
      if (element.kind !== 'input') throw new Error(`element [${index}] is a ${element.kind}, not an input`)
      state.query = text
      return `typed "${text}" into [${index}] ${element.label}`
    },
    click_element_by_index({ index }) {
      const element = elementAt(index)
      if (element.label === 'Search') {
        const words = state.query.toLowerCase().split(/\s+/).filter(Boolean)
        state.results = CATALOG.filter((item) => words.every((word) => item.tags.some((tag) => tag.startsWith(word.replace(/s$/, '')))))
        state.url = `https://shop.example/search?q=${encodeURIComponent(state.query)}`
        return `searched for "${state.query}": ${state.results.length} results`
      }
      if (element.label === 'Back to results') {
        state.product = undefined
        state.url = `https://shop.example/search?q=${encodeURIComponent(state.query)}`
        return 'went back to the results'
      }
      if (element.item) {
        state.product = element.item
        state.url = `https://shop.example/p/${element.item.name.toLowerCase().replace(/\W+/g, '-')}`
        return `opened ${element.item.name}`
      }
      return `clicked [${index}] ${element.label}`
    },
    scroll({ down }) {
      return `scrolled ${down ? 'down' : 'up'}: nothing more to see`
    },
    done({ text, success }) {
      return `finished (${success === false ? 'failed' : 'success'}): ${text}`
    },
  }

  return {
    observe,
    act(name, input) {
      const action = actions[name]
      if (!action) throw new Error(`unknown action ${name}`)
      return action(input)
    },
    get url() {
      return state.url
    },
  }
}
