// The viewer on a synthetic trace: header, tabs, j/k, filters, nesting,
// folding (Expand / Show all / Collapse / Shift+E), the failed-pass box and a
// codegen record. Expectations come from trace.json and the raw files the
// engine wrote beside the report, not from the report itself.
import { run, synth, open, check, activeIndex, openingPass, gotoPass, fs, path } from './helpers.mjs';

const t = synth(['--passes', '30', '--lines', '300', '--fail-at', '7']);
check(t.status === 0, 'synth-trace ran' + (t.status ? ': ' + t.stderr.slice(-300) : ''));
const trace = JSON.parse(fs.readFileSync(path.join(t.runDir, 'trace.json'), 'utf8'));
const recs = trace.records;

await run('viewer', async (ctx) => {
  const errors = [];
  // Through the <script_dir>/report.html symlink, as users open it.
  check(fs.lstatSync(t.linked).isSymbolicLink(), 'script-dir report.html is a symlink');
  const page = await open(ctx, t.linked, { errors });
  check(!fs.existsSync(path.join(t.runDir, 'report_data')), 'chunk folder removed at the end');
  const html = fs.readFileSync(t.report, 'utf8');
  check(!/<script[^>]* src=/.test(html), 'final report loads no external script');

  const count = await page.textContent('#hdr-count');
  check(count === `${recs.length} passes recorded`, `header counts ${recs.length} passes: "${count}"`);
  check((await page.textContent('#hdr-input')).includes('synthetic.mlir'), 'header shows the traced input');
  const phases = [...new Set(recs.map((r) => r.phase))];
  const tabs = await page.$$eval('.tab', (els) => els.map((e) => e.dataset.phase));
  check(JSON.stringify(tabs) === JSON.stringify(phases), 'one tab per phase in order: ' + tabs.join(','));

  // Opens on the failure; j/k across tabs
  check(await activeIndex(page) === openingPass(recs).index && openingPass(recs).status === 'failed', 'the failed pass is selected on load');
  await gotoPass(page, recs[0]);
  await page.keyboard.press('j');
  check(await activeIndex(page) === 1, 'j selects the next pass');
  check(await page.getAttribute('.tab.active', 'data-phase') === 'pipeline', 'j switched to the pipeline tab');
  await page.keyboard.press('k');
  check(await activeIndex(page) === 0 && await page.getAttribute('.tab.active', 'data-phase') === 'unscoped', 'k goes back across tabs');
  await page.keyboard.press('Control+j');
  check(await activeIndex(page) === 0, 'Ctrl+J is left to the browser');

  // filter badges
  await page.keyboard.press('j');
  await page.click('.badge[data-filter="failed"]');
  const failed = recs.filter((r) => r.status === 'failed');
  let vis = await page.$$eval('.pl:not([hidden])', (els) => els.map((e) => +e.dataset.index));
  check(JSON.stringify(vis) === JSON.stringify(failed.map((r) => r.index)), 'failed badge shows only failed passes: ' + vis);
  check(await activeIndex(page) === failed[0].index, 'filtering selected the first visible pass');
  check(await page.$eval('.errbox', (e) => e.textContent.includes('Boom: pass-7')), 'failed pass shows its error box');
  await page.click('.toggle-ir');
  await page.waitForSelector('.vbox .r.s');
  const firstLine = await page.$eval('.vbox .r.s .tx', (e) => e.textContent);
  const beforeFile = fs.readFileSync(path.join(t.runDir, failed[0].before_text.file), 'utf8');
  check(firstLine === beforeFile.split('\n')[0], 'failed pass shows the IR before it');
  await page.click('.badge[data-filter="noop"]');
  const noops = recs.filter((r) => r.phase === 'pipeline' && r.status === 'completed' && !r.changed).map((r) => r.index);
  vis = await page.$$eval('.pl:not([hidden])', (els) => els.map((e) => +e.dataset.index));
  check(JSON.stringify(vis) === JSON.stringify(noops), 'no-op badge filters the sidebar');
  const at = await activeIndex(page);
  await page.keyboard.press('j');
  const after = await activeIndex(page);
  check(noops.includes(after) && after > at && !recs.slice(at + 1, after).some((r) => noops.includes(r.index)), 'j skips filtered-out passes');
  check(await page.$eval('#pane', (e) => e.textContent.includes('This pass did not modify the IR.')), 'no-op message');
  await page.click('.badge[data-filter="noop"]');
  vis = await page.$$eval('.pl:not([hidden])', (els) => els.length);
  check(vis === recs.filter((r) => r.phase === 'pipeline').length, 'clicking the badge again clears the filter');

  // nesting
  const child = recs.find((r) => r.depth === 1);
  check(await page.$(`.pl[data-index="${child.index}"][data-depth="1"][data-parent-index="${child.parent_index}"]`) !== null, 'nested pass carries depth and parent');
  await page.click(`.pl[data-index="${child.parent_index}"] .caret`);
  check(await page.$eval(`.pl[data-index="${child.index}"]`, (e) => e.hidden), 'collapsing a parent hides its children');
  await page.click(`.pl[data-index="${child.parent_index}"] .caret`);
  check(!(await page.$eval(`.pl[data-index="${child.index}"]`, (e) => e.hidden)), 'and expanding shows them again');

  // folding on a changed pass
  const changed = recs.find((r) => r.status === 'completed' && r.changed && r.add_lines + r.del_lines < 10);
  await page.click(`.pl[data-index="${changed.index}"]`);
  await page.waitForSelector('.vbox .r.d');
  const folds = () => page.$$eval('.r.fold', (els) => els.length);
  const hidden = () => page.$$eval('.r.fold', (els) => els.reduce((n, e) => n + +/\((\d+) hidden/.exec(e.textContent)[1], 0));
  const f0 = await folds(), h0 = await hidden();
  check(f0 > 0, `changed pass folds context (${f0} fold rows, ${h0} hidden lines)`);
  const firstFold = await page.$eval('.r.fold', (e) => +/\((\d+) hidden/.exec(e.textContent)[1]);
  await page.click('.r.fold');
  const h1 = await hidden();
  check(h0 - h1 === Math.min(40, firstFold), `Expand reveals 20 lines each way (${h0} -> ${h1})`);
  await page.click('.r.fold', { modifiers: ['Alt'] });
  check(await hidden() < h1, 'Alt+click reveals a whole fold');
  await page.click('text=Show all context');
  check(await folds() === 0, 'Show all context removes every fold');
  check(await page.$eval('text=Show all context', (b) => b.disabled), 'and then disables itself');
  const ln = await page.$$eval('.vbox .r.d', (rows) => rows.map((r) => [...r.querySelectorAll('.ln')].map((c) => c.textContent)));
  const mono = (side) => { const v = ln.map((p) => p[side]).filter(Boolean).map(Number); return v.every((x, i) => i === 0 || x > v[i - 1]); };
  check(mono(0) && mono(1), 'line numbers never go backwards on either side');
  // Rows are virtualised: scroll the first paired change into view, then look.
  const pair = await page.evaluate(() => {
    const v = window.__lt.view, ri = v.rows.findIndex((r) => r.k === 'c' && r.l >= 0 && r.r >= 0);
    if (ri < 0) return -1;
    v.list.scrollToRow(v.disp.indexOf(ri)); v.list.draw();
    return ri;
  });
  check(pair >= 0, 'the diff pairs a changed line with its new version');
  await page.waitForSelector(`.vbox .r.d[data-row="${pair}"]`);
  check(await page.$$eval(`.vbox .r.d[data-row="${pair}"] .hl`, (e) => e.length) > 0, 'changed line pairs have intraline highlights');
  await page.click('text=⊟ Collapse');
  check(await folds() === f0 && await hidden() === h0, 'Collapse restores the original folds');
  await page.keyboard.press('Shift+E');
  check(await folds() === 0, 'Shift+E expands everything');
  await page.keyboard.press('Shift+E');
  check(await folds() === f0, 'Shift+E again collapses');

  // whitespace-only pairs and the trailing-newline-only message
  let wsSeen = false;
  for (const r of recs.filter((x) => x.phase === 'pipeline' && x.status === 'completed' && x.changed && x.depth === 0)) {
    await page.click(`.pl[data-index="${r.index}"]`);
    await page.waitForFunction((i) => document.documentElement.dataset.rendered === String(i), r.index);
    const ws = await page.$$eval('.vbox .r.wsrow', (rows) => rows.map((row) => [...row.querySelectorAll('.sg')].map((c) => c.textContent).join('')));
    if (ws.length) { wsSeen = ws.every((s) => s === '~~'); break; }
  }
  check(wsSeen, 'a whitespace-only change is marked ~ on both sides');
  const eol = recs.find((r) => r.name === 'strip-final-newline');
  await page.click(`.pl[data-index="${eol.index}"]`);
  await page.waitForFunction((i) => document.documentElement.dataset.rendered === String(i), eol.index);
  const msg = await page.textContent('#pane');
  check(msg.includes('Only the trailing newline differs (before: present, after: absent)'), 'trailing-newline-only change is named');
  check(await page.$('.vbox') === null, 'and no diff table is drawn for it');

  // codegen
  const cg = recs.find((r) => r.status === 'codegen');
  await page.click(`.tab[data-phase="${cg.phase}"]`);
  check(await activeIndex(page) === cg.index, 'clicking a tab selects its first pass');
  await page.waitForSelector('.toolbar .mode');
  const bar = await page.$$eval('.toolbar .mode', (b) => b.map((x) => x.textContent));
  check(bar.includes('Lowered MLIR') && bar.includes('Generated PTX'), 'codegen labels both languages: ' + bar);
  const copies = await page.$$eval('button.copy', (b) => b.map((x) => x.textContent));
  check(copies.some((c) => c.includes('Copy PTX')) && copies.some((c) => c.includes('Copy MLIR')), 'codegen copy buttons name the languages');
  check(await page.$$eval('.vbox .r.s .sx-k', (e) => e.length) > 0, 'generated PTX is shown as code, syntax coloured');

  // sidebar chrome
  await page.click('#sb-collapse');
  check(!(await page.isVisible('#sidebar')) && await page.isVisible('#sb-open'), 'sidebar collapses');
  await page.click('#sb-open');
  check(await page.isVisible('#sidebar'), 'and opens again');
  const box = await page.$eval('#sb-resize', (e) => { const r = e.getBoundingClientRect(); return [r.x + 2, r.y + 50]; });
  await page.mouse.move(box[0], box[1]); await page.mouse.down(); await page.mouse.move(box[0] + 500, box[1]); await page.mouse.up();
  const w = await page.$eval('#sidebar', (e) => e.getBoundingClientRect().width);
  check(w === 600, 'sidebar resizes, clamped at 600 px: ' + w);

  check(errors.length === 0, 'no page errors: ' + errors.join('; '));
});
