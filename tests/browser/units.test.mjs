// Issue 11, defects 7 and 8: an LLVM trace names the unit each pass ran on
// (function, loop, SCC) in the pass list (opt-22's dump, imported); an import (a dump holds no pass
// times) shows no per-pass time, and its trace.json says wall_ms null.
import { run, open, check, tmpdir, importDump, dumpOf, traceOpt, rendered, fs, path } from './helpers.mjs';
import { spawnSync } from 'node:child_process';

const dir = tmpdir('units');
const fn = (name, op) => `define i32 @${name}(i32 %x) {
entry:
  %p = alloca i32
  store i32 %x, ptr %p
  %v = load i32, ptr %p
  %r = ${op} i32 %v, %v
  ret i32 %r
}
`;
fs.writeFileSync(path.join(dir, 'two.ll'), fn('square', 'mul') + '\n' + fn('twice', 'add'));
// opt-22's own per-function dump of a new-PM pipeline, imported.
const r = spawnSync('opt-22', ['-passes=sroa,early-cse', '-print-before-all', '-print-module-scope', path.join(dir, 'two.ll'), '-S', '-o', path.join(dir, 'out.ll')], { encoding: 'utf8' });
check(r.status === 0, 'opt-22 ran');
const llvm = importDump('two', r.stderr);
const recs = llvm.trace.records;
check(recs.length === 4 && new Set(recs.map((x) => x.anchor)).size === 2, 'two passes on each of two functions: ' + recs.map((x) => x.name + ' on ' + x.anchor));
const live = traceOpt('timed', 'func.func @f(%a: i32) -> i32 {\n  %0 = arith.addi %a, %a : i32\n  return %0 : i32\n}\n', ['-canonicalize']);

const imp = importDump('imported', dumpOf([
  'func.func @f(%arg0: i32) -> i32 {\n  %0 = arith.addi %arg0, %arg0 : i32\n  return %0 : i32\n}',
  'func.func @f(%arg0: i32) -> i32 {\n  %0 = arith.muli %arg0, %arg0 : i32\n  return %0 : i32\n}']));

await run('units', async (ctx) => {
  const errors = [];
  const page = await open(ctx, llvm.report, { errors });
  const rows = await page.$$eval('#sb-list .pl', (e) => e.map((x) => [x.dataset.index, x.querySelector('.nm').textContent]));
  for (const rec of recs) {
    const row = rows.find((x) => +x[0] === rec.index);
    check(row && row[1].includes(rec.name) && row[1].includes(rec.anchor), `row #${rec.index} names ${rec.name} and its unit ${rec.anchor}: "${row && row[1]}"`);
  }
  check(new Set(rows.map((x) => x[1])).size === rows.length, 'the same pass on two functions gives two distinct rows');
  const p1 = await open(ctx, live.report, { errors });
  await rendered(p1);
  check(/\d ms/.test(await p1.textContent('.sec-meta')), 'a live-captured pass shows its time');

  const p2 = await open(ctx, imp.report, { errors });
  await rendered(p2);
  check(imp.trace.records.every((x) => x.wall_ms === null), 'trace.json of an import: wall_ms null for every record');
  const metaText = await p2.textContent('.sec-meta');
  check(!/ms\b/.test(metaText), 'an imported pass shows no time: "' + metaText + '"');
  check(errors.length === 0, 'no page errors: ' + errors.join('; '));
});
