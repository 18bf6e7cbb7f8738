import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { extname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startScriptedServer, type ScriptedServer } from '@wildcall/sdk/testing'
import { chromium, type Browser, type Page } from 'playwright-core'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertChromium, findChromium } from '../../../test/chromium'
// @ts-expect-error -- a plain JS module shared with serve.mjs
import { shopScript } from '../scripted-shop-model.js'

const exampleRoot = fileURLToPath(new URL('..', import.meta.url))
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url))
const { executablePath: CHROMIUM, skip } = findChromium('examples/browser')

const CONTENT_TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' }

/** Serves the built page: a static server on 127.0.0.1, no Vite at run time. */
async function serveDirectory(directory: string): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '')
    const file = join(directory, path === '/' ? 'index.html' : path)
    readFile(file).then(
      (content) => response.writeHead(200, { 'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' }).end(content),
      () => response.writeHead(404).end('not found'),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` }
}

describe.skipIf(skip)('examples/browser in headless Chromium', { timeout: 90_000 }, () => {
  let scripted: ScriptedServer
  let staticServer: { server: Server; url: string }
  let browser: Browser
  let outDir: string

  beforeAll(async () => {
    assertChromium(CHROMIUM)
    scripted = await startScriptedServer({ script: shopScript })
    outDir = await mkdtemp(join(tmpdir(), 'wildcall-browser-'))
    // A production build: what a user ships. It fails on a Node built-in the SDK might pull in.
    await build({ root: exampleRoot, configFile: false, logLevel: 'warn', build: { outDir, emptyOutDir: true } })
    staticServer = await serveDirectory(outDir)
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    })
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await new Promise((resolve) => staticServer?.server.close(resolve))
    await scripted?.close()
    if (outDir) await rm(outDir, { recursive: true, force: true })
  })

  async function runPage(stream: boolean): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    const url = new URL(staticServer.url)
    url.search = new URLSearchParams({ baseURL: scripted.url, model: 'scripted-demo', scripted: '1', autorun: '1', stream: stream ? '1' : '0' }).toString()
    await page.goto(url.toString())
    await page.waitForSelector('#status[data-state="done"], #status[data-state="error"]', { timeout: 30_000 })
    return { page, errors }
  }

  it('should drive the macro tool with streaming and show reflection, action and fixes of each step', async () => {
    const requestsBefore = scripted.requests.length
    const { page, errors } = await runPage(true)
    expect(await page.textContent('#status')).toContain('Done in 3 steps: The first result is Trail Runner 2 at $89.')
    expect(await page.getAttribute('#status', 'data-state')).toBe('done')
    expect(await page.textContent('#endpoint-note')).toContain('It is not a model')

    const steps = page.locator('#steps .step')
    expect(await steps.count()).toBe(3)
    // Step 1 was Hermes markup in content, step 2 double-encoded arguments: both repaired.
    expect(await steps.nth(0).locator('.action').textContent()).toBe('action: input_text {"index":1,"text":"trail shoes"}')
    expect(await steps.nth(0).locator('dd[data-key="next_goal"]').textContent()).toBe('Type "trail shoes" into the search box [1].')
    expect(await steps.nth(0).locator('.fixes').textContent()).not.toBe('fixes: none')
    expect(await steps.nth(1).locator('.action').textContent()).toBe('action: click_element_by_index {"index":2}')
    expect(await steps.nth(1).locator('.fixes').textContent()).not.toBe('fixes: none')
    expect(await steps.nth(2).locator('.fixes').textContent()).toBe('fixes: none')
    expect(await steps.nth(2).locator('dd[data-key="memory"]').textContent()).toBe('First result: Trail Runner 2, $89.')

    // The reflection was shown while it streamed: characters and partial arguments arrived live.
    for (let index = 0; index < 3; index++) {
      expect(Number(await steps.nth(index).getAttribute('data-streamed-characters'))).toBeGreaterThan(50)
    }
    expect(Number(await steps.nth(2).getAttribute('data-partial-updates'))).toBeGreaterThan(1)

    // The actions really ran on the page's DOM.
    expect(await page.inputValue('#search')).toBe('trail shoes')
    expect(await page.locator('#results a').allTextContents()).toEqual(['Trail Runner 2 — $89', 'Summit Hiker GTX — $149'])

    // The browser sent streaming requests, cross-origin, with a named tool choice.
    const sent = scripted.requests.slice(requestsBefore)
    expect(sent).toHaveLength(3)
    expect(sent.every((request) => request.body.stream === true)).toBe(true)
    expect(sent[0]!.body.tool_choice).toEqual({ type: 'function', function: { name: 'AgentOutput' } })
    expect(errors).toEqual([])

    await mkdir(join(repoRoot, 'test-results'), { recursive: true })
    await page.screenshot({ path: join(repoRoot, 'test-results/browser-example.png'), fullPage: true })
    await page.close()
  })

  it('should run the same steps with invoke when streaming is off', async () => {
    const requestsBefore = scripted.requests.length
    const { page, errors } = await runPage(false)
    expect(await page.getAttribute('#status', 'data-state')).toBe('done')
    expect(await page.locator('#steps .step .action').allTextContents()).toEqual([
      'action: input_text {"index":1,"text":"trail shoes"}',
      'action: click_element_by_index {"index":2}',
      'action: done {"text":"The first result is Trail Runner 2 at $89.","success":true}',
    ])
    expect(scripted.requests.slice(requestsBefore).every((request) => request.body.stream === undefined)).toBe(true)
    expect(errors).toEqual([])
    await page.close()
  })
})
