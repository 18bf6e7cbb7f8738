// Issue 33: an author's adapter and reader, good, then with one mistake planted at a time. The kit
// must pass the good ones and fail each planted mistake by itself, with a message naming the fix.
import { describe, expect, it } from 'vitest'
import { defineAdapter } from '../adapters/define-adapter'
import type { Adapter } from '../adapters/types'
import type { Reader, ReaderCall } from '../repair/reader'
import { failuresOf, type SuiteFailure } from './__fixtures__/collect-suite'
import { toolCallResponse } from './scripted-server'
import { registerAdapterSuite, type AdapterTestOptions } from './test-adapter'
import { registerReaderSuite, type ReaderTestOptions } from './test-reader'

interface Plants {
  /** Acme's API quirk (no parallel_tool_calls) patched on every host. */
  everyHost?: boolean
  /** The caller's messages trimmed in place instead of on copies. */
  inPlace?: boolean
  /** `echoFields` left out. */
  noEcho?: boolean
  /** The model adapter also claims openrouter.ai. */
  claimsOpenRouter?: boolean
  /** The family's default temperature set over the user's. */
  overridesTemperature?: boolean
}

const ACME_API = /(?:^|\.)acme\.test(?::\d+)?$/

/** The author's adapter: a host-only patch, a reasoning switch, its own finish reason, an echoed field. */
function acmeAdapter(plants: Plants = {}): Adapter {
  return defineAdapter({
    name: 'acme',
    kind: 'model',
    match: { models: ['acme-'], hosts: plants.claimsOpenRouter ? ['api.acme.test', 'openrouter.ai'] : ['api.acme.test'] },
    ...(plants.noEcho ? {} : { echoFields: { message: ['acme_state'] } }),
    patchRequest(body, context) {
      if (body.reasoning === undefined) body.reasoning = 'off'
      if (plants.overridesTemperature || context.temperature === undefined) body.temperature = 0.2
      if (plants.inPlace) {
        for (const message of body.messages) if (typeof message.content === 'string') message.content = message.content.trim()
      } else {
        body.messages = body.messages.map((message) => (typeof message.content === 'string' ? { ...message, content: message.content.trim() } : message))
      }
      if (plants.everyHost || ACME_API.test(context.host)) delete body.parallel_tool_calls
    },
    classifyFinish: (reason) => (reason === 'acme_done' ? 'ok' : undefined),
  })
}

/** The cases the scaffold starts an author with: a request on its own API, an echo case. */
const adapterCases: AdapterTestOptions = {
  requests: [{ name: "drops parallel_tool_calls on Acme's API", model: 'acme-2', baseURL: 'https://api.acme.test/v1', absent: ['parallel_tool_calls'] }],
  responses: [
    {
      name: 'keeps acme_state for the next request',
      model: 'acme-2',
      response: toolCallResponse('done', { text: 'ok' }, { message: { acme_state: 'opaque-7' } }),
      expected: { name: 'done', args: { text: 'ok' } },
    },
  ],
  finishes: [{ reason: 'acme_done', expected: 'ok' }],
}

const adapterFailures = (adapter: Adapter, options: AdapterTestOptions = adapterCases) => failuresOf((runner) => registerAdapterSuite(runner, adapter, options))

/** Every failure, and at least one, says `pattern`. */
function expectOnly(failures: SuiteFailure[], pattern: RegExp): void {
  expect(failures.length).toBeGreaterThan(0)
  for (const failure of failures) expect(failure.message, failure.name).toMatch(pattern)
}

