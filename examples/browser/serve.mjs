// Starts the scripted server and the Vite dev server, then prints the page's URL:
//   node examples/browser/serve.mjs     (after `npm run build`, so @wildcall/sdk's dist exists)
import { fileURLToPath } from 'node:url'
import { startScriptedServer } from '@wildcall/sdk/testing'
import { createServer } from 'vite'
import { shopScript } from './scripted-shop-model.js'

const root = fileURLToPath(new URL('.', import.meta.url))
const scripted = await startScriptedServer({ script: shopScript })
const vite = await createServer({ root, configFile: false, server: { host: '127.0.0.1', port: 5173 } })
await vite.listen()
const page = new URL(vite.resolvedUrls.local[0])
page.searchParams.set('baseURL', scripted.url)
page.searchParams.set('model', 'scripted-demo')
page.searchParams.set('scripted', '1')
console.log(`Scripted server (replays scripted replies; it is not a model): ${scripted.url}`)
console.log(`Open: ${page}`)
const stop = async () => {
  await vite.close()
  await scripted.close()
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
