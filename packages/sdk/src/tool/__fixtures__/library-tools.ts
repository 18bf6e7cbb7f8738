// The same five tools written in every way a tool can be defined: the schema-library tests, and the
// grammar tests of constrained decoding, run on each.
import { toStandardJsonSchema } from '@valibot/to-json-schema'
import { type } from 'arktype'
import * as v from 'valibot'
import { z } from 'zod'
import { z as z3 } from 'zod3'
import { defineTool } from '../../index'
import { jsonSchema } from '../../json-schema'
import type { StandardSchemaLike } from '../schema'
import type { ToolSet } from '../types'

// The repair tables that use them must give the same call, the same fixes and the same error message
// for each. (Enums are listed in sorted order: ArkType sorts the members of a union, and the error
// message lists them.)
export type Kind = 'zod 4' | 'zod 3' | 'valibot' | 'ArkType' | 'JSON Schema'

export function zod4Tools() {
  return {
    click_element: z.object({ index: z.number().int().min(0) }),
    input_text: z.object({ index: z.number().int().min(0), text: z.string(), clear: z.boolean().default(false) }),
    scroll: z.object({ direction: z.enum(['down', 'up']), amount: z.number().min(1).max(10).optional() }),
    search: z.object({
      query: z.string(),
      filters: z.object({ site: z.string().optional(), max_results: z.number().int().min(1).max(50).optional() }).optional(),
      tags: z.array(z.string()).optional(),
      note: z.string().nullable().optional(),
    }),
    done: z.object({ text: z.string() }),
  }
}

export function zod3Tools() {
  return {
    click_element: z3.object({ index: z3.number().int().min(0) }),
    input_text: z3.object({ index: z3.number().int().min(0), text: z3.string(), clear: z3.boolean().default(false) }),
    scroll: z3.object({ direction: z3.enum(['down', 'up']), amount: z3.number().min(1).max(10).optional() }),
    search: z3.object({
      query: z3.string(),
      filters: z3.object({ site: z3.string().optional(), max_results: z3.number().int().min(1).max(50).optional() }).optional(),
      tags: z3.array(z3.string()).optional(),
      note: z3.string().nullable().optional(),
    }),
    done: z3.object({ text: z3.string() }),
  }
}

export function valibotTools() {
  const index = v.pipe(v.number(), v.integer(), v.minValue(0))
  return {
    click_element: toStandardJsonSchema(v.object({ index })),
    input_text: toStandardJsonSchema(v.object({ index, text: v.string(), clear: v.optional(v.boolean(), false) })),
    scroll: toStandardJsonSchema(v.object({ direction: v.picklist(['down', 'up']), amount: v.optional(v.pipe(v.number(), v.minValue(1), v.maxValue(10))) })),
    search: toStandardJsonSchema(
      v.object({
        query: v.string(),
        filters: v.optional(v.object({ site: v.optional(v.string()), max_results: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50))) })),
        tags: v.optional(v.array(v.string())),
        note: v.optional(v.nullable(v.string())),
      }),
    ),
    done: toStandardJsonSchema(v.object({ text: v.string() })),
  }
}

export function arkTypeTools() {
  return {
    click_element: type({ index: 'number.integer >= 0' }),
    input_text: type({ index: 'number.integer >= 0', text: 'string', clear: 'boolean = false' }),
    scroll: type({ direction: "'down' | 'up'", 'amount?': '1 <= number <= 10' }),
    search: type({ query: 'string', 'filters?': { 'site?': 'string', 'max_results?': '1 <= number.integer <= 50' }, 'tags?': 'string[]', 'note?': 'string | null' }),
    done: type({ text: 'string' }),
  }
}

export function jsonSchemaTools() {
  const index = { type: 'integer', minimum: 0 } as const
  return {
    click_element: jsonSchema({ type: 'object', properties: { index }, required: ['index'], additionalProperties: false }),
    input_text: jsonSchema({ type: 'object', properties: { index, text: { type: 'string' }, clear: { type: 'boolean', default: false } }, required: ['index', 'text'] }),
    scroll: jsonSchema({ type: 'object', properties: { direction: { type: 'string', enum: ['down', 'up'] }, amount: { type: 'number', minimum: 1, maximum: 10 } }, required: ['direction'] }),
    // Draft 2020-12 with `$ref`/`$defs`, as MCP servers and OpenAPI documents write it.
    search: jsonSchema({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        query: { type: 'string' },
        filters: { $ref: '#/$defs/Filters' },
        tags: { type: 'array', items: { type: 'string' } },
        note: { type: ['string', 'null'] },
      },
      required: ['query'],
      $defs: { Filters: { type: 'object', properties: { site: { type: 'string' }, max_results: { type: 'integer', minimum: 1, maximum: 50 } } } },
    }),
    // Draft 7, as older tools and `zod-to-json-schema` write it.
    done: jsonSchema({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { text: { $ref: '#/definitions/Text' } }, required: ['text'], definitions: { Text: { type: 'string' } } }),
  }
}

export const schemasByKind: Record<Kind, () => Record<string, object>> = {
  'zod 4': zod4Tools,
  'zod 3': zod3Tools,
  valibot: valibotTools,
  ArkType: arkTypeTools,
  'JSON Schema': jsonSchemaTools,
}

export function toolsOf(kind: Kind): ToolSet {
  const tools: ToolSet = {}
  for (const [name, inputSchema] of Object.entries(schemasByKind[kind]())) {
    tools[name] = defineTool({ description: `The ${name} tool`, inputSchema: inputSchema as StandardSchemaLike, execute: (input) => input })
  }
  return tools
}

