// The page the agent acts on: a real DOM search box, button and result links.

const CATALOG = [
  { name: 'Trail Runner 2', price: 89, tags: ['trail', 'shoes'] },
  { name: 'Summit Hiker GTX', price: 149, tags: ['trail', 'shoes', 'boots'] },
  { name: 'City Sneaker', price: 59, tags: ['shoes', 'city'] },
]

/** Wires the shop's search and returns how the agent sees and touches it. */
export function createShopPanel(root: HTMLElement) {
  const search = root.querySelector<HTMLInputElement>('#search')!
  const button = root.querySelector<HTMLButtonElement>('#search-button')!
  const results = root.querySelector<HTMLUListElement>('#results')!

  button.addEventListener('click', () => {
    const words = search.value.toLowerCase().split(/\s+/).filter(Boolean)
    const found = CATALOG.filter((item) => words.every((word) => item.tags.some((tag) => tag.startsWith(word.replace(/s$/, '')))))
    results.replaceChildren(
      ...found.map((item) => {
        const entry = document.createElement('li')
        const link = document.createElement('a')
        link.href = '#'
        link.textContent = `${item.name} — $${item.price}`
        entry.append(link)
        return entry
      }),
    )
  })

  const interactive = () => [...root.querySelectorAll<HTMLElement>('input, button, a')]

  return {
    reset() {
      search.value = ''
      results.replaceChildren()
    },
    /** The elements the model may address, numbered from 1 as browser agents do. */
    observe(): string {
      return interactive()
        .map((element, position) => {
          const tag = element.tagName.toLowerCase()
          const label = element instanceof HTMLInputElement ? `placeholder="${element.placeholder}" value="${element.value}"` : element.textContent?.trim()
          return `[${position + 1}]<${tag}>${label}</${tag}>`
        })
        .join('\n')
    },
    element(index: number): HTMLElement {
      const element = interactive()[index - 1]
      if (!element) throw new Error(`there is no element [${index}]`)
      return element
    },
  }
}

export type ShopPanel = ReturnType<typeof createShopPanel>
