// Issue 11, defect 1: a big diff (over 400 rows, lines far wider than the
// box) stays side by side: the After column is inside the box at the top, in
// the middle and at a narrow window, and long lines wrap by one rule at
// every size (no sideways scrolling, tokens split only when too long).
import { run, open, check, importDump, dumpOf, rendered } from './helpers.mjs';

const long = (i) => `  %${i} = arith.addi %arg0, %arg1 : i32 loc("` + 'k'.repeat(1500) + `.py":${i}:0)`;
const mk = (n, k) => ['func.func @f(%arg0: i32, %arg1: i32) {',
  ...Array.from({ length: n }, (_, i) => (i % 50 === 0 ? long(i) : `  %${i} = arith.muli %arg0, %arg1 {tag = ${i * k}} : i32`)),
  '  return', '}'].join('\n');
const big = importDump('layout', dumpOf([mk(900, 1), mk(900, 2)]));
const small = importDump('layoutsmall', dumpOf([mk(60, 1), mk(60, 2)]));

// Both columns of the rows in view lie inside the box.
async function sideBySide(page, what) {
  const r = await page.evaluate(() => {
    const box = document.querySelector('.vbox').getBoundingClientRect();
    const rows = [...document.querySelectorAll('.vbox .r.d')].filter((e) => {
      const b = e.getBoundingClientRect(); return b.bottom > box.top && b.top < box.bottom;
    });
    const cols = rows.map((e) => [...e.querySelectorAll('.tx')].map((t) => t.getBoundingClientRect()));
    return {
      n: rows.length, boxL: box.left, boxR: box.right,
      bad: cols.filter((c) => c.length !== 2 || c[0].left < box.left - 1 || c[1].right > box.right + 1 || c[1].left >= box.right || c[0].right > c[1].left + 1).length,
      sideways: document.querySelector('.vbox').scrollWidth - document.querySelector('.vbox').clientWidth,
    };
  });
  check(r.n > 0 && r.bad === 0, `${what}: ${r.n} rows in view, Before and After both inside the box (${r.bad} not)`);
  check(r.sideways <= 1, `${what}: no sideways scrolling (${r.sideways}px)`);
}

await run('layout', async (ctx) => {
  const errors = [];
  const page = await open(ctx, big.report, { errors });
  await rendered(page);
  const rows = await page.evaluate(() => window.__lt.view.disp.length);
  check(rows > 400, `the diff has ${rows} rows (a virtual list)`);
  await sideBySide(page, 'top');
  await page.evaluate(() => { const b = document.querySelector('.vbox'); b.scrollTop = b.scrollHeight / 2; });
  await page.waitForTimeout(100);
  await sideBySide(page, 'middle');
  await page.evaluate(() => { const b = document.querySelector('.vbox'); b.scrollTop = b.scrollHeight; });
  await page.waitForTimeout(100);
  await sideBySide(page, 'bottom');
  const lastShown = await page.evaluate(() => [...document.querySelectorAll('.vbox .tx')].some((t) => t.textContent === '}'));
  check(lastShown, 'scrolled to the end, the last line is drawn');
  await page.setViewportSize({ width: 760, height: 700 });
  await page.evaluate(() => { const b = document.querySelector('.vbox'); b.scrollTop = b.scrollHeight / 3; });
  await page.waitForTimeout(100);
  await sideBySide(page, 'narrow window');
  const wrapBig = await page.$eval('.vbox .r.d', (e) => getComputedStyle(e).whiteSpace);

  const p2 = await open(ctx, small.report, { errors });
  await rendered(p2);
  await p2.setViewportSize({ width: 760, height: 700 });
  await sideBySide(p2, 'small diff, narrow window');
  const wrapSmall = await p2.$eval('.vbox .r.d', (e) => getComputedStyle(e).whiteSpace);
  check(wrapBig === wrapSmall && wrapBig === 'pre-wrap', `one wrapping rule for big and small diffs (${wrapBig}, ${wrapSmall})`);
  check(errors.length === 0, 'no page errors: ' + errors.join('; '));
});
