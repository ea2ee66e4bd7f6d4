// Times the report features on a big report in headless Chromium and prints
// JSON: first pass shown, then from that moment a search over every snapshot
// (index build included: nothing is decoded before the first query), a second
// search (index built), picking a function in the filter, ticking "Hide
// locations" (recounts the passes whose texts carry locations), and the renderer's
// peak memory (VmHWM) after all of it.
// usage: node bench/report/features.mjs REPORT.html QUERY [FUNCTION]
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const { chromium } = createRequire(path.join(here, '../../tests/browser/'))('playwright-core');
const [file, query, fn] = [path.resolve(process.argv[2]), process.argv[3], process.argv[4]];
const browser = await chromium.launch({
  executablePath: process.env.LT_CHROMIUM || '/usr/bin/chromium', headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
function tree(pid) {
  const kids = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try { const st = fs.readFileSync(`/proc/${d}/stat`, 'utf8'); if (+st.slice(st.lastIndexOf(')') + 2).split(' ')[1] === pid) kids.push(+d); } catch { }
  }
  return [pid, ...kids.flatMap(tree)];
}
const hwm = (pid) => { try { return +/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1] * 1024; } catch { return 0; } };
const errors = [];
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
page.on('pageerror', (e) => errors.push(String(e)));
const t0 = Date.now();
await page.goto(pathToFileURL(file).href, { waitUntil: 'commit' });
await page.waitForFunction(() => document.documentElement.dataset.rendered !== undefined, null, { timeout: 120000, polling: 10 });
const first = Date.now() - t0;
const search = async () => {
  const t = Date.now();
  await page.fill('#ft-q', query);
  await page.evaluate(() => { document.getElementById('fpanel').dataset.state = ''; });
  await page.press('#ft-q', 'Enter');
  await page.waitForFunction(() => document.getElementById('fpanel').dataset.state === 'done', null, { timeout: 120000, polling: 10 });
  return Date.now() - t;
};
const s1 = await search();
const hits = await page.$eval('#fpanel .fp-msg', (e) => { const m = /^(\d+) pass/.exec(e.textContent); return m ? +m[1] : 0; });
const s2 = await search();
let f = null;
if (fn) {
  const t = Date.now();
  await page.evaluate((n) => window.LTViewer.filterAnchor(n), fn);
  f = Date.now() - t;
}
// Hide locations: strips them from every snapshot that has any and recounts those passes.
let hide = Date.now();
await page.evaluate(() => window.LTViewer.setHideLocations(true));
hide = Date.now() - hide;
const procs = tree(process.pid).filter((p) => p !== process.pid);
console.log(JSON.stringify({
  report_bytes: fs.statSync(file).size, passes: await page.evaluate(() => window.__lt.recs.size),
  snapshots: await page.evaluate(() => window.__lt.snaps.size), query, hits,
  first_pass_ms: first, first_search_ms: s1, next_search_ms: s2, filter_ms: f, hide_locations_ms: hide,
  peak_rss_max_process_mb: Math.round(Math.max(...procs.map(hwm)) / 1048576), errors,
}));
await browser.close();
