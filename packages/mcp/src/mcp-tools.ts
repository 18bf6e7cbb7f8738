import { InvokeError, type Tool, type ToolExecuteContext } from '@wildcall/sdk'
import { jsonSchema } from '@wildcall/sdk/json-schema'

/** One tool as an MCP server lists it (`tools/list`). */
export interface McpListedTool {
  name: string
  title?: string | undefined
  description?: string | undefined
  inputSchema: { type: 'object'; [key: string]: unknown }
  annotations?: { title?: string | undefined; [key: string]: unknown } | undefined
  [key: string]: unknown
}

/** What an MCP server answers to `tools/call`. */
export interface McpCallResult {
  content?: Array<{ type: string; text?: string | undefined; [key: string]: unknown }> | undefined
  structuredContent?: Record<string, unknown> | undefined
  isError?: boolean | undefined
  [key: string]: unknown
}

/**
 * The part of `@modelcontextprotocol/sdk`'s `Client` that `mcpTools` uses (any object with these two
 * methods will do).
 *
 * @example
 * ```ts
 * import { Client } from '@modelcontextprotocol/sdk/client/index.js'
 * const client: McpClientLike = new Client({ name: 'my-agent', version: '1.0.0' })
 * ```
 */
export interface McpClientLike {
  listTools(params?: { cursor?: string }): Promise<{ tools: McpListedTool[]; nextCursor?: string | undefined }>
  callTool(params: { name: string; arguments?: Record<string, unknown> }, resultSchema?: undefined, options?: { signal?: AbortSignal; timeout?: number }): Promise<unknown>
}

/**
 * Options of {@link mcpTools}.
 *
 * @example
 * ```ts
 * const github = await mcpTools(githubClient, { prefix: 'github' }) // github_create_issue, …
 * ```
 */
export interface McpToolsOptions {
  /**
   * Put before every tool name, with `_` (`github` → `github_create_issue`): give each server its
   * own when you combine the tools of several, so their names cannot collide.
   */
  prefix?: string | undefined
  /**
   * How long one `tools/call` may take before it fails as a `tool_execution_error`, in
   * milliseconds. Default: the MCP client's own (60 s in `@modelcontextprotocol/sdk`).
   */
  timeoutMs?: number | undefined
}

/**
 * What an MCP tool's `execute` returns: the server's `structuredContent` when it sent one, else its
 * text content (the text parts joined by a line break) when all of it is text, else the content parts.
 *
 * @example
 * ```ts
 * const { toolResult } = await client.invoke(messages, tools)
 * if (typeof toolResult === 'string') console.log(toolResult)
 * ```
 */
export type McpToolOutput = string | Record<string, unknown> | NonNullable<McpCallResult['content']>

/**
 * A wildcall tool that calls a tool of an MCP server. `mcp.name` is the name on the server (the
 * tool set's key may differ: see {@link mcpTools}).
 *
 * @example
 * ```ts
 * for (const [name, tool] of Object.entries(tools)) console.log(name, '→', tool.mcp.name)
 * ```
 */
export interface McpTool extends Tool<Record<string, unknown>, McpToolOutput> {
  readonly mcp: { readonly name: string; readonly title?: string | undefined; readonly annotations?: McpListedTool['annotations'] | undefined }
}

/**
 * The error an MCP tool's `execute` throws when the server answers `isError: true`: `invoke` reports it
 * as a `tool_execution_error` whose message carries the server's text, with this as its `cause`.
 *
 * @example
 * ```ts
 * if (isInvokeError(error) && error.cause instanceof McpToolError) console.log(error.cause.result.content)
 * ```
 */
export class McpToolError extends Error {
  override readonly name = 'McpToolError'
  constructor(
    message: string,
    /** The server's whole answer. */
    readonly result: McpCallResult,
  ) {
    super(message)
  }
}

// What the OpenAI API (and the providers that copy it) accept as a function name.
const VALID_NAME = /^[\w-]{1,64}$/
const MAX_NAME = 64
const MAX_PAGES = 1000

/**
 * The tools of a connected MCP client as a wildcall tool set, usable in `invoke`, `stream` and as the
 * actions of `createMacroTool`. Every page of `tools/list` is read; each tool keeps the server's
 * description and input schema (plain JSON Schema, validated without `eval`, with the same repair
 * and coercion as a zod schema), and its `execute` calls `tools/call` with the step's abort signal.
 * An answer with `isError: true` becomes a `tool_execution_error`.
 *
 * Names: a name the OpenAI API refuses (a `.`, `/` or space, over 64 characters) is rewritten
 * (`files/read` → `files_read`), and names that then collide get `_2`, `_3`…; each tool's `mcp.name`
 * maps it back. Give each server a `prefix` when you combine several. (A set keyed by the server's
 * own names works too: `invoke` sends such names rewritten the same way and maps the calls back.)
 *
 * @example
 * ```ts
 * import { Client } from '@modelcontextprotocol/sdk/client/index.js'
 * import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
 * import { createMacroTool } from '@wildcall/sdk'
 * import { mcpTools } from '@wildcall/mcp'
 *
 * const mcp = new Client({ name: 'my-agent', version: '1.0.0' })
 * await mcp.connect(new StdioClientTransport({ command: 'node', args: ['server.js'] }))
 * const tools = await mcpTools(mcp, { prefix: 'files' })
 * const result = await client.invoke(messages, tools)              // one tool call per step
 * const AgentOutput = createMacroTool(tools)                       // or: MCP tools as an agent's actions
 * ```
 */
