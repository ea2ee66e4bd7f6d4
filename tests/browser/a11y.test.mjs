// Issue 11, defect 9: keyboard-only use (pass rows, carets, fold rows and
// line numbers take focus and Enter; Enter on a badge or tab keeps focus; a
// shortcut help on `?`), WCAG AA contrast for noise text and dimmed badges,
// no pulsing under prefers-reduced-motion, a print stylesheet, no
// `word-break: break-all`, readable tab labels and "1 pass".
import { run, synth, open, check, rendered, importDump, activeIndex, fs, path } from './helpers.mjs';

const t = synth(['--passes', '30', '--lines', '300', '--fail-at', '7']);
const recs = JSON.parse(fs.readFileSync(path.join(t.runDir, 'trace.json'), 'utf8')).records;
const m = 'module {\n  tt.func @k(%arg0: i32) {\n    %0 = arith.addi %arg0, %arg0 : i32 loc(#loc1)\n    tt.return\n  }\n}\n';
const stage = (cls, arg, a, b) => `// -----// IR Dump Before ${cls} (${arg}) ('builtin.module' operation) //----- //\n${a}\n` +
  `// -----// IR Dump After ${cls} (${arg}) ('builtin.module' operation) //----- //\n${b}\n`;
const tokens = '    %1 = tt.splat %0 : i32 -> ' + Array.from({ length: 12 }, () => 'tensor<64x64xf32>').join(', ') + ' loc(#loc1)\n';
const triton = importDump('triton', stage('Inliner', 'inline', m, m.replace('addi', 'muli')) +
  stage('ConvertTritonToTritonGPU', 'convert-triton-to-tritongpu', m.replace('addi', 'muli'), m.replace('addi', 'muli').replace('    tt.return', tokens + '    tt.return')) +
  stage('ConvertTritonGPUToLLVM', 'convert-triton-gpu-to-llvm', m, m) , ['--format', 'triton']);

