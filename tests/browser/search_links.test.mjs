// Search across every pass, the function filter and links, on a real LLVM
// trace: opt-22 -O2 -print-after-all of a three-function module
// (tests/data/features/three_funcs.ll), imported by `lowertrace import`.
// Expected answers are computed here from trace.json and the raw files.
import { run, open, check, LT, tmpdir, fs, path } from './helpers.mjs';
import { spawnSync } from 'node:child_process';

const src = process.env.LT_SRC || path.resolve('../..');
const ll = path.join(src, 'tests/data/features/three_funcs.ll');
check(fs.existsSync(ll), 'fixture ' + ll + ' exists');
const work = tmpdir('search');
const opt = spawnSync('opt-22', ['-passes=default<O2>', '-print-after-all', ll, '-o', '/dev/null'], { encoding: 'utf8', maxBuffer: 1 << 28 });
check(opt.status === 0, 'opt-22 -O2 -print-after-all ran');
fs.writeFileSync(path.join(work, 'dump.txt'), opt.stderr);
const imp = spawnSync(LT, ['import', path.join(work, 'dump.txt'), '--mode', 'html', '--dir', path.join(work, 't'), '--script', 'm'], { encoding: 'utf8' });
check(imp.status === 0, 'lowertrace import ran' + (imp.status ? ': ' + imp.stderr : ''));
const runs = path.join(work, 't/m/.run_records');
const runDir = path.join(runs, fs.readdirSync(runs)[0]);
const recs = JSON.parse(fs.readFileSync(path.join(runDir, 'trace.json'), 'utf8')).records;
const text = (side) => (side && side.file ? fs.readFileSync(path.join(runDir, side.file), 'utf8') : null);
const texts = recs.map((r) => { const b = text(r.before_text), a = text(r.after_text); return { b: b || '', a: a === null ? (b || '') : a }; });

// The passes where the number of lines matching `test` changes.
function expected(test) {
  const count = (t) => t.split('\n').filter(test).length;
  return recs.filter((r, i) => count(texts[i].b) !== count(texts[i].a)).map((r) => r.index);
}
const rowsOf = (page) => page.$$eval('#fpanel .fp-row', (e) => e.map((x) => [+x.dataset.index, x.dataset.verb]));
async function search(page, q) {
  await page.evaluate(() => { document.getElementById('fpanel').dataset.state = ''; });
  await page.fill('#ft-q', q);
  await page.press('#ft-q', 'Enter');
  await page.waitForFunction(() => document.getElementById('fpanel').dataset.state === 'done');
  return rowsOf(page);
}
const rendered = (page, i) => page.waitForFunction((c) => document.documentElement.dataset.rendered === String(c) && window.__lt.cur === c, i);

