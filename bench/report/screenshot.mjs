// Takes docs/report.png: the report of a real Triton softmax MLIR dump, on its
// largest changed pass. usage: node bench/report/screenshot.mjs REPORT.html OUT.png
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const { chromium } = createRequire(path.join(here, '../../tests/browser/'))('playwright-core');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'] });
const page = await browser.newPage({ viewport: { width: 1440, height: 860 }, colorScheme: process.env.THEME || 'light' });
await page.goto(pathToFileURL(path.resolve(process.argv[2])).href);
await page.waitForFunction(() => document.documentElement.dataset.rendered !== undefined);
const target = await page.evaluate(() => {
  const rs = window.__lt.order.filter((r) => r.c && r.a + r.d < 60).sort((a, b) => (b.a + b.d) - (a.a + a.d));
  return rs[0].i;
});
await page.evaluate((i) => { const r = window.__lt.recs.get(i);
  document.querySelector(`.tab[data-phase="${r.p}"]`).click(); document.querySelector(`.pl[data-index="${i}"]`).click(); }, target);
await page.waitForFunction((i) => document.documentElement.dataset.rendered === String(i), target);
await page.screenshot({ path: process.argv[3] });
await browser.close();