function luminance(rgb) {
  const c = rgb.match(/[\d.]+/g).slice(0, 3).map((v) => { v = v / 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
}
const ratio = (a, b) => { const x = luminance(a), y = luminance(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
// Text colour against the first opaque background up the tree (opacity folded in by the browser? no: checked apart).
const colours = (page, sel) => page.$eval(sel, (e) => {
  let bg = 'rgba(0, 0, 0, 0)', n = e, op = 1;
  for (let x = e; x; x = x.parentElement) op *= +getComputedStyle(x).opacity;
  while (n && /rgba\(\d+, \d+, \d+, 0\)/.test(bg)) { bg = getComputedStyle(n).backgroundColor; n = n.parentElement; }
  return { fg: getComputedStyle(e).color, bg, op };
});

await run('a11y', async (ctx) => {
  const errors = [];
  const page = await open(ctx, t.report, { errors });
  await rendered(page);

  // Pass list: one tab stop (the selected row), arrows move, focus follows.
  const tabStops = await page.$$eval('#sb-list .pl', (e) => e.filter((x) => x.tabIndex === 0).map((x) => +x.dataset.index));
  check(tabStops.length === 1 && tabStops[0] === await activeIndex(page), 'the selected pass row is the pass list\'s tab stop');
  await page.focus('#sb-list .pl.active');
  const cur0 = await activeIndex(page);
  await page.keyboard.press('ArrowDown');
  await rendered(page);
  const cur1 = await activeIndex(page);
  check(cur1 !== cur0 && await page.evaluate(() => +document.activeElement.dataset.index) === cur1, 'ArrowDown selects the next pass and keeps focus on it');
  await page.keyboard.press('Enter');
  check(await page.evaluate(() => document.activeElement.classList.contains('pl')), 'Enter on a pass row keeps focus there');

  // Caret: focusable, Enter collapses the nested passes, focus stays.
  const parent = recs.find((r) => recs.some((c) => c.parent_index === r.index) && r.phase === 'pipeline');
  await page.click(`.tab[data-phase="${parent.phase}"]`);
  await page.focus(`.caret[data-toggle="${parent.index}"]`);
  await page.keyboard.press('Enter');
  const kids = recs.filter((c) => c.parent_index === parent.index).map((c) => c.index);
  check(await page.$$eval('.pl', (e, k) => e.filter((x) => k.includes(+x.dataset.index) && !x.hidden).length, kids) === 0, 'Enter on a caret collapses the nested passes');
  check(await page.evaluate((i) => document.activeElement.dataset.toggle === String(i), parent.index), 'and the caret keeps focus');
  await page.keyboard.press('Enter');

  // Fold row: Enter expands it.
  const changed = recs.find((r) => r.status === 'completed' && r.changed && r.phase === 'pipeline' && r.add_lines + r.del_lines < 6);
  await page.click(`.pl[data-index="${changed.index}"]`);
  await rendered(page);
  const folds0 = await page.$$eval('.vbox .r.fold', (e) => e.length);
  const hidden0 = await page.$eval('.vbox .r.fold', (e) => e.textContent);
  await page.focus('.vbox .r.fold');
  await page.keyboard.press('Enter');
  const hidden1 = await page.$$eval('.vbox .r.fold', (e) => e.map((x) => x.textContent).join('|'));
  check(folds0 > 0 && hidden1 !== hidden0 && !hidden1.startsWith(hidden0), `Enter on a fold row expands it (${hidden0} -> ${hidden1.split('|')[0] || 'gone'})`);
  check(await page.evaluate(() => document.activeElement.matches('.r.fold')), 'and focus stays on a fold row, ready for the next Enter');

  // Line numbers: F7 alignment by keyboard alone.
  await page.keyboard.press('F7');
  await page.focus('.vbox .ln[data-side="l"][data-line="0"]');
  await page.keyboard.press('Enter');
  check(await page.evaluate(() => document.activeElement.matches('.ln[data-side="l"][data-line="0"]')), 'Enter on a line number keeps focus on it');
  await page.keyboard.press('F7');
  await page.focus('.vbox .ln[data-side="r"][data-line="0"]');
  await page.keyboard.press('Enter');
  check((await page.textContent('#toast')).includes('Aligned left 1 with right 1'), 'F7 alignment works from the keyboard (line numbers take Enter)');

  // Badges and tabs keep focus on Enter.
  await page.focus('.badge[data-filter="noop"]');
  await page.keyboard.press('Enter');
  check(await page.evaluate(() => document.activeElement.dataset.filter) === 'noop', 'Enter on a filter badge keeps focus on it');
  await page.keyboard.press('Enter');
  await page.focus('.tab[data-phase="codegen"]');
  await page.keyboard.press('Enter');
  check(await page.evaluate(() => document.activeElement.dataset.phase) === 'codegen', 'Enter on a tab keeps focus on it');

  // Shortcut help.
  await page.focus('#sb-list .pl.active');
  await page.keyboard.press('?');
  check(await page.isVisible('#lt-help') && (await page.textContent('#lt-help')).includes('F7'), '? opens the shortcut help');
  await page.keyboard.press('Escape');
  check(!(await page.isVisible('#lt-help')), 'Esc closes it');

  // Contrast (AA: 4.5:1) in both themes: noise text and dimmed badges.
  await page.click(`.tab[data-phase="pipeline"]`);
  await page.click('.badge[data-filter="changed"]');
  for (const theme of ['light', 'dark']) {
    await page.evaluate((th) => document.documentElement.setAttribute('data-theme', th), theme);
    const b = await colours(page, '.badge.dim');
    check(b.op === 1 && ratio(b.fg, b.bg) >= 4.5, `${theme}: a dimmed badge has contrast ${ratio(b.fg, b.bg).toFixed(2)}:1, opacity ${b.op}`);
    await page.evaluate(() => { const s = document.createElement('span'); s.className = 'tx rn'; s.id = 'probe'; s.textContent = '%1 = x'; document.querySelector('.vbox .vrows').appendChild(s); });
    const rn = await colours(page, '#probe');
    check(ratio(rn.fg, rn.bg) >= 4.5, `${theme}: ≈ noise text has contrast ${ratio(rn.fg, rn.bg).toFixed(2)}:1`);
    await page.evaluate(() => document.getElementById('probe').remove());
  }
  await page.click('.badge[data-filter="changed"]');

  // Reduced motion.
  const anim = () => page.$eval('.badge.b-failed', (e) => getComputedStyle(e).animationName);
  check(await anim() === 'pulse', 'the failed badge pulses by default');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  check(await anim() === 'none', 'and not under prefers-reduced-motion');

  // Print: the whole diff flows onto pages; no chrome.
  await page.click(`.pl[data-index="${changed.index}"]`);
  await rendered(page);
  await page.evaluate(() => window.__lt.view.showAll());
  await page.emulateMedia({ media: 'print' });
  const pr = await page.evaluate(() => ({
    body: getComputedStyle(document.body).overflow, box: getComputedStyle(document.querySelector('.vbox')).overflowY,
    clip: document.querySelector('.vbox').scrollHeight - document.querySelector('.vbox').clientHeight,
    sidebar: getComputedStyle(document.getElementById('sidebar')).display, rows: document.querySelectorAll('.vbox .r.d').length,
  }));
  check(pr.body === 'visible' && pr.box === 'visible' && pr.clip <= 1 && pr.sidebar === 'none', 'print: nothing clipped, no sidebar: ' + JSON.stringify(pr));
  await page.emulateMedia({ media: 'screen' });

  // No break-all anywhere; labels.
  const css = await page.evaluate(() => [...document.styleSheets].flatMap((s) => [...s.cssRules].map((r) => r.cssText)).join('\n'));
  check(!css.includes('break-all'), 'no word-break: break-all in the stylesheet');
  check((await page.textContent('.tab[data-phase="unscoped"]')) === 'Passes', 'the unscoped tab is "Passes"');
  await page.click('.tab[data-phase="unscoped"]');
  const all = await page.textContent('.badge[data-filter="all"]');
  check(all === '1 pass', 'one pass is "1 pass": ' + all);

  const tp = await open(ctx, triton.report, { errors });
  const labels = await tp.$$eval('.tab', (e) => e.map((x) => x.textContent));
  check(JSON.stringify(labels) === JSON.stringify(['Triton IR', 'TritonGPU IR', 'LLVM IR']), 'Triton tabs: ' + labels.join(', '));
  await tp.click('.tab[data-phase="ttgir"]');
  await rendered(tp);
  await tp.setViewportSize({ width: 900, height: 700 });
  await tp.evaluate(() => window.__lt.view.showAll());
  const split = await tp.evaluate(() => {
    const out = [];
    for (const tx of document.querySelectorAll('.vbox .tx')) {
      const text = tx.textContent; let at = text.indexOf('tensor<64x64xf32>');
      const walker = document.createTreeWalker(tx, NodeFilter.SHOW_TEXT);
      const nodes = []; for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n);
      for (const n of nodes) {
        let i = n.data.indexOf('64x64xf32');
        while (i >= 0) { const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 9); out.push(r.getClientRects().length); i = n.data.indexOf('64x64xf32', i + 1); }
      }
      void at;
    }
    return out;
  });
  check(split.length >= 12 && split.every((n) => n === 1), `wrapped tokens stay whole (${split.length} tensor<64x64xf32> tokens, each on one line)`);
  check(errors.length === 0, 'no page errors: ' + errors.join('; '));
});
