import { createClient, createMacroTool, defineTool, isInvokeError, type Client, type InvokeResult } from '@wildcall/sdk'
import { z } from 'zod'
import { createShopPanel, type ShopPanel } from './create-shop-panel'

const TASK = 'Search the shop for "trail shoes" and report the first result with its price.'
const MAX_STEPS = 6
const REFLECTION_KEYS = ['evaluation_previous_goal', 'memory', 'next_goal'] as const

const shop = createShopPanel(document.querySelector<HTMLElement>('#shop')!)
const settings = document.querySelector<HTMLFormElement>('#settings')!
const status = document.querySelector<HTMLParagraphElement>('#status')!
const stepsList = document.querySelector<HTMLOListElement>('#steps')!

const params = new URLSearchParams(location.search)
for (const name of ['baseURL', 'model', 'apiKey'] as const) {
  const value = params.get(name)
  if (value) (settings.elements.namedItem(name) as HTMLInputElement).value = value
}
if (params.get('stream') === '0') (settings.elements.namedItem('stream') as HTMLInputElement).checked = false
if (params.get('scripted') === '1') {
  document.querySelector('#endpoint-note')!.textContent =
    'This page talks to a SCRIPTED local server: it replays replies written by hand in the shapes real models send. It is not a model.'
}

function setStatus(state: 'idle' | 'running' | 'done' | 'error', text: string) {
  status.dataset.state = state
  status.textContent = text
}

/** The agent's actions on the shop, packed into one macro tool. */
function createAgentTool(panel: ShopPanel) {
  return createMacroTool({
    input_text: defineTool({
      description: 'Type text into the input element with this index',
      inputSchema: z.object({ index: z.number().int(), text: z.string() }),
      execute: ({ index, text }) => {
        const element = panel.element(index)
        if (!(element instanceof HTMLInputElement)) throw new Error(`element [${index}] is not an input`)
        element.value = text
        element.dispatchEvent(new Event('input', { bubbles: true }))
        return `typed "${text}" into [${index}]`
      },
    }),
    click_element_by_index: defineTool({
      description: 'Click the element with this index',
      inputSchema: z.object({ index: z.number().int() }),
      execute: ({ index }) => {
        const element = panel.element(index)
        element.click()
        return `clicked [${index}] ${element.textContent?.trim() ?? ''}`
      },
    }),
    done: defineTool({
      description: 'Finish the task and say what you found',
      inputSchema: z.object({ text: z.string(), success: z.boolean().optional() }),
      execute: ({ text }) => text,
    }),
  })
}

/** One step's card: reflection (filled live while streaming), action, fixes and result. */
function createStepCard(step: number) {
  const card = document.createElement('li')
  card.className = 'step'
  card.dataset.step = String(step)
  card.innerHTML = `<strong>Step ${step}</strong><dl class="reflection"></dl><div class="live"></div><div class="action"></div><div class="fixes"></div><div class="result"></div>`
  stepsList.append(card)
  const reflection = card.querySelector<HTMLDListElement>('.reflection')!
  const part = (name: string) => card.querySelector<HTMLDivElement>(`.${name}`)!
  return {
    element: card,
    showReflection(args: unknown) {
      if (typeof args !== 'object' || args === null) return
      reflection.replaceChildren()
      for (const key of REFLECTION_KEYS) {
        const value = (args as Record<string, unknown>)[key]
        if (typeof value !== 'string') continue
        const term = document.createElement('dt')
        term.textContent = key
        const detail = document.createElement('dd')
        detail.dataset.key = key
        detail.textContent = value
        reflection.append(term, detail)
      }
    },
    showLive(text: string) {
      part('live').textContent = text
    },
    showResult(result: InvokeResult) {
      const { input, output } = result.toolResult as { input: { action: Record<string, unknown> }; output: unknown }
      const [name] = Object.keys(input.action)
      this.showReflection(input)
      part('live').textContent = ''
      part('action').textContent = `action: ${name} ${JSON.stringify(input.action[name!])}`
      part('fixes').textContent = `fixes: ${result.fixes.length === 0 ? 'none' : result.fixes.join(', ')}`
      part('result').textContent = `result: ${String(output)}`
      return { name: name!, input: input.action[name!], output }
    },
  }
}

async function runStep(client: Client, tools: { AgentOutput: ReturnType<typeof createAgentTool> }, step: number, history: string[], stream: boolean) {
  const card = createStepCard(step)
  const messages = [
    { role: 'system', content: 'You are a browser agent. Call AgentOutput exactly once per step: reflect briefly and choose exactly one action.' },
    {
      role: 'user',
      content: `Step ${step}\nTask: ${TASK}\nHistory:\n${history.join('\n') || 'none yet'}\nPage elements:\n${shop.observe()}`,
    },
  ]
  const options = { toolChoiceName: 'AgentOutput' } as const
  let result: InvokeResult
  if (stream && typeof client.stream === 'function') {
    const run = client.stream(messages, tools, options)
    let streamed = 0
    let partials = 0
    for await (const event of run) {
      if (event.type === 'partial') {
        partials++
        card.showReflection(event.args)
      }
      if (event.type === 'text' || event.type === 'arguments' || event.type === 'reasoning') {
        streamed += event.delta.length
        card.showLive(`streaming… ${streamed} characters`)
      }
      if (event.type === 'reset') card.showLive(`attempt ${event.attempt} failed (${event.error.type}); retrying…`)
    }
    result = await run.result
    card.showLive('')
    // What arrived live, for the curious (and for the browser test).
    card.element.dataset.streamedCharacters = String(streamed)
    card.element.dataset.partialUpdates = String(partials)
  } else {
    result = await client.invoke(messages, tools, options)
  }
  return card.showResult(result)
}

async function runAgent(event: SubmitEvent) {
  event.preventDefault()
  const form = new FormData(settings)
  const baseURL = String(form.get('baseURL') ?? '')
  const model = String(form.get('model') ?? '')
  const apiKey = String(form.get('apiKey') ?? '')
  const stream = form.get('stream') === 'on'
  stepsList.replaceChildren()
  shop.reset()
  setStatus('running', `Running against ${baseURL} (${model})${stream ? ', streaming' : ''}…`)
  try {
    const client = createClient({ baseURL, model, ...(apiKey ? { apiKey } : {}), retry: { limit: 2, baseDelayMs: 200 } })
    const tools = { AgentOutput: createAgentTool(shop) }
    const history: string[] = []
    for (let step = 1; step <= MAX_STEPS; step++) {
      const action = await runStep(client, tools, step, history, stream)
      history.push(`${step}. ${action.name} ${JSON.stringify(action.input)} → ${String(action.output)}`)
      if (action.name === 'done') {
        setStatus('done', `Done in ${step} steps: ${String(action.output)}`)
        return
      }
    }
    setStatus('error', `Stopped after ${MAX_STEPS} steps without "done".`)
  } catch (error) {
    setStatus('error', isInvokeError(error) ? `${error.type} (retryable: ${error.retryable ? 'yes' : 'no'}): ${error.message}` : String(error))
  }
}

settings.addEventListener('submit', (event) => void runAgent(event))
if (params.get('autorun') === '1') settings.requestSubmit()
