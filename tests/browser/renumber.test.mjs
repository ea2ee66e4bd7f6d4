// SSA renumbering is shown as noise, not as change: a real lowertrace-opt
// trace where canonicalize deletes an early op, so every later %N shifts.
// Lines that differ only by renumbering get the muted "rn" rows; the real
// edit keeps its red/green rows.
import { run, open, check, tmpdir, fs, path } from './helpers.mjs';
import { spawnSync } from 'node:child_process';

const opt = path.join(process.env.LT_BIN || '', 'lowertrace-opt');
if (!fs.existsSync(opt)) { console.log('# renumber: skipped (no lowertrace-opt)'); process.exit(0); }
const dir = tmpdir('renumber');
const input = path.join(dir, 'shift.mlir');
// %0 folds away; %1..%6 become %0..%5 after canonicalize.
fs.writeFileSync(input, `func.func @f(%a: i32, %b: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %a, %c0 : i32
  %1 = arith.muli %0, %b : i32
  %2 = arith.subi %1, %b : i32
  %3 = arith.xori %2, %a : i32
  %4 = arith.ori %3, %b : i32
  %5 = arith.andi %4, %a : i32
  return %5 : i32
}
`);
const r = spawnSync(opt, [input, '--mlir-print-local-scope', '-canonicalize', '--lower-trace=html',
  '--lower-trace-dir=' + dir], { encoding: 'utf8' });
check(r.status === 0, 'lowertrace-opt ran' + (r.status ? ': ' + r.stderr : ''));

await run('renumber', async (ctx) => {
  const page = await open(ctx, path.join(dir, 'shift', 'report.html'));
  await page.evaluate(() => { const b = document.querySelector('button[data-act="showall"], #show-all');
    if (b) b.click(); });
  const rn = await page.$$eval('.rnrow', (els) => els.map((e) => e.textContent));
  const del = await page.$$eval('.tx.del', (els) => els.map((e) => e.textContent));
  check(rn.length >= 4, `renumbered-only line pairs are marked as noise (${rn.length} rows)`);
  check(rn.every((t) => !t.includes('arith.constant')), 'the removed constant is not called renumbering');
  check(del.some((t) => t.includes('arith.constant 0')), 'the real deletion is still a red row');
  check(rn.some((t) => t.includes('arith.xori')), 'a shifted op (%3 -> %2) is a noise row');
});
