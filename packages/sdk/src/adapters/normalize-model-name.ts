/**
 * Normalises a model name the way adapters match it: lower case, the vendor prefix before the last
 * `/` removed, `_` and `.` removed.
 *
 * @example
 * ```ts
 * normalizeModelName('openai/GPT-5.2-chat') // 'gpt-52-chat'
 * normalizeModelName('deepseek-ai/DeepSeek-V3.2') // 'deepseek-v32'
 * ```
 */
export function normalizeModelName(model: string): string {
  const name = String(model).trim().toLowerCase()
  return name.slice(name.lastIndexOf('/') + 1).replace(/[_.]/g, '')
}
