// Decoding every snapshot of a report in the page, two ways: one
// DecompressionStream per snapshot (all started at once, and 500 in series),
// and web/inflate.js (LTInflate, synchronous). Prints JSON (ms).
// usage: node bench/report/decode.mjs REPORT.html
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const { chromium } = createRequire(path.join(here, '../../tests/browser/'))('playwright-core');
const browser = await chromium.launch({ executablePath: process.env.LT_CHROMIUM || '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage();
await page.goto(pathToFileURL(path.resolve(process.argv[2])).href);
await page.waitForFunction(() => document.documentElement.dataset.rendered !== undefined);
console.log(JSON.stringify(await page.evaluate(async () => {
  const n = window.__lt.snaps.size, txt = [];
  for (let k = 0; k < n; k++) txt.push(document.getElementById('z' + k).textContent);
  const bins = txt.map((s) => { const b = atob(s), u = new Uint8Array(b.length); for (let i = 0; i < b.length; i++) u[i] = b.charCodeAt(i); return u; });
  const stream = (u) => new Response(new Blob([u]).stream().pipeThrough(new DecompressionStream('gzip'))).text();
  let t = performance.now();
  const a = await Promise.all(bins.map(stream));
  const streamsAll = performance.now() - t;
  t = performance.now();
  for (let k = 0; k < Math.min(500, n); k++) await stream(bins[k]);
  const streams500 = performance.now() - t;
  t = performance.now();
  const b = txt.map((z) => LTInflate.gunzipBase64(z));
  const inflateAll = performance.now() - t;
  return { snapshots: n, gzip_bytes: bins.reduce((s, u) => s + u.length, 0), text_chars: a.reduce((s, x) => s + x.length, 0),
    same_texts: a.every((x, i) => x === b[i]), decompression_streams_all_ms: Math.round(streamsAll),
    decompression_streams_500_serial_ms: Math.round(streams500), inflate_js_all_ms: Math.round(inflateAll) };
})));
await browser.close();
