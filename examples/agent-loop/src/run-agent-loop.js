import { isInvokeError } from '@wildcall/sdk'
import { createPageTools } from './create-page-tools.js'

const SYSTEM_PROMPT = [
  'You are a browser agent. Each step you see the current page and your history.',
  'Call the AgentOutput tool exactly once per step: fill evaluation_previous_goal, memory and next_goal briefly,',
  'and choose exactly one action. Use "done" when the task is finished.',
].join(' ')

/**
 * A ReAct loop: observe the page → invoke the macro tool (reflection + one action) → the action
 * runs on the page → repeat until `done` or `maxSteps`. `log` receives one line at a time.
 *
 * @example
 * const summary = await runAgentLoop({ client, page, task: 'Find trail shoes', log: console.log })
 */
export async function runAgentLoop({ client, page, task, maxSteps = 8, log }) {
  const AgentOutput = createPageTools(page)
  const history = []
  const summary = { steps: 0, done: false, success: false, answer: undefined, fixes: [], retries: 0, failures: 0, promptTokens: 0, completionTokens: 0 }
  const onRetry = ({ attempt, maxAttempts, error, delayMs }) => {
    summary.retries++
    log(`  retry: attempt ${attempt}/${maxAttempts} failed with ${error.type}${error.status ? ` (HTTP ${error.status})` : ''}; retrying in ${Math.round(delayMs)} ms`)
  }
  client.events.on('retry', onRetry)
  try {
    for (let step = 1; step <= maxSteps && !summary.done; step++) {
      summary.steps = step
      log('', `Step ${step} — ${page.url}`)
      const messages = [
        { role: 'system', content: SYSTEM_PROMPT },
        {
          role: 'user',
          content: [
            `Task: ${task}`,
            history.length > 0 ? `History:\n${history.map((entry, index) => `${index + 1}. ${entry}`).join('\n')}` : 'History: none yet.',
            `Current page:\n${page.observe()}`,
            AgentOutput.observations(),
          ]
            .filter(Boolean)
            .join('\n\n'),
        },
      ]
      let result
      try {
        result = await client.invoke(messages, { AgentOutput }, { toolChoiceName: 'AgentOutput' })
      } catch (error) {
        if (!isInvokeError(error)) throw error
        summary.failures++
        log(`  error: ${error.type} (retryable: ${error.retryable ? 'yes' : 'no'}) — ${error.message}`)
        if (!error.retryable) break
        history.push(`The previous step failed (${error.type}); try again.`)
        continue
      }
      const { input, output } = result.toolResult
      const [actionName] = Object.keys(input.action)
      log('  reflection:')
      for (const key of ['evaluation_previous_goal', 'memory', 'next_goal']) {
        if (input[key]) log(`    ${key}: ${input[key]}`)
      }
      log(`  action: ${actionName} ${JSON.stringify(input.action[actionName])}`)
      log(`  result: ${output}`)
      log(`  fixes: ${result.fixes.length === 0 ? 'none' : result.fixes.join(', ')}`)
      summary.fixes.push(...result.fixes)
      summary.promptTokens += result.usage.promptTokens
      summary.completionTokens += result.usage.completionTokens
      history.push(`${actionName} ${JSON.stringify(input.action[actionName])} → ${output}`)
      if (actionName === 'done') {
        summary.done = true
        summary.success = input.action.done.success !== false
        summary.answer = input.action.done.text
      }
    }
  } finally {
    client.events.off('retry', onRetry)
  }
  return summary
}
