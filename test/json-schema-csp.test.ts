import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertChromium, findChromium } from './chromium'

const root = fileURLToPath(new URL('..', import.meta.url))
const { executablePath: CHROMIUM, skip } = findChromium('json-schema CSP')

// A page as strict as a browser extension's: scripts from the page's own origin only, and no
// `eval` / `new Function` ('unsafe-eval' is not granted). A JSON Schema tool must still validate,
// repair and coerce there.
const CSP = "default-src 'self'; script-src 'self'"
const PAGE = `<!doctype html><meta charset="utf-8"><title>csp</title><script type="module" src="/app.js"></script>`
const APP = `
import { defineTool, repairToolCall } from './packages/sdk/src/index.ts'
import { jsonSchema } from './packages/sdk/src/json-schema.ts'
const violations = []
document.addEventListener('securitypolicyviolation', (event) => violations.push(event.violatedDirective))
let evalBlocked = false
try { new Function('return 1')() } catch { evalBlocked = true }
const search = defineTool({
  inputSchema: jsonSchema({
    type: 'object',
    properties: { query: { type: 'string', minLength: 1 }, filters: { $ref: '#/$defs/Filters' }, since: { type: 'string', format: 'date' } },
    required: ['query'],
    $defs: { Filters: { type: 'object', properties: { max: { type: 'integer', minimum: 1, maximum: 50 } } } },
  }),
})
const message = (args) => ({ role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'search', arguments: JSON.stringify(args) } }] })
const repaired = repairToolCall(message({ query: 'cats', filters: '{"max": "5"}', since: '2026-12-01' }), { search })
let refused
try { repairToolCall(message({ query: 'cats', filters: { max: 99 } }), { search }) } catch (error) { refused = error.message }
window.__result = { evalBlocked, args: repaired.toolCall.args, fixes: repaired.fixes, refused, violations }
`

describe.skipIf(skip)('@wildcall/sdk/json-schema under a strict Content-Security-Policy (headless Chromium)', { timeout: 90_000 }, () => {
  let server: Server
  let url: string
  let browser: Browser

  beforeAll(async () => {
    assertChromium(CHROMIUM)
    const bundle = await build({
      stdin: { contents: APP, resolveDir: root, loader: 'ts', sourcefile: 'app.ts' },
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      write: false,
      logLevel: 'silent',
    })
    const app = bundle.outputFiles[0]!.contents
    server = createServer((request, response) => {
      if (request.url === '/app.js') response.writeHead(200, { 'content-type': 'text/javascript', 'content-security-policy': CSP }).end(app)
      else response.writeHead(200, { 'content-type': 'text/html', 'content-security-policy': CSP }).end(PAGE)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] })
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await new Promise((resolve) => server?.close(resolve))
  })

  it('should validate, coerce through a $ref and name the path of a bad field where eval is forbidden', async () => {
    const page = await browser.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    await page.goto(url)
    await page.waitForFunction(() => (window as unknown as { __result?: unknown }).__result !== undefined || document.readyState === 'complete')
    const result = await page.evaluate(() => (window as unknown as { __result?: unknown }).__result)
    expect(errors).toEqual([])
    expect(result).toEqual({
      // The control: the policy is in force, `new Function` is refused on this page.
      evalBlocked: true,
      args: { query: 'cats', filters: { max: 5 }, since: '2026-12-01' },
      fixes: ['double-encoded-arguments', 'coerced:integer'],
      refused: expect.stringContaining('search.filters.max: expected integer ≥ 1 and ≤ 50, got 99'),
      // Only the control's own attempt was reported.
      violations: ['script-src'],
    })
    await page.close()
  })
})
