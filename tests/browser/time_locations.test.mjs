// Where compile time went, and source locations, on real traces:
//  - lowertrace-opt --mlir-print-debuginfo over an MLIR file whose ops carry
//    loc("kernel.py":N:C) (canonicalize, cse, strip-debuginfo);
//  - clang-22 -g | opt-22 -print-after-all, imported (LLVM !DILocation).
import { run, open, check, LT, tmpdir, fs, path } from './helpers.mjs';
import { spawnSync } from 'node:child_process';

const OPT = path.join(path.dirname(LT), 'lowertrace-opt');
const work = tmpdir('loc');
const py = ['def kernel(a, b):', '    x = a + b', '    y = a + b', '    return x * y', ''];
fs.writeFileSync(path.join(work, 'kernel.py'), py.join('\n'));
fs.writeFileSync(path.join(work, 'k.mlir'), `func.func @f(%a: i32, %b: i32) -> i32 {
  %0 = arith.addi %a, %b : i32 loc("kernel.py":2:8)
  %1 = arith.addi %a, %b : i32 loc("kernel.py":3:8)
  %2 = arith.muli %0, %1 : i32 loc("kernel.py":4:11)
  return %2 : i32 loc("kernel.py":4:4)
} loc("kernel.py":1:0)
`);
const r = spawnSync(OPT, ['k.mlir', '--mlir-print-debuginfo', '--pass-pipeline=builtin.module(canonicalize,cse,strip-debuginfo)',
  '--lower-trace=html', '--lower-trace-dir=t'], { cwd: work, encoding: 'utf8', env: { ...process.env, TL_LOWER_TRACE: '' } });
check(r.status === 0, 'lowertrace-opt traced the pipeline' + (r.status ? ': ' + r.stderr : ''));
const mlirRun = path.join(work, 't/k/.run_records', fs.readdirSync(path.join(work, 't/k/.run_records'))[0]);
const mlirRecs = JSON.parse(fs.readFileSync(path.join(mlirRun, 'trace.json'), 'utf8')).records;
// The source file moves away after the run: the report must not need it.
fs.renameSync(path.join(work, 'kernel.py'), path.join(work, 'kernel.py.gone'));

const c = ['int sum(int *a, int n) {', '  int s = 0;', '  for (int i = 0; i < n; i++)', '    s += a[i] * 2;', '  return s;', '}', ''];
fs.writeFileSync(path.join(work, 'sum.c'), c.join('\n'));
const cl = spawnSync('clang-22', ['-g', '-O0', '-Xclang', '-disable-O0-optnone', '-S', '-emit-llvm', 'sum.c', '-o', 'sum.ll'], { cwd: work, encoding: 'utf8' });
check(cl.status === 0, 'clang-22 -g compiled sum.c');
const o = spawnSync('opt-22', ['-passes=sroa,instcombine', '-print-after-all', 'sum.ll', '-o', '/dev/null'], { cwd: work, encoding: 'utf8' });
fs.writeFileSync(path.join(work, 'sum.dump'), o.stderr);
const imp = spawnSync(LT, ['import', 'sum.dump', '--dir', 'u', '--mode', 'html', '--script', 'sum'], { cwd: work, encoding: 'utf8' });
check(o.status === 0 && imp.status === 0, 'opt-22 -print-after-all dump imported');
const llRun = path.join(work, 'u/sum/.run_records', fs.readdirSync(path.join(work, 'u/sum/.run_records'))[0]);
const llRecs = JSON.parse(fs.readFileSync(path.join(llRun, 'trace.json'), 'utf8')).records;

const rendered = (page, i) => page.waitForFunction((c) => document.documentElement.dataset.rendered === String(c) && window.__lt.cur === c, i);
async function goto(page, i) { await page.evaluate((n) => window.LTViewer.select(n), i); await rendered(page, i); }

