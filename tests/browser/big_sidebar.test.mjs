// A tab with thousands of passes (an LLVM trace has one per function per
// pass) gets a virtual sidebar: only the rows in view are elements, and the
// list still behaves like the full one: every pass reachable by scrolling,
// j/k, clicking, the filter badges and collapsing nested passes.
import { run, synth, open, check } from './helpers.mjs';

const t = synth(['--passes', '2500', '--lines', '40']);
check(t.status === 0, 'synth-trace of 2,500 passes ran');

const rowsInDom = (page) => page.$$eval('#sb-list .pl', (e) => e.map((x) => +x.dataset.index));
const model = (page) => page.evaluate(() => window.__lt.order.filter((r) => r.p === 'pipeline').map((r) => r.i));
const rendered = (page) => page.waitForFunction(() => document.documentElement.dataset.rendered === String(window.__lt.cur));

await run('big_sidebar', async (ctx) => {
  const errors = [];
  const page = await open(ctx, t.report, { errors });
  await page.click('.tab[data-phase="pipeline"]');
  await rendered(page);
  const all = await model(page);
  check(all.length > 2000, `the pipeline tab has ${all.length} passes`);
  let dom = await rowsInDom(page);
  check(dom.length > 10 && dom.length < 200, `only the rows in view are elements (${dom.length})`);
  check(dom[0] === all[0] && JSON.stringify(dom) === JSON.stringify(all.slice(0, dom.length)), 'they are the first passes, in order');
  const h = await page.$eval('#sb-list .sb-spacer', (e) => e.getBoundingClientRect().height);
  const rowH = await page.$eval('#sb-list .pl', (e) => e.getBoundingClientRect().height);
  check(Math.abs(h - rowH * all.length) < 2, `the list scrolls as far as ${all.length} rows would (${h} px)`);

  // Scroll to the end: the last passes are drawn, in order.
  await page.$eval('#sb-list', (e) => { e.scrollTop = e.scrollHeight; });
  await page.waitForFunction((last) => [...document.querySelectorAll('#sb-list .pl')].some((x) => +x.dataset.index === last), all[all.length - 1]);
  dom = await rowsInDom(page);
  check(JSON.stringify(dom) === JSON.stringify(all.slice(all.length - dom.length)), 'scrolled to the end: the last passes, in order');
  const lastBox = await page.$eval(`#sb-list .pl[data-index="${all[all.length - 1]}"]`, (e) => { const a = e.getBoundingClientRect(), b = e.parentElement.parentElement.parentElement.getBoundingClientRect(); return [a.bottom, b.bottom]; });
  check(Math.abs(lastBox[0] - lastBox[1]) < rowH + 1, 'the last row sits at the bottom of the list');

  // Click a drawn row far down: it is selected and rendered.
  const target = dom[Math.floor(dom.length / 2)];
  // The virtual list may still be redrawing after the scroll (rows are
  // re-created): a click can land while the row moves under the pointer, so
  // wait for the selection and click again once if it was lost.
  for (let attempt = 0; attempt < 2; attempt++) {
    await page.click(`#sb-list .pl[data-index="${target}"]`);
    const ok = await page.waitForFunction((t) => window.__lt.cur === t, target, { timeout: 5000 }).then(() => true, () => false);
    if (ok) break;
  }
  await rendered(page);
  check(await page.evaluate(() => window.__lt.cur) === target, `clicking row ${target} selects it`);
  check(await page.$eval(`#sb-list .pl[data-index="${target}"]`, (e) => e.classList.contains('active')), 'and marks it active');

  // k from the top pass back across tabs, and j walking into undrawn rows.
  await page.$eval('#sb-list', (e) => { e.scrollTop = 0; });
  await page.click(`#sb-list .pl[data-index="${all[0]}"]`);
  for (let i = 0; i < 120; i++) await page.keyboard.press('j');
  await rendered(page);
  const cur = await page.evaluate(() => window.__lt.cur);
  check(cur === all[120], `120 x j reaches pass ${all[120]} (at ${cur})`);
  const inView = await page.$eval(`#sb-list .pl[data-index="${cur}"]`, (e) => {
    const a = e.getBoundingClientRect(), l = document.getElementById('sb-list').getBoundingClientRect();
    return e.classList.contains('active') && a.top >= l.top - 1 && a.bottom <= l.bottom + 1;
  }).catch(() => false);
  check(inView, 'the selected row was scrolled into view and drawn active');

  // Filter badges: only matching passes are in the list, and j stays in them.
  await page.click('.badge[data-filter="changed"]');
  const changed = await page.evaluate(() => window.__lt.order.filter((r) => r.p === 'pipeline' && r.s === 'completed' && r.c).map((r) => r.i));
  const h2 = await page.$eval('#sb-list .sb-spacer', (e) => e.getBoundingClientRect().height);
  check(Math.abs(h2 - rowH * changed.length) < 2, `filtered: the list is ${changed.length} rows long`);
  dom = await rowsInDom(page);
  check(dom.every((i) => changed.includes(i)), 'only changed passes are drawn');
  const before = await page.evaluate(() => window.__lt.cur);
  await page.keyboard.press('j');
  await rendered(page);
  const after = await page.evaluate(() => window.__lt.cur);
  check(changed.includes(after) && after > before, `j moves to the next changed pass (${before} -> ${after})`);
  await page.click('.badge[data-filter="changed"]');

  // Collapsing a parent removes its nested passes from the list.
  const parent = await page.evaluate(() => { const r = window.__lt.order.find((x) => x.p === 'pipeline' && x.dp === 1); return r.pi; });
  const kids = await page.evaluate((p) => window.__lt.order.filter((r) => r.pi === p).map((r) => r.i), parent);
  const pos = all.indexOf(parent);
  await page.$eval('#sb-list', (e, y) => { e.scrollTop = y; }, pos * rowH);
  await page.waitForSelector(`#sb-list .pl[data-index="${parent}"] .caret[data-toggle]`);
  await page.click(`#sb-list .pl[data-index="${parent}"] .caret`);
  await page.waitForFunction((n) => Math.abs(document.querySelector('#sb-list .sb-spacer').getBoundingClientRect().height - n) < 2, rowH * (all.length - kids.length));
  dom = await rowsInDom(page);
  check(kids.length > 0 && !kids.some((k) => dom.includes(k)) && dom.includes(parent), `collapsing pass ${parent} hides its ${kids.length} nested passes`);
  await page.click(`#sb-list .pl[data-index="${parent}"] .caret`);
  await page.waitForFunction((k) => !!document.querySelector(`#sb-list .pl[data-index="${k}"]`), kids[0]);
  check(true, 'expanding shows them again');

  check(errors.length === 0, 'no page errors: ' + errors.join('; '));
});
