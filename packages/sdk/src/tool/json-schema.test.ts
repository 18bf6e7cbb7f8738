import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { defineTool, isInvokeError } from '../index'
import { jsonSchema } from '../json-schema'
import { formatIssuePath, toToolJsonSchema, validateSchema } from './schema'

const Search = jsonSchema({
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 1 },
    page: { type: 'integer', minimum: 1, default: 1 },
    filters: { $ref: '#/$defs/Filters' },
    sort: { enum: ['date', 'relevance'] },
  },
  required: ['query'],
  additionalProperties: false,
  $defs: {
    Filters: { type: 'object', properties: { since: { type: 'string', format: 'date' }, sites: { type: 'array', items: { type: 'string', format: 'hostname' } } } },
  },
})

function issuesOf(value: unknown) {
  const result = validateSchema(Search, value)
  return result.success ? [] : result.issues.map((issue) => `${formatIssuePath(issue)}: ${issue.message}`)
}

describe('jsonSchema', () => {
  it('should accept a valid value and fill in a default the model left out, without touching the input', () => {
    const input = { query: 'cats', filters: { since: '2024-05-01' } }
    expect(validateSchema(Search, input)).toEqual({ success: true, data: { query: 'cats', page: 1, filters: { since: '2024-05-01' } } })
    expect(input).toEqual({ query: 'cats', filters: { since: '2024-05-01' } })
  })

  it('should fill only the defaults that fit their own property schema', () => {
    // Real tool sets declare `"default": "false"` on a boolean and `"default": 0` under `minimum: 1`.
    const Fetch = jsonSchema({
      type: 'object',
      properties: {
        url: { type: 'string' },
        raw: { type: 'boolean', default: 'false' },
        retries: { type: 'integer', minimum: 1, default: 0 },
        mode: { enum: ['fast', 'full'], default: 'full' },
        options: { type: 'object', properties: { depth: { type: 'integer', default: '2' }, follow: { type: 'boolean', default: true } } },
      },
      required: ['url'],
    })
    expect(validateSchema(Fetch, { url: 'https://a.io', options: {} })).toEqual({ success: true, data: { url: 'https://a.io', mode: 'full', options: { follow: true } } })
    expect(validateSchema(Fetch, { url: 'https://a.io', raw: true, retries: 3 })).toEqual({ success: true, data: { url: 'https://a.io', raw: true, retries: 3, mode: 'full' } })
  })

  it('should name the path of every failure, through $ref and into arrays', () => {
    expect(issuesOf({ query: '', page: 0, filters: { since: 'yesterday', sites: ['example.com', 'not a host!'] }, sort: 'stars', extra: true })).toEqual([
      'query: String is too short (0 < 1).',
      'page: 0 is less than 1.',
      'filters.since: String does not match format "date".',
      'filters.sites[1]: String does not match format "hostname".',
      'sort: Instance does not match any of ["date","relevance"].',
      'extra: Property "extra" does not match additional properties schema.',
    ])
  })

  it('should point a missing required field at the field itself', () => {
    const result = validateSchema(Search, {})
    expect(result.success).toBe(false)
    expect(!result.success && result.issues.map((issue) => issue.path)).toEqual([['query']])
  })

  it('should read draft 7 definitions as well as 2020-12 $defs', () => {
    const draft7 = jsonSchema({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { point: { $ref: '#/definitions/Point' } },
      required: ['point'],
      definitions: { Point: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x', 'y'] } },
    })
    expect(validateSchema(draft7, { point: { x: 1, y: 2 } }).success).toBe(true)
    const failed = validateSchema(draft7, { point: { x: 1 } })
    expect(!failed.success && failed.issues.map(formatIssuePath)).toEqual(['point.y'])
    expect(toToolJsonSchema(draft7)).toEqual({
      type: 'object',
      properties: { point: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x', 'y'] } },
      required: ['point'],
    })
  })

  it('should fold the branches of a union into one issue', () => {
    const union = jsonSchema({ type: 'object', properties: { id: { anyOf: [{ type: 'string' }, { type: 'integer' }] } } })
    const result = validateSchema(union, { id: 1.5 })
    expect(!result.success && result.issues.map((issue) => `${formatIssuePath(issue)}: ${issue.message}`)).toEqual(['id: Instance does not match any subschemas.'])
    expect(toToolJsonSchema(union)).toEqual({ type: 'object', properties: { id: { type: ['string', 'integer'] } } })
  })

  it('should keep a recursive $ref as a reference (with its definitions) and still validate through it', () => {
    const tree = jsonSchema({
      type: 'object',
      properties: { root: { $ref: '#/$defs/Node' } },
      $defs: { Node: { type: 'object', properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } }, required: ['label'] } },
    })
    const sent = toToolJsonSchema(tree)
    expect(sent.properties).toEqual({ root: { type: 'object', properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } }, required: ['label'] } })
    expect(sent).toHaveProperty('$defs.Node')
    const result = validateSchema(tree, { root: { label: 'a', children: [{ label: 'b', children: [{}] }] } })
    expect(!result.success && result.issues.map(formatIssuePath)).toEqual(['root.children[0].children[0].label'])
  })

  it('should answer a value JSON cannot hold with an issue, not a TypeError', () => {
    const result = validateSchema(Search, undefined)
    expect(result.success).toBe(false)
    expect(!result.success && result.issues[0]!.message).toMatch(/could not be validated/)
  })

  it('should refuse something that is not a schema object with a config_error', () => {
    let caught: unknown
    try {
      jsonSchema('{"type": "object"}' as never)
    } catch (error) {
      caught = error
    }
    expect(isInvokeError(caught) && caught.type).toBe('config_error')
  })

  it('should infer the input type of execute from the schema literal, or take the type given', () => {
    defineTool({
      inputSchema: Search,
      execute: (input) => {
        expectTypeOf(input).toEqualTypeOf<{ query: string; page: number; filters?: unknown; sort?: 'date' | 'relevance' }>()
      },
    })
    const nested = jsonSchema({ type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } }, note: { type: ['string', 'null'] } }, required: ['tags', 'note'] })
    defineTool({ inputSchema: nested, execute: (input) => expectTypeOf(input).toEqualTypeOf<{ tags: string[]; note: string | null }>() })
    const stated = jsonSchema<{ index: number }>({ type: 'object' })
    defineTool({ inputSchema: stated, execute: (input) => expectTypeOf(input).toEqualTypeOf<{ index: number }>() })
  })

  it('should rely on a validator that never compiles code (no eval, no new Function)', () => {
    // Browser extensions and strict-CSP pages forbid both; the validator must interpret schemas.
    const entry = createRequire(import.meta.url).resolve('@cfworker/json-schema')
    const folder = dirname(entry)
    const sources = readdirSync(folder).filter((file) => file.endsWith('.js'))
    expect(sources.length).toBeGreaterThan(3)
    for (const file of sources) {
      const code = readFileSync(join(folder, file), 'utf8')
      expect(code, file).not.toMatch(/\bnew Function\b|\beval\s*\(|\bFunction\s*\(/)
    }
  })
})
