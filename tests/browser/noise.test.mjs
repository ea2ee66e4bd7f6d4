// Issue 11, defects 2 and 3: only a consistent renaming of the whole
// snapshot is shown as "SSA renumbering only" (≈). A canonicalize fold, a
// CSE-rewired use (real lowertrace-opt traces) and swapped uses (an import)
// are real changes, in the view and in `lowertrace diff --stat`. The
// sidebar's counts are the view's: real +/- apart from noise, and a change
// of bytes that are not UTF-8 is visible.
import { run, open, check, importDump, dumpOf, traceOpt, rendered, LT, tmpdir, fs, path } from './helpers.mjs';
import { spawnSync } from 'node:child_process';

const fold = traceOpt('fold', `func.func @f(%arg0: i32) -> i32 {
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %0 = arith.addi %c1_i32, %c2_i32 : i32
  %1 = arith.addi %arg0, %0 : i32
  return %1 : i32
}
`, ['--mlir-print-local-scope', '-canonicalize']);
const cse = traceOpt('cse', `func.func @f(%a: i32, %b: i32) -> i32 {
  %0 = arith.addi %a, %b : i32
  %1 = arith.addi %a, %b : i32
  %2 = arith.muli %1, %1 : i32
  %3 = arith.subi %2, %a : i32
  return %3 : i32
}
`, ['-cse']);
// Two ops trade operands: no value is renamed.
const swapA = `func.func @f(%arg0: i32, %arg1: i32) -> i32 {
  %0 = arith.addi %arg0, %arg1 : i32
  %1 = arith.muli %arg0, %arg1 : i32
  %2 = arith.subi %0, %arg0 : i32
  %3 = arith.xori %1, %arg1 : i32
  %4 = arith.ori %2, %3 : i32
  return %4 : i32
}`;
const swapB = swapA.replace('arith.subi %0', 'arith.subi %X').replace('arith.xori %1', 'arith.xori %0').replace('%X', '%1');
const swap = importDump('swap', dumpOf([swapA, swapB]));
// A shift (a real deletion, then renumbered lines) for the counts.
const shift = traceOpt('shift', `func.func @f(%a: i32, %b: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %a, %c0 : i32
  %1 = arith.muli %0, %b : i32
  %2 = arith.subi %1, %b : i32
  %3 = arith.xori %2, %a : i32
  %4 = arith.ori %3, %b : i32
  %5 = arith.andi %4, %a : i32
  return %5 : i32
}
`, ['--mlir-print-local-scope', '-canonicalize']);
// Invalid UTF-8: only one byte of a comment changes (0xff -> 0xfe).
const bad = (b) => Buffer.concat([Buffer.from('func.func @f() {\n  // tag '), Buffer.from([b, 0x41]), Buffer.from('\n  return\n}\n')]);
const hdr = (w) => Buffer.from(`// -----// IR Dump ${w} Canonicalizer (canonicalize) //----- //\n`);
const utf = importDump('utf', Buffer.concat([hdr('Before'), bad(0xff), Buffer.from('\n'), hdr('After'), bad(0xfe), Buffer.from('\n')]));

function stat(a, b) {
  const dir = tmpdir('stat');
  fs.writeFileSync(path.join(dir, 'a.mlir'), a); fs.writeFileSync(path.join(dir, 'b.mlir'), b);
  return spawnSync(LT, ['diff', '--stat', path.join(dir, 'a.mlir'), path.join(dir, 'b.mlir')], { encoding: 'utf8' }).stdout;
}

// The rows of the selected pass, all context shown: [class, left, right].
async function rows(page) {
  await rendered(page);
  await page.evaluate(() => window.__lt.view && window.__lt.view.showAll());
  return page.$$eval('.vbox .r.d', (els) => els.map((e) => [e.className, ...[...e.querySelectorAll('.tx')].map((t) => t.textContent)]));
}

await run('noise', async (ctx) => {
  const errors = [];
  let page = await open(ctx, fold.report, { errors });
  let rs = await rows(page);
  const folded = rs.find((r) => r[2].includes('arith.addi %arg0, %c3_i32'));
  check(folded && !folded[0].includes('rnrow') && folded[1].includes('arith.addi %arg0, %0'),
    'canonicalize fold `%1 = arith.addi %arg0, %0` -> `%0 = arith.addi %arg0, %c3_i32` is a real change: ' + JSON.stringify(folded));

  page = await open(ctx, cse.report, { errors });
  rs = await rows(page);
  const rewired = rs.find((r) => r[2].includes('arith.muli %0, %0'));
  check(rewired && !rewired[0].includes('rnrow'), 'CSE rewiring `muli %1, %1` -> `muli %0, %0` is a real change: ' + JSON.stringify(rewired));

  page = await open(ctx, swap.report, { errors });
  rs = await rows(page);
  check(rs.filter((r) => r[0].includes('rnrow')).length === 0 && rs.some((r) => r[2].includes('arith.subi %1')),
    'swapped uses are not renumbering: ' + JSON.stringify(rs.filter((r) => r[1] !== r[2])));
  check(!/renumber/.test(stat(swapA, swapB)), '`lowertrace diff --stat` does not call swapped uses renumbering: ' + stat(swapA, swapB).trim());

  // Counts: the sidebar row says what the view shows.
  page = await open(ctx, shift.report, { errors });
  const rec = shift.trace.records.find((r) => r.changed);
  rs = await rows(page);
  const noise = rs.filter((r) => /rnrow|wsrow/.test(r[0])).length;
  const dels = await page.$$eval('.vbox .r.d:not(.rnrow):not(.wsrow) .tx.del', (e) => e.length);
  const adds = await page.$$eval('.vbox .r.d:not(.rnrow):not(.wsrow) .tx.add', (e) => e.length);
  const st = await page.$eval(`.pl[data-index="${rec.index}"] .st`, (e) => e.textContent);
  check(noise > 0, `the shift has noise rows (${noise})`);
  check(st.replace(/\s+/g, ' ').trim() === `+${adds} −${dels} ≈${noise}`, `sidebar "${st}" = the view's +${adds} −${dels} ≈${noise}`);
  const vc = await page.$eval('.vcounts', (e) => [+e.dataset.add, +e.dataset.del, +e.dataset.noise]);
  check(JSON.stringify(vc) === JSON.stringify([adds, dels, noise]), 'the diff toolbar states the same counts: ' + vc);

  page = await open(ctx, utf.report, { errors });
  await rendered(page);
  const urec = utf.trace.records.find((r) => r.changed);
  check(urec && urec.add_lines === 1 && urec.del_lines === 1, 'the byte change is counted (+1 −1)');
  const text = await page.textContent('#pane');
  check(!text.includes('No differences'), 'and not shown as "No differences"');
  const cells = await page.$$eval('.vbox .tx.del, .vbox .tx.add', (e) => e.map((x) => x.textContent));
  check(cells.some((c) => c.includes('\\xFF')) && cells.some((c) => c.includes('\\xFE')), 'the changed bytes are shown: ' + JSON.stringify(cells));
  check(errors.length === 0, 'no page errors: ' + errors.join('; '));
});
