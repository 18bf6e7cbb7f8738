import { describe, expect, it } from 'vitest'
import { assertLinear, sizesBetween } from '../testing/measure-growth'
import { markerTail, splitReasoning } from './split-reasoning'

describe('splitReasoning', () => {
  const table: Array<[label: string, content: string, answer: string, reasoning: string]> = [
    ['think block', '<think>I should scroll.</think>\n{"a": 1}', '{"a": 1}', 'I should scroll.'],
    ['bare closing tag', 'I should scroll.\n</think>\n\n<tool_call>{"a": 1}</tool_call>', '<tool_call>{"a": 1}</tool_call>', 'I should scroll.'],
    ['empty think prefix', '<think>\n\n</think>\n\n{"a": 1}', '{"a": 1}', ''],
    ['mistral THINK', '[THINK]Plan it.[/THINK]{"a": 1}', '{"a": 1}', 'Plan it.'],
    ['seed think', '<seed:think>Plan.</seed:think>answer', 'answer', 'Plan.'],
    ['reasoning tag', '<reasoning>Plan.</reasoning>answer', 'answer', 'Plan.'],
    ['thinking tag', '<thinking>Plan.</thinking>answer', 'answer', 'Plan.'],
    ['thought tag', '<thought>Plan.</thought>answer', 'answer', 'Plan.'],
    ['upper-case tag', '<THINK>Plan.</THINK>answer', 'answer', 'Plan.'],
    ['begin_of_thought tokens', '<|begin_of_thought|>Plan.<|end_of_thought|>answer', 'answer', 'Plan.'],
    ['unclosed block runs to the end', 'Intro <think>still thinking [scroll(down=True)]', 'Intro', 'still thinking [scroll(down=True)]'],
    ['two blocks', '<think>one</think>A<think>two</think>B', 'A\nB', 'one\n\ntwo'],
    ['nested think', '<think>outer <think>inner</think> more</think>done', 'done', 'outer <think>inner</think> more'],
    ['harmony analysis channel', '<|channel|>analysis<|message|>Plan.<|end|><|start|>assistant<|channel|>commentary to=functions.scroll<|message|>{}', '<|start|>assistant<|channel|>commentary to=functions.scroll<|message|>{}', 'Plan.'],
    ['an analysis message with a recipient is a call, not reasoning', '<|start|>assistant to=functions.scroll<|channel|>analysis<|message|>{}<|call|>', '<|start|>assistant to=functions.scroll<|channel|>analysis<|message|>{}<|call|>', ''],
    ['an analysis call the model then answered the user about is reasoning', '<|channel|>analysis to=functions.scroll<|message|>{}<|call|><|start|>assistant<|channel|>final<|message|>Done.', '<|call|><|start|>assistant<|channel|>final<|message|>Done.', '{}'],
    ['a harmony-like message to=self', ' to=self<|message|>Plan.<|eom|><|start|>assistant to=scroll<|message|>{}', '<|eom|><|start|>assistant to=scroll<|message|>{}', 'Plan.'],
    ['tags inside a JSON string are text', '{"name": "input_text", "arguments": {"text": "wrap it in <think>tags</think>"}}', '{"name": "input_text", "arguments": {"text": "wrap it in <think>tags</think>"}}', ''],
    ['reasoning holding JSON, then JSON', '<think>draft {"a": 0}</think>{"text": "no </think> here"}', '{"text": "no </think> here"}', 'draft {"a": 0}'],
    ['stray brace in reasoning', '<think>use { "x</think>{"a":1}', '{"a":1}', 'use { "x'],
    ['no reasoning', '{"a": 1}', '{"a": 1}', ''],
    ['the word think in prose', 'I think this is right: {"a": 1}', 'I think this is right: {"a": 1}', ''],
  ]
  it.each(table)('should split %s', (_label, content, answer, reasoning) => {
    const result = splitReasoning(content)
    expect(result.answer).toBe(answer)
    expect(result.reasoning).toBe(reasoning)
    expect(result.fixes).toEqual(content === answer ? [] : ['stripped-reasoning'])
  })

  it('should leave a marker inside a call the readers find in the whole text to that call', () => {
    const call = '<tool_call>\n<function=note>\n<parameter=text>\nend with </think>\n</parameter>\n</function>\n</tool_call>'
    const ranges = (text: string) => [[text.indexOf('<tool_call>'), text.length] as const]
    expect(splitReasoning(call, ranges)).toEqual({ answer: call, reasoning: '', fixes: [] })
    expect(splitReasoning(`<think>Plan.</think>\n${call}`, ranges)).toEqual({ answer: call, reasoning: 'Plan.', fixes: ['stripped-reasoning'] })
    // Without the ranges the marker in the value ends a block the template opened.
    expect(splitReasoning(call).answer).toBe('</parameter>\n</function>\n</tool_call>')
  })

  it('should return empty parts for empty or non-string content', () => {
    expect(splitReasoning('')).toEqual({ answer: '', reasoning: '', fixes: [] })
    expect(splitReasoning(null as unknown as string)).toEqual({ answer: '', reasoning: '', fixes: [] })
  })

  it('should stay linear on a flood of tags', () => {
    const flood = (count: number) => '<think>'.repeat(count) + '</think>'.repeat(count) + 'answer'
    expect(splitReasoning(flood(50_000)).answer).toBe('answer')
    assertLinear((count) => {
      const content = flood(count)
      return () => splitReasoning(content)
    }, sizesBetween(5_000, 50_000))
  })
})

describe('markerTail', () => {
  it('should hold back what may still become a marker, and nothing further back', () => {
    expect(markerTail('Done.<|close|>thi')).toBe(5)
    expect(markerTail('So it is done, and then [/TH')).toBe(24)
    // A tag still open is held however far back it starts (its name may be long).
    expect(markerTail(`Now </${'x'.repeat(30)}:thi`)).toBe(4)
    expect(markerTail('x <|begin_of_reasonin')).toBe(2)
    // Fixed tokens fit in the last 24 characters: a `<` or `[` before them is let go.
    expect(markerTail('a [1] then a long enough sentence after it.')).toBe(43)
    // A marker already read is not held again: only what follows `from`.
    expect(markerTail('<think>plan', 7)).toBe(11)
  })
})
