import { describe, expect, it } from 'vitest'
import { classifyFinish } from './classify-finish'

describe('classifyFinish', () => {
  it.each(['tool_calls', 'function_call', 'stop', 'eos', 'eos_token', 'end_turn', 'tool_use', '', null, undefined, 'STOP'])('should call %j ok', (reason) => {
    expect(classifyFinish(reason)).toBe('ok')
  })

  it.each(['length', 'max_tokens', 'max_output_tokens', 'MAX_TOKENS'])('should call %j truncated', (reason) => {
    expect(classifyFinish(reason)).toBe('truncated')
  })

  it.each(['content_filter', 'sensitive', 'SAFETY', 'PROHIBITED_CONTENT', 'RECITATION', 'refusal', 'BLOCKLIST', 'SPII'])('should call %j filtered', (reason) => {
    expect(classifyFinish(reason)).toBe('filtered')
  })

  it.each(['MALFORMED_FUNCTION_CALL', 'malformed_function_call'])('should call %j malformed', (reason) => {
    expect(classifyFinish(reason)).toBe('malformed')
  })

  it.each(['error', 'insufficient_system_resource'])('should call %j a server error', (reason) => {
    expect(classifyFinish(reason)).toBe('server_error')
  })

  // Generation the server cut short or that failed: never executed, but worth another try.
  it.each(['network_error', 'model_error', 'aborted', 'cancelled', 'user_cancel', 'timeout', 'interrupted', 'generation_failed'])('should call %j a server error', (reason) => {
    expect(classifyFinish(reason)).toBe('server_error')
  })

  it.each([
    ['model_context_window_exceeded', 'truncated'],
    ['guardrail_intervened', 'filtered'],
    ['ERROR_TOXIC', 'filtered'],
    ['stop_word', 'ok'],
    ['end_of_text', 'ok'],
    ['requires_action', 'ok'],
    ['None', 'ok'],
    ['null', 'ok'],
  ])('should call %j %s', (reason, expected) => {
    expect(classifyFinish(reason)).toBe(expected)
  })

  it.each(['banana', 'OTHER', 'tool_calls_and_more'])('should call %j unknown', (reason) => {
    expect(classifyFinish(reason)).toBe('unknown')
  })

  // Spellings nobody listed: recognised by their words, whatever the case and separators.
  it.each([
    ['tool_call', 'ok'],
    ['toolCalls', 'ok'],
    ['end_of_turn', 'ok'],
    ['COMPLETED', 'ok'],
    ['stop_token', 'ok'],
    ['max_new_tokens', 'truncated'],
    ['MAX_LENGTH', 'truncated'],
    ['output_limit', 'truncated'],
    ['moderation', 'filtered'],
    ['BLOCKED', 'filtered'],
    ['policy_violation', 'filtered'],
    ['invalid_tool_call', 'malformed'],
    ['internal_error', 'server_error'],
    ['FINISH_REASON_UNSPECIFIED', 'unknown'],
  ])('should read the unlisted spelling %j as %j', (reason, expected) => {
    expect(classifyFinish(reason)).toBe(expected)
  })

  it('should call a reason that is not a string unknown instead of crashing', () => {
    expect(classifyFinish(42 as unknown as string)).toBe('unknown')
    expect(classifyFinish({} as unknown as string)).toBe('unknown')
  })
})