export async function mcpTools(client: McpClientLike, options: McpToolsOptions = {}): Promise<Record<string, McpTool>> {
  if (options.timeoutMs !== undefined && !(Number.isFinite(options.timeoutMs) && options.timeoutMs > 0)) {
    throw new InvokeError('config_error', `[mcp] timeoutMs must be a positive number of milliseconds (got ${String(options.timeoutMs)}).`)
  }
  if (typeof client?.listTools !== 'function' || typeof client.callTool !== 'function') {
    throw new InvokeError('config_error', '[mcp] mcpTools needs a connected MCP client (new Client(…) from "@modelcontextprotocol/sdk", after client.connect(transport)).')
  }
  const prefix = options.prefix === undefined || options.prefix === '' ? '' : `${options.prefix}_`
  const tools: Record<string, McpTool> = {}
  for (const listed of await listAll(client)) {
    const name = uniqueName(sanitize(`${prefix}${String(listed?.name)}`), tools)
    // Defined, not assigned: a tool named `__proto__` is a tool, not the set's prototype.
    Object.defineProperty(tools, name, { value: toTool(client, listed, options.timeoutMs), enumerable: true, writable: true, configurable: true })
  }
  return tools
}

async function listAll(client: McpClientLike): Promise<McpListedTool[]> {
  const listed: McpListedTool[] = []
  const seen = new Set<string>()
  let cursor: string | undefined
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await client.listTools(cursor === undefined ? undefined : { cursor })
    if (!Array.isArray(answer?.tools)) throw new InvokeError('invalid_schema', '[mcp] The MCP server answered tools/list without a "tools" list.')
    listed.push(...answer.tools)
    cursor = answer.nextCursor
    if (cursor === undefined) return listed
    // A server that hands out a cursor twice would page forever.
    if (seen.has(cursor)) throw new InvokeError('invalid_schema', `[mcp] The MCP server gave the tools/list cursor "${cursor}" twice; its list never ends.`)
    seen.add(cursor)
  }
  throw new InvokeError('invalid_schema', `[mcp] The MCP server's tool list ran past ${MAX_PAGES} pages.`)
}

function toTool(client: McpClientLike, listed: McpListedTool, timeoutMs: number | undefined): McpTool {
  if (typeof listed?.name !== 'string' || listed.name === '') throw new InvokeError('invalid_schema', '[mcp] The MCP server listed a tool without a name.')
  // MCP requires `type: "object"`; a server that leaves it out (or the whole schema) still means one.
  const given: Record<string, unknown> = typeof listed.inputSchema === 'object' && listed.inputSchema !== null ? listed.inputSchema : {}
  const schema = given.type === undefined ? { ...given, type: 'object' } : given
  const description = listed.description ?? listed.title ?? listed.annotations?.title
  return {
    ...(description === undefined ? {} : { description }),
    inputSchema: jsonSchema<Record<string, unknown>>(schema),
    mcp: { name: listed.name, title: listed.title ?? listed.annotations?.title, annotations: listed.annotations },
    async execute(input: Record<string, unknown>, context: ToolExecuteContext) {
      const callOptions = { ...(context.signal ? { signal: context.signal } : {}), ...(timeoutMs === undefined ? {} : { timeout: timeoutMs }) }
      const result = (await client.callTool({ name: listed.name, arguments: input }, undefined, callOptions)) as McpCallResult
      if (typeof result !== 'object' || result === null) throw new McpToolError(`the MCP server answered tools/call with ${String(result)}`, {})
      if (result.isError) throw new McpToolError(textOf(result) || `the MCP server reported an error calling "${listed.name}"`, result)
      return outputOf(result)
    },
  }
}

function textOf(result: McpCallResult): string {
  const parts = Array.isArray(result.content) ? result.content : []
  return parts
    .filter((part) => part?.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text)
    .join('\n')
}

function outputOf(result: McpCallResult): McpToolOutput {
  if (typeof result.structuredContent === 'object' && result.structuredContent !== null) return result.structuredContent
  const parts = Array.isArray(result.content) ? result.content : []
  return parts.every((part) => part?.type === 'text') ? textOf(result) : parts
}

/** A name the OpenAI API accepts: other characters become `_`, and a long name keeps a hash of the whole. */
function sanitize(name: string): string {
  if (VALID_NAME.test(name)) return name
  const cleaned = name.replace(/[^\w-]/g, '_') || '_'
  if (cleaned.length <= MAX_NAME) return cleaned
  // Two long names that share their first 55 characters must still differ.
  const hash = `_${fnv1a(name)}`
  return cleaned.slice(0, MAX_NAME - hash.length) + hash
}

function uniqueName(name: string, taken: Record<string, unknown>): string {
  if (!Object.hasOwn(taken, name)) return name
  for (let index = 2; ; index++) {
    const suffix = `_${index}`
    const candidate = name.length + suffix.length > MAX_NAME ? name.slice(0, MAX_NAME - suffix.length) + suffix : name + suffix
    if (!Object.hasOwn(taken, candidate)) return candidate
  }
}

function fnv1a(text: string): string {
  let hash = 0x811c9dc5
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193)
  }
  return (hash >>> 0).toString(36)
}
