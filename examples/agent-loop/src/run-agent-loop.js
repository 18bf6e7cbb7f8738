import { isInvokeError } from '@wildcall/sdk'
import { createPageTools } from './create-page-tools.js'

const SYSTEM_PROMPT = [
  'You are a browser agent. After each of your actions you see its result and the page as it is then.',
  'Call the AgentOutput tool exactly once per step: fill evaluation_previous_goal, memory and next_goal briefly,',
  'and choose exactly one action. Use "done" when the task is finished.',
].join(' ')

/**
 * A ReAct loop over a real chat history: observe the page → invoke the macro tool (reflection + one
 * action) → the action runs on the page → append `result.messages` (the assistant turn with its call
 * and the tool result) and the new page → repeat until `done` or `maxSteps`. `log` receives one line
 * at a time.
 *
 * @example
 * const summary = await runAgentLoop({ client, page, task: 'Find trail shoes', log: console.log })
 */
export async function runAgentLoop({ client, page, task, maxSteps = 8, log }) {
  const AgentOutput = createPageTools(page)
  const messages = [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: `Task: ${task}\n\nCurrent page:\n${page.observe()}` },
  ]
  const summary = { steps: 0, done: false, success: false, answer: undefined, fixes: [], retries: 0, failures: 0, promptTokens: 0, completionTokens: 0, messages }
  const onRetry = ({ attempt, maxAttempts, error, delayMs }) => {
    summary.retries++
    log(`  retry: attempt ${attempt}/${maxAttempts} failed with ${error.type}${error.status ? ` (HTTP ${error.status})` : ''}; retrying in ${Math.round(delayMs)} ms`)
  }
  client.events.on('retry', onRetry)
  try {
    for (let step = 1; step <= maxSteps && !summary.done; step++) {
      summary.steps = step
      log('', `Step ${step} — ${page.url}`)
      let result
      try {
        result = await client.invoke(messages, { AgentOutput }, { toolChoiceName: 'AgentOutput' })
      } catch (error) {
        if (!isInvokeError(error)) throw error
        summary.failures++
        summary.promptTokens += error.usage?.promptTokens ?? 0
        summary.completionTokens += error.usage?.completionTokens ?? 0
        log(`  error: ${error.type} (retryable: ${error.retryable ? 'yes' : 'no'}) — ${error.message}`)
        // The action ran once and threw: the model sees its call and the error, and goes on.
        if (error.type === 'tool_execution_error' && error.messages) {
          messages.push(...error.messages, observation(page, AgentOutput))
          continue
        }
        if (!error.retryable) break
        continue
      }
      const { input, action, output } = result.toolResult
      log('  reflection:')
      for (const key of ['evaluation_previous_goal', 'memory', 'next_goal']) {
        if (input[key]) log(`    ${key}: ${input[key]}`)
      }
      log(`  action: ${action.name} ${JSON.stringify(action.input)}`)
      log(`  result: ${output}`)
      log(`  fixes: ${result.fixes.length === 0 ? 'none' : result.fixes.join(', ')}`)
      summary.fixes.push(...result.fixes)
      summary.promptTokens += result.usage.promptTokens ?? 0
      summary.completionTokens += result.usage.completionTokens ?? 0
      // The history the next step sends: this step's call and its result, then the page as it is now.
      messages.push(...result.messages)
      if (action.name === 'done') {
        summary.done = true
        summary.success = action.input.success !== false
        summary.answer = action.input.text
      } else {
        messages.push(observation(page, AgentOutput))
      }
    }
  } finally {
    client.events.off('retry', onRetry)
  }
  return summary
}

function observation(page, AgentOutput) {
  return { role: 'user', content: [`Current page:\n${page.observe()}`, AgentOutput.observations()].filter(Boolean).join('\n\n') }
}