await run('time_locations', async (ctx) => {
  const errors = [];
  const page = await open(ctx, path.join(mlirRun, 'report.html'), { errors });

  // ---- where compile time went ----
  check(await page.isVisible('#ft-time'), 'live capture has pass times: the Time button is shown');
  await page.click('#ft-time');
  const table = await page.$$eval('#fpanel table.fp-time tr[data-index]', (e) => e.map((x) => [x.dataset.name, +x.cells[1].textContent, +x.cells[3].textContent, +x.dataset.index]));
  const byName = new Map();
  mlirRecs.forEach((x) => { const g = byName.get(x.name) || { ms: 0, runs: 0 }; g.ms += x.wall_ms; g.runs++; byName.set(x.name, g); });
  check(table.length === byName.size && table.every((t) => byName.get(t[0]) && byName.get(t[0]).runs === t[2]), `one row per pass name (${table.length}), with its run count`);
  check(table.every((t, i) => i === 0 || table[i - 1][1] >= t[1]), 'rows are sorted by wall time, slowest first: ' + table.map((t) => t[0] + ' ' + t[1]).join(', '));
  const want = [...byName.entries()].sort((a, b) => b[1].ms - a[1].ms)[0][0];
  check(table[0][0] === want, `the slowest pass is the one trace.json says (${want})`);
  await page.click(`#fpanel tr[data-index="${table[0][3]}"]`);
  await rendered(page, table[0][3]);
  check(true, 'clicking a row opens that pass');
  await page.click('#ft-time');

  // ---- source line of a clicked IR line ----
  const cse = mlirRecs.find((x) => x.name === 'cse').index;
  await goto(page, cse);
  const line = await page.$$eval('.vbox .ln[data-side="l"]', (e) => { const x = e.find((n) => /%1 = arith\.addi/.test(n.parentElement.textContent)); return x ? +x.dataset.line : -1; });
  check(line >= 0, "cse's diff shows the duplicate arith.addi (its loc is an alias, #locN)");
  await page.click(`.vbox .ln[data-side="l"][data-line="${line}"]`);
  await page.waitForSelector('#ft-src');
  check(await page.textContent('#ft-src .ft-src-at') === 'kernel.py:3' && await page.textContent('#ft-src code') === py[2],
    'clicking its line number shows kernel.py:3 from the report itself (the file is gone)');

  // ---- hide locations: view and counts ----
  const strip = mlirRecs.find((x) => x.name === 'strip-debuginfo');
  const kindOf = (i) => page.evaluate((n) => window.LTViewer.kind(window.__lt.recs.get(n)), i);
  const changedBadge = () => page.textContent('.badge[data-filter="changed"]');
  check(strip.changed && await kindOf(strip.index) === 'changed', 'strip-debuginfo changed the text (only its locations)');
  const before = await changedBadge();
  await page.check('#ft-hideloc');
  await page.waitForFunction((n) => window.LTViewer.kind(window.__lt.recs.get(n)) === 'noop', strip.index);
  check(true, 'with locations hidden strip-debuginfo counts as a no-op');
  check(+(await changedBadge()).split(' ')[0] === +before.split(' ')[0] - 1, `the changed count drops by one (${before} -> ${await changedBadge()})`);
  await goto(page, cse);
  const shown = await page.$$eval('.vbox .tx', (e) => e.map((x) => x.textContent).join('\n'));
  check(shown.length > 0 && !/loc\(|#loc/.test(shown), 'the diff shows no loc(...) and no #loc alias lines');
  check(/arith\.addi/.test(shown), 'but still the IR');
  await page.uncheck('#ft-hideloc');
  await page.waitForFunction((n) => window.LTViewer.kind(window.__lt.recs.get(n)) === 'changed', strip.index);
  check(await changedBadge() === before, 'unticking restores the counts');

  // ---- LLVM !dbg -> !DILocation -> !DIFile ----
  const p2 = await open(ctx, path.join(llRun, 'report.html'), { errors });
  const first = llRecs.find((x) => x.changed).index;
  await goto(p2, first);
  const after = fs.readFileSync(path.join(llRun, llRecs.find((x) => x.index === first).after_text.file), 'utf8').split('\n');
  // A function pass's dump has no metadata; the module-level dump at the end has it.
  const md = llRecs.flatMap((x) => [x.before_text, x.after_text]).filter((t) => t && t.file)
    .flatMap((t) => fs.readFileSync(path.join(llRun, t.file), 'utf8').split('\n')).filter((l) => /^!\d+ = /.test(l));
  const loc = (l) => { const m = /!dbg (!\d+)/.exec(l); const d = m && md.find((x) => x.startsWith(m[1] + ' = !DILocation(')); return d && !/line: 0,/.test(d) ? +/line: (\d+)/.exec(d)[1] : 0; };
  const k = after.findIndex((l) => /^\s+%/.test(l) && loc(l) > 0);
  check(k >= 0, 'the LLVM after-text has an instruction with a !dbg location (defined in the module-level dump)');
  const srcLine = loc(after[k]);
  await p2.evaluate(() => window.__lt.view.showAll());
  await p2.click(`.vbox .ln[data-side="r"][data-line="${k}"]`);
  await p2.waitForSelector('#ft-src');
  check(await p2.textContent('#ft-src .ft-src-at') === 'sum.c:' + srcLine && await p2.textContent('#ft-src code') === c[srcLine - 1],
    `an instruction's !dbg resolves to sum.c:${srcLine} (${c[srcLine - 1].trim()})`);
  check(errors.length === 0, 'no page errors: ' + errors.join('; '));
});