await run('search_links', async (ctx) => {
  const errors = [];
  const page = await open(ctx, path.join(runDir, 'report.html'), { errors });
  check(recs.length > 300 && new Set(recs.map((r) => r.phase)).size === 1, `the trace has ${recs.length} passes, in one tab`);

  // The index decodes every snapshot itself (inflate.js): each must equal the raw text.
  const bad = await page.evaluate(async () => {
    await window.LTViewer.index.build();
    const S = window.__lt, wrong = [];
    for (const k of S.snaps.keys()) if (window.LTViewer.index.lines(k).join('\n') !== await window.__ltText(k)) wrong.push(k);
    return [wrong, S.snaps.size];
  });
  check(bad[0].length === 0, `the index holds every snapshot's exact text (${bad[1]} snapshots)`);

  // "Which pass removed the allocas": a regex, answered from every snapshot.
  const allocas = await search(page, '/%\\S+ = alloca/');
  const want = expected((l) => /%\S+ = alloca/.test(l));
  check(want.length > 0 && JSON.stringify(allocas.map((x) => x[0])) === JSON.stringify(want),
    `/alloca/: the ${want.length} passes that change the allocas, in order (${want.join(',')})`);
  check(allocas.some((x) => x[1] === 'removed' && /SROA|Mem2Reg/.test(recs.find((r) => r.index === x[0]).name)),
    'SROA is among the passes that removed them');
  // "Which pass introduced `nsw i32 %v, 1`-like text": a plain-text search.
  const shl = await search(page, 'shl nsw');
  const wantShl = expected((l) => l.includes('shl nsw'));
  check(JSON.stringify(shl.map((x) => x[0])) === JSON.stringify(wantShl), `"shl nsw": ${wantShl.length} passes, as the raw files say`);
  const introduced = shl.filter((x) => x[1] === 'introduced');
  check(introduced.every((x) => !texts[recs.findIndex((r) => r.index === x[0])].b.includes('shl nsw')), 'an "introduced" pass had no match before it');
  check(JSON.stringify(await search(page, '/SHL NSW/i')) === JSON.stringify(shl), '/SHL NSW/i finds the same passes');
  await page.fill('#ft-q', '/(/');
  await page.press('#ft-q', 'Enter');
  await page.waitForFunction(() => document.getElementById('fpanel').dataset.state === 'error');
  check(/Bad regular expression/.test(await page.textContent('#fpanel')), 'a bad regex is one clear message');
  check((await search(page, 'no such text anywhere')).length === 0, 'a text in no snapshot: no passes');
  check(/No snapshot has a line matching/.test(await page.textContent('#fpanel')), 'and it says so');

  // One click to each: a hit opens its pass and names it in the URL.
  const rows = await search(page, '/%\\S+ = alloca/');
  const target = rows[rows.length - 1][0];
  await page.click(`#fpanel .fp-row[data-index="${target}"]`);
  await rendered(page, target);
  check(await page.evaluate(() => location.hash) === '#pass=' + target, `clicking hit #${target} opens it, and the URL says #pass=${target}`);
  await page.waitForSelector('.vbox .r.sel');
  check(/%\S+ = alloca/.test(await page.textContent('.vbox .r.sel')), 'and marks the first changed line that matches');

  // Links: a reload and a copied link open the same pass; editing the hash moves.
  await page.reload();
  await rendered(page, target);
  check(true, 'after a reload the same pass is open');
  const url = page.url();
  const other = await ctx.newPage();
  await other.goto(url);
  await rendered(other, target);
  check(true, 'the link opened in another tab shows the same pass');
  const later = recs[Math.floor(recs.length / 2)].index;
  await other.evaluate((i) => { location.hash = '#pass=' + i; }, later);
  await rendered(other, later);
  check(true, `setting the fragment to #pass=${later} opens that pass`);
  await other.close();

  // Filter by function: f1's own passes (and loops), and module-level passes that changed f1.
  await page.selectOption('#ft-fn', 'f1').catch(async () => {
    await page.focus('#ft-fn');
    await page.waitForFunction(() => [...document.querySelectorAll('#ft-fn option')].some((o) => o.value === 'f1'));
    await page.selectOption('#ft-fn', 'f1');
  });
  await page.waitForFunction(() => window.__lt.order.filter((r) => r.p === window.__lt.phase).length > 0);
  await page.waitForFunction(() => document.querySelectorAll('#sb-list .pl').length > 0);
  const listed = await page.evaluate(() => { const S = window.__lt; return S.order.filter((r) => document.querySelector(`#sb-list .pl[data-index="${r.i}"]`) && !document.querySelector(`#sb-list .pl[data-index="${r.i}"]`).hidden).map((r) => r.i); });
  // Anchors as the importer writes them: "function f1", "loop %x in function f1", "scc (f1)".
  const mentions = (an) => an === 'function f1' || / in function f1$/.test(an) || /^scc \((.*, )?f1(, .*)?\)$/.test(an);
  const own = recs.filter((r) => mentions(r.anchor)).map((r) => r.index);
  check(own.length > 0 && own.every((i) => listed.includes(i)), `every pass run on f1 or its loops is listed (${own.length})`);
  const region = (t) => { const m = /^define [^\n]*@f1\([\s\S]*?^\}$/m.exec(t); return m ? m[0] : ''; };
  const foreign = listed.filter((i) => !own.includes(i));
  check(foreign.every((i) => { const k = recs.findIndex((r) => r.index === i); return region(texts[k].b) !== region(texts[k].a); }),
    `the ${foreign.length} other listed passes each changed f1's text`);
  check(recs.some((r) => r.anchor === 'function f0') && !listed.some((i) => /^function f[02]$/.test(recs.find((r) => r.index === i).anchor)),
    'no pass run on function f0 or f2 is listed');
  check(own.some((i) => recs.find((r) => r.index === i).anchor === 'function f1') && own.some((i) => /^scc /.test(recs.find((r) => r.index === i).anchor)),
    'f1 covers its function passes, its loops and its SCC');
  const firstChange = recs.find((r, k) => listed.includes(r.index) && r.changed && region(texts[k].b) !== region(texts[k].a));
  const cur = await page.evaluate(() => window.__lt.cur);
  check(firstChange && cur === firstChange.index, `picking f1 jumps to the first pass that changed it (#${cur} ${firstChange && firstChange.name})`);
  await page.selectOption('#ft-fn', '');
  await page.waitForFunction(() => [...document.querySelectorAll('#sb-list .pl')].every((e) => !e.hidden));
  check(true, 'choosing "All functions" lists every pass again');
  check(errors.length === 0, 'no page errors: ' + errors.join('; '));
});
