// The feature panels (search results, function list, time table, compare
// header) show hostile pass names and IR (</script>, <img onerror>, U+2028,
// NUL, invalid UTF-8) as text: no dialog, no script, no element injected,
// no CSP violation. Also `lowertrace compare` on two hostile runs.
import { run, synth, open, check, LT, tmpdir, fs, path } from './helpers.mjs';
import { spawnSync } from 'node:child_process';

const a = synth(['--passes', '12', '--lines', '60', '--hostile', '--fail-at', '4']);
const b = synth(['--passes', '13', '--lines', '60', '--hostile']);
check(a.status === 0 && b.status === 0, 'two synth-trace --hostile runs');
const out = path.join(tmpdir('hcmp'), 'cmp.html');
const c = spawnSync(LT, ['compare', a.runDir, b.runDir, '-o', out], { encoding: 'utf8' });
check(c.status === 0, 'lowertrace compare on them ran' + (c.status ? ': ' + c.stderr : ''));

await run('features_hostile', async (ctx) => {
  const dialogs = [];
  await ctx.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective));
  });
  ctx.on('page', (p) => p.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); }));
  const errors = [];
  for (const file of [a.report, out]) {
    const page = await open(ctx, file, { errors });
    // Search: something every pass edits, so every hostile name is a result row.
    await page.fill('#ft-q', '/arith|scf|memref|%/');
    await page.press('#ft-q', 'Enter');
    await page.waitForFunction(() => document.getElementById('fpanel').dataset.state === 'done');
    const rows = await page.$$eval('#fpanel .fp-row', (e) => e.map((x) => x.textContent));
    check(rows.length > 0, `search lists ${rows.length} passes`);
    check(rows.some((t) => t.includes('<img src=x onerror=') || t.includes('</script>')), 'a hostile pass name is a result row, as text');
    await page.focus('#ft-fn');
    await page.waitForFunction(() => [...document.querySelectorAll('#ft-fn option')].some((o) => o.value === 'kernel'));
    await page.selectOption('#ft-fn', 'kernel');
    await page.selectOption('#ft-fn', '');
    if (await page.isVisible('#ft-time')) {
      await page.click('#ft-time');
      const cells = await page.$$eval('#fpanel table.fp-time td:first-child', (e) => e.map((x) => x.textContent));
      check(cells.some((t) => t.includes('<img') || t.includes('</script>')), 'the time table shows hostile names as text');
    }
    await page.check('#ft-hideloc');
    await page.waitForFunction(() => document.documentElement.dataset.hideLoc === '1');
    const injected = await page.evaluate(() => ({
      pwned: window.__pwned, csp: window.__csp,
      imgs: document.querySelectorAll('img').length, svgs: document.querySelectorAll('svg').length,
      scripts: document.querySelectorAll('script:not([type])').length,
    }));
    check(injected.pwned === undefined && injected.imgs === 0 && injected.svgs === 0 && injected.scripts === 1,
      `${path.basename(file)}: nothing injected ` + JSON.stringify(injected));
    check(injected.csp.length === 0, 'no CSP violation');
    await page.close();
  }
  check(dialogs.length === 0, 'no dialogs: ' + dialogs.join('; '));
  check(errors.length === 0, 'no page errors: ' + errors.join('; '));
});
