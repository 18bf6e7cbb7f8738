import { build } from 'esbuild'
import { gzipSync } from 'node:zlib'
const r = await build({ entryPoints: ['packages/sdk/src/core.ts'], bundle: true, minify: true, format: 'esm', platform: 'browser', target: 'es2022', external: ['zod', 'zod/*'], write: false, metafile: true, logLevel: 'silent' })
const out = Object.values(r.metafile.outputs)[0].inputs
const rows = Object.entries(out).map(([k, v]) => [k, v.bytesInOutput]).sort((a, b) => b[1] - a[1])
console.log(gzipSync(r.outputFiles[0].contents, { level: 9 }).length)
for (const [k, v] of rows.filter(([k]) => /client\/(adapt|profile|invoke|build-history|create-client)|classify-http/.test(k))) console.log(v, k)
