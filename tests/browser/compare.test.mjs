// `lowertrace compare`: two real lowertrace-opt runs whose pipelines differ
// by one pass (cse). The report aligns the pass sequences, marks cse as only
// in run A, and opens on the first aligned pass whose outputs differ, as the
// diff of A's output against B's.
import { run, open, check, LT, tmpdir, fs, path } from './helpers.mjs';
import { spawnSync } from 'node:child_process';

const OPT = path.join(path.dirname(LT), 'lowertrace-opt');
const work = tmpdir('compare');
const input = path.join(work, 'dup.mlir');
fs.writeFileSync(input, `func.func @f(%a: i32, %b: i32) -> i32 {
  %0 = arith.addi %a, %b : i32
  %1 = arith.addi %a, %b : i32
  %2 = arith.muli %0, %1 : i32
  return %2 : i32
}
`);
function trace(tag, pipeline) {
  const dir = path.join(work, tag);
  const r = spawnSync(OPT, [input, `--pass-pipeline=builtin.module(${pipeline})`, '--lower-trace=html', `--lower-trace-dir=${dir}`],
    { encoding: 'utf8', env: { ...process.env, TL_LOWER_TRACE: '' } });
  check(r.status === 0, `lowertrace-opt ${pipeline} ran` + (r.status ? ': ' + r.stderr : ''));
  return path.join(dir, 'dup');  // the script folder: compare takes its newest run
}
const a = trace('a', 'canonicalize,cse,symbol-dce');
const b = trace('b', 'canonicalize,symbol-dce');
const out = path.join(work, 'cmp.html');
const c = spawnSync(LT, ['compare', a, b, '-o', out], { encoding: 'utf8' });
check(c.status === 0 && fs.existsSync(out), 'lowertrace compare wrote a report' + (c.status ? ': ' + c.stderr : ''));
check(/2 aligned passes \(1 differ\), 1 only in A, 0 only in B; first difference at #2 symbol-dce/.test(c.stderr), 'it summarises the alignment: ' + c.stderr.trim().split('\n')[0]);
const bad = spawnSync(LT, ['compare', a, path.join(work, 'nothing')], { encoding: 'utf8' });
check(bad.status === 1 && bad.stderr.trim().split('\n').length === 1 && fs.readdirSync(work).length === 4, 'a missing run: exit 1, one line, no file');

await run('compare', async (ctx) => {
  const errors = [];
  const page = await open(ctx, out, { errors });
  const recs = await page.evaluate(() => window.__lt.order.map((r) => ({ i: r.i, n: r.n, s: r.s, c: r.c, e: r.e })));
  check(JSON.stringify(recs.map((r) => r.n)) === '["canonicalize","cse","symbol-dce"]', 'the aligned sequence is canonicalize, cse, symbol-dce');
  check(recs[0].s === 'completed' && !recs[0].c, 'canonicalize: same output in both runs');
  check(recs[1].s === 'skipped' && /only in run A/.test(recs[1].e), 'cse is marked as only in run A');
  check(recs[2].c, 'symbol-dce: the outputs differ (B never ran cse)');
  check(await page.evaluate(() => window.__lt.cur) === 2, 'the report opens on the first pass whose output differs');
  const del = await page.$$eval('.vbox .r.d .tx.del', (e) => e.map((x) => x.textContent));
  const add = await page.$$eval('.vbox .r.d .tx.add', (e) => e.map((x) => x.textContent));
  check(add.some((t) => /arith\.addi/.test(t)) && !del.some((t) => /arith\.addi/.test(t)), "the diff shows B's extra arith.addi (A's cse removed it)");
  check(await page.$eval('.toolbar .copy', (e) => e.textContent) === 'Copy Run A', 'the sides are named Run A and Run B');
  check(/1 only in A, 0 only in B/.test(await page.textContent('#ft-compare')), 'the header says what only one run has');
  await page.click('.pl[data-index="1"]');
  await page.waitForFunction(() => document.documentElement.dataset.rendered === '1');
  check(/only in run A/.test(await page.textContent('#pane')), 'the cse row says it ran only in A');
  check(errors.length === 0, 'no page errors: ' + errors.join('; '));
});
