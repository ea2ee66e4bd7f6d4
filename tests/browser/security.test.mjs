// Hostile names, phases, messages and IR (</script>, <img onerror>, <!--,
// U+2028, NUL, invalid UTF-8) must render as text: no dialog, no script run,
// no element injected. Every pass is visited with its IR shown.
import { run, synth, open, check, fs } from './helpers.mjs';

const t = synth(['--passes', '10', '--lines', '60', '--hostile', '--fail-at', '4']);
check(t.status === 0, 'synth-trace --hostile ran');

await run('security', async (ctx) => {
  const dialogs = [];
  await ctx.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective));
  });
  const page0 = await ctx.newPage();
  page0.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
  await page0.close();
  ctx.on('page', (p) => p.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); }));
  const errors = [];
  const page = await open(ctx, t.report, { errors });

  const html = fs.readFileSync(t.report, 'utf8');
  const execScripts = html.match(/<script(?![^>]*type="(application\/json|text\/plain)")[^>]*>/g) || [];
  check(execScripts.length === 1, 'the viewer is the only executable script: ' + execScripts.join(' '));
  const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html);
  check(csp && /script-src 'sha256-[A-Za-z0-9+/=]+'(;|$)/.test(csp[1]) && !csp[1].includes('unsafe'), 'strict CSP with a script hash: ' + (csp && csp[1]));
  check(csp[1].includes("default-src 'none'"), 'CSP denies by default');

  const n = await page.evaluate(() => window.__lt.order.length);
  for (let i = 0; i < n; i++) {
    // A diff pass's buttons start enabled and are disabled once its texts are
    // decoded, so decide which to click only after the pass has rendered.
    const cur = await page.evaluate(() => window.__lt.cur);
    await page.waitForFunction((c) => document.documentElement.dataset.rendered === String(c), cur);
    for (const b of await page.$$('.toggle-ir, button:has-text("Show all context")')) if (await b.isEnabled()) await b.click();
    await page.waitForTimeout(30);
    await page.keyboard.press('j');
  }
  const names = await page.$$eval('#sb-list .nm', (e) => e.map((x) => x.textContent));
  await page.click('.tab >> nth=1');
  const allNames = await page.evaluate(() => window.__lt.order.map((r) => r.n));
  check(allNames.some((s) => s.includes('</script><script>window.__pwned=1')), 'a </script> name survives as text');
  check(allNames.some((s) => s.includes('<img src=x onerror=')), 'an <img onerror> name survives as text');
  check(allNames.some((s) => s.includes('\u2028')), 'U+2028 survives in a name');
  check(names.length > 0, 'sidebar lists hostile names');
  const tabs = await page.$$eval('.tab', (e) => e.map((x) => x.textContent));
  check(tabs.some((s) => s.includes('<img')), 'a hostile phase name is a tab label, as text');
  await page.click('.badge[data-filter="failed"]');
  const err = await page.textContent('.errbox pre');
  check(err.startsWith('bad utf8 ') && err.includes('\uFFFD'), 'an invalid-UTF-8 error message shows with replacement characters: ' + JSON.stringify(err));
  await page.click('.toggle-ir');
  await page.waitForSelector('.vbox .r.s');
  check(await page.$$eval('.vbox .tx', (e) => e.some((x) => x.textContent.includes('<script>window.__pwned=3</script>'))), 'hostile IR lines shown as text');

  check(await page.evaluate(() => window.__pwned) === undefined, 'no injected script ran');
  check(dialogs.length === 0, 'no dialog was raised: ' + dialogs.join(','));
  check(await page.$$eval('#pane img, #pane svg, #sb-list img, #tabs img, #hdr img', (e) => e.length) === 0, 'no element was injected');
  check((await page.evaluate(() => window.__csp)).length === 0, 'no CSP violation (nothing even tried to run)');
  check(errors.length === 0, 'no page errors: ' + errors.join('; '));
  // The dialog watch itself works (so the check above could have failed).
  await page.evaluate(() => setTimeout(() => alert('probe'), 0));
  await page.waitForTimeout(300);
  check(dialogs.length === 1 && dialogs[0] === 'probe', 'the dialog watch catches a real alert');

  // The live form (shell + chunk files, left by a killed run) is as safe.
  const k = synth(['--passes', '10', '--lines', '60', '--hostile', '--kill-after', '6']);
  check(k.signal === 'SIGKILL', 'hostile run killed mid-way');
  const live = await open(ctx, k.report);
  await live.waitForFunction(() => window.__lt.recs.size === 6);
  for (let i = 0; i < 6; i++) {
    for (const b of await live.$$('.toggle-ir')) await b.click();
    await live.keyboard.press('j');
    await live.waitForTimeout(30);
  }
  const liveNames = await live.evaluate(() => window.__lt.order.map((r) => r.n));
  check(liveNames.some((s) => s.includes('<img src=x onerror=')), 'live report shows hostile names as text');
  check(await live.evaluate(() => window.__pwned) === undefined && dialogs.length === 1, 'live report runs no injected script and raises no dialog');
  check((await live.evaluate(() => window.__csp)).length === 0, 'live report: no CSP violation');
});