describe('testAdapter on planted mistakes', () => {
  it('should pass the good adapter, with and without the author cases', async () => {
    expect(await adapterFailures(acmeAdapter())).toEqual([])
    expect(await adapterFailures(acmeAdapter(), {})).toEqual([])
  })

  it('should fail a provider patch applied on every host, naming what changed where and the fix', async () => {
    const failures = await adapterFailures(acmeAdapter({ everyHost: true }), {})
    expectOnly(
      failures,
      /patchRequest of "acme" for "acme-" on hosts it does not claim on https:\/\/api\.example\.com\/v1: removed parallel_tool_calls \(was false\);.* on https:\/\/openrouter\.ai\/api\/v1: removed parallel_tool_calls.* on http:\/\/localhost:8000\/v1 .*A patch for one provider's API must test the host \(e\.g\. if \(context\.host === 'api\.acme\.test'\)/,
    )
    // Said as a quirk of the model, it passes.
    expect(await adapterFailures(acmeAdapter({ everyHost: true }), { modelQuirks: ['parallel_tool_calls'] })).toEqual([])
  })

  it("should fail a patch that trims the caller's messages in place", async () => {
    expectOnly(await adapterFailures(acmeAdapter({ inPlace: true }), {}), /mutated the caller's messages in place \(.*\)\. body\.messages holds the app's own history objects: copy what you change/)
  })

  it('should fail an adapter whose echoFields were removed, on the echo case, naming the declaration', async () => {
    expectOnly(await adapterFailures(acmeAdapter({ noEcho: true })), /response case "keeps acme_state for the next request": the answer carries "acme_state", which the next request's history does not send back\. .*echoFields: \{ message: \["acme_state"\] \}/)
  })

  it('should fail a model adapter that also claims openrouter.ai', async () => {
    const failures = await adapterFailures(acmeAdapter({ claimsOpenRouter: true }), {})
    expect(failures.map((failure) => failure.name)).toContain('testAdapter: acme > match > should not claim a host that serves every family')
    expectOnly(failures, /model adapter "acme" matches "gpt-4\.1" on https:\/\/openrouter\.ai\/v1: openrouter\.ai serves every family.*remove "openrouter\.ai" from match\.hosts/)
  })

  it("should fail an adapter that overrides the user's temperature", async () => {
    expectOnly(await adapterFailures(acmeAdapter({ overridesTemperature: true }), {}), /sent temperature 0\.2 where the user configured 0\.3: set a family default only when the user chose none/)
  })

  it('should fail a fixResponse that drops a declared echo field', async () => {
    const dropping = defineAdapter({
      ...acmeAdapter(),
      fixResponse(response) {
        delete response.choices[0]?.message.acme_state
      },
    })
    expectOnly(await adapterFailures(dropping, {}), /echoFields of "acme" for "acme-": result\.messages lost the declared message field "acme_state" \(fixResponse must keep it/)
  })
})

interface ReaderPlants {
  /** Reads text an earlier reader took. */
  ignoresClaimed?: boolean
  /** Ends the call at the first closing tag, even inside a JSON string. */
  firstCloser?: boolean
}

const OPENER = /<acme:call name="([\w.-]{1,64})">/g
const CLOSER = '</acme:call>'

/** Where the JSON object starting at `from` ends (one past its `}`), or -1 when it does not close. */
function objectEnd(text: string, from: number): number {
  if (text[from] !== '{') return -1
  let depth = 0
  let inString = false
  for (let index = from; index < text.length; index++) {
    const char = text[index]
    if (inString) {
      if (char === '\\') index++
      else if (char === '"') inString = false
    } else if (char === '"') inString = true
    else if (char === '{') depth++
    else if (char === '}' && --depth === 0) return index + 1
  }
  return -1
}

/** The author's reader of `<acme:call name="…">{json}</acme:call>`: one linear pass. */
function acmeReader(plants: ReaderPlants = {}): Reader {
  return {
    name: 'acme',
    formats: ['tool-markup:acme'],
    read(text, context) {
      const calls: ReaderCall[] = []
      const opener = new RegExp(OPENER)
      for (let match = opener.exec(text); match; match = opener.exec(text)) {
        const start = match.index
        const bodyStart = opener.lastIndex
        const bodyEnd = plants.firstCloser ? text.indexOf(CLOSER, bodyStart) : objectEnd(text, bodyStart)
        if (bodyEnd < 0) {
          // Never closed: cut off, and nothing after it is a call (one pass, never a rescan).
          calls.push({ name: match[1], args: undefined, format: 'tool-markup:acme', fixes: [], start, end: text.length, truncated: true })
          break
        }
        if (!text.startsWith(CLOSER, bodyEnd)) continue
        const end = bodyEnd + CLOSER.length
        opener.lastIndex = end
        if (!plants.ignoresClaimed && context.claimed(start, end)) continue
        let args: unknown
        try {
          args = JSON.parse(text.slice(bodyStart, bodyEnd))
        } catch {
          continue
        }
        calls.push({ name: match[1], args, format: 'tool-markup:acme', fixes: [], start, end })
      }
      return calls
    },
  }
}

const readerOptions: ReaderTestOptions = { render: ({ name, args }) => `<acme:call name="${name}">${JSON.stringify(args)}</acme:call>` }
// The floods time the reader; the growth message has its own test (test-reader-growth.test.ts).
const readerFailures = (reader: Reader) => failuresOf((runner) => registerReaderSuite(runner, reader, readerOptions), /linear time/)

describe('testReader on planted mistakes', () => {
  it('should pass the good reader', async () => {
    expect(await failuresOf((runner) => registerReaderSuite(runner, acmeReader(), readerOptions))).toEqual([])
  })

  it('should fail a reader that ignores context.claimed, naming it', async () => {
    const failures = await readerFailures(acmeReader({ ignoresClaimed: true }))
    expect(failures.map((failure) => failure.name)).toEqual(['testReader: acme > should skip text an earlier reader took (context.claimed)'])
    expect(failures[0]!.message).toMatch(/skip a call whose range context\.claimed\(start, end\) says an earlier reader took/)
  })

  it('should fail a reader that ends a call at a closing tag inside a JSON string', async () => {
    const failures = await readerFailures(acmeReader({ firstCloser: true }))
    // Only the round trips whose string values are rendered calls, closer included.
    expect(failures.length).toBeGreaterThan(0)
    for (const failure of failures) {
      expect(failure.name).toMatch(/should read back \w+ \{"text":"(?:before )?<acme:call name=/)
      expect(failure.message).toMatch(/read nothing from ".*<\/acme:call>.*<\/acme:call>"/)
    }
  })
})
