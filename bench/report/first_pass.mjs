// Opens a report in headless Chromium and prints, as JSON: the time from
// navigation to the first pass being rendered, the time for `j` to show the
// next pass, the report size, and peak memory (VmHWM) of the browser's
// processes: the largest single process (the renderer) and the sum.
// usage: node bench/report/first_pass.mjs REPORT.html  (after npm install in tests/browser)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

// ES modules ignore NODE_PATH: load playwright-core from the browser tests' folder.
const here = path.dirname(fileURLToPath(import.meta.url));
const { chromium } = createRequire(path.join(here, '../../tests/browser/'))('playwright-core');

const file = path.resolve(process.argv[2]);
const browser = await chromium.launch({
  executablePath: process.env.LT_CHROMIUM || '/usr/bin/chromium', headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
// The browser is a child of this node process; its helpers are its children.
const root = process.pid;

function tree(pid) {
  const kids = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const st = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = +st.slice(st.lastIndexOf(')') + 2).split(' ')[1];
      if (ppid === pid) kids.push(+d);
    } catch { /* gone */ }
  }
  return [pid, ...kids.flatMap(tree)];
}
function hwm(pid) {
  try { return +/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1] * 1024; } catch { return 0; }
}

const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
const t0 = Date.now();
await page.goto(pathToFileURL(file).href, { waitUntil: 'commit' });
await page.waitForFunction(() => document.documentElement.dataset.rendered !== undefined, null, { timeout: 120000, polling: 10 });
const firstMs = Date.now() - t0;
// Next changed pass: the first pass is often a no-op, this one decodes and diffs.
await page.evaluate(() => { const r = window.__lt.order.find((x) => x.c && x.s === 'completed'); window.__lt_target = r.i; });
const t1 = Date.now();
await page.evaluate(() => { document.querySelector(`.tab[data-phase="${window.__lt.recs.get(window.__lt_target).p}"]`).click();
  document.querySelector(`.pl[data-index="${window.__lt_target}"]`).click(); });
await page.waitForFunction(() => document.documentElement.dataset.rendered === String(window.__lt_target) && document.querySelector('.vbox .r.d'), null, { timeout: 60000, polling: 10 });
const changedMs = Date.now() - t1;
const t2 = Date.now();
for (let i = 0; i < 20; i++) await page.keyboard.press('j');
await page.waitForFunction(() => document.documentElement.dataset.rendered === String(window.__lt.cur), null, { timeout: 60000, polling: 10 });
const jMs = (Date.now() - t2) / 20;
const procs = tree(root).filter((p) => p !== root);
const mem = procs.map(hwm);
const kindOf = (pid) => { try { const c = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'); const m = /--type=([a-z-]+)/.exec(c); return m ? m[1] : 'browser'; } catch { return '?'; } };
const byKind = {};
procs.forEach((p, i) => { const k = kindOf(p); byKind[k] = Math.max(byKind[k] || 0, Math.round(mem[i] / 1048576)); });
console.log(JSON.stringify({
  report_bytes: fs.statSync(file).size, passes: await page.evaluate(() => window.__lt.recs.size),
  first_pass_ms: firstMs, changed_pass_ms: changedMs, j_ms_avg: Math.round(jMs),
  peak_rss_max_process_mb: Math.round(Math.max(...mem) / 1048576), peak_rss_sum_mb: Math.round(mem.reduce((a, b) => a + b, 0) / 1048576),
  processes: procs.length, peak_rss_mb_by_type: byKind,
}));
await browser.close();
