// F7 manual alignment, Esc, the theme (stored, and following the system by
// default), and the copy buttons checked against the system clipboard and the
// raw files the engine wrote.
import { run, synth, open, check, activeIndex, gotoPass, openingPass, fs, path } from './helpers.mjs';

const t = synth(['--passes', '12', '--lines', '200']);
check(t.status === 0, 'synth-trace ran');
const recs = JSON.parse(fs.readFileSync(path.join(t.runDir, 'trace.json'), 'utf8')).records;
const changed = recs.find((r) => r.status === 'completed' && r.changed);
const noop = recs.find((r) => r.status === 'completed' && !r.changed);

await run('actions', async (ctx) => {
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await open(ctx, t.report);

  // F7: pin left line 10 to right line 30, re-aligned with a bounded diff.
  await gotoPass(page, changed);
  await page.waitForSelector('.vbox .r.d');
  await page.click('text=Show all context');
  await page.keyboard.press('F7');
  check(await page.isVisible('#banner'), 'F7 shows the alignment banner');
  await page.keyboard.press('Escape');
  check(!(await page.isVisible('#banner')), 'Esc cancels the alignment');
  await page.keyboard.press('F7');
  await page.click('.ln[data-side="l"][data-line="9"]');
  check(await page.$('.ln.pending[data-line="9"]') !== null, 'the chosen left line is marked');
  await page.keyboard.press('F7');
  check((await page.textContent('#banner')).includes('RIGHT'), 'second F7 asks for the right line');
  await page.click('.ln[data-side="r"][data-line="29"]');
  await page.waitForSelector('.r.pin');
  const pin = await page.$eval('.r.pin', (r) => [...r.querySelectorAll('.ln')].map((c) => c.textContent));
  check(pin[0] === '10' && pin[1] === '30', 'the pinned row holds left 10 and right 30: ' + pin);
  check(!(await page.isVisible('#banner')), 'the banner closes after aligning');
  const rows = await page.evaluate(() => window.__lt.view.rows.map((r) => [r.l, r.r]));
  const mono = (k) => { const v = rows.map((r) => r[k]).filter((x) => x >= 0); return v.every((x, i) => i === 0 || x > v[i - 1]); };
  check(mono(0) && mono(1), 'the aligned table keeps both columns monotone');

  // Copy buttons -> clipboard, compared with the raw before/after files.
  const raw = (f) => fs.readFileSync(path.join(t.runDir, f), 'utf8');
  await page.click('button.copy:has-text("Copy Before")');
  await page.waitForSelector('#toast:not([hidden])');
  check(await page.evaluate(() => navigator.clipboard.readText()) === raw(changed.before_text.file), 'Copy Before puts the before IR on the clipboard');
  await page.click('button.copy:has-text("Copy After")');
  await page.waitForFunction(() => document.getElementById('toast').textContent.includes('After'));
  check(await page.evaluate(() => navigator.clipboard.readText()) === raw(changed.after_text.file), 'Copy After puts the after IR on the clipboard');
  await gotoPass(page, noop);
  await page.click('button.copy:has-text("Copy IR")');
  await page.waitForFunction(() => document.getElementById('toast').textContent === 'Copied IR');
  check(await page.evaluate(() => navigator.clipboard.readText()) === raw(noop.after_text.file), 'Copy IR on a no-op pass');
  await page.click('text=Show full IR');
  await page.waitForSelector('.vbox .r.s');
  check(await page.isVisible('text=Collapse IR'), 'no-op full IR on demand');

  // Theme: follows the system by default, survives a reload once chosen.
  await page.evaluate(() => localStorage.removeItem('lower-trace-theme'));
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.reload(); await page.waitForFunction(() => document.documentElement.dataset.rendered !== undefined);
  check(await page.getAttribute('html', 'data-theme') === 'dark', 'dark system preference gives the dark theme');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.reload(); await page.waitForFunction(() => document.documentElement.dataset.rendered !== undefined);
  check(await page.getAttribute('html', 'data-theme') === 'light', 'light system preference gives the light theme');
  await page.click('#theme-btn');
  check(await page.getAttribute('html', 'data-theme') === 'dark', 'the toggle switches to dark');
  await page.reload(); await page.waitForFunction(() => document.documentElement.dataset.rendered !== undefined);
  check(await page.getAttribute('html', 'data-theme') === 'dark', 'the chosen theme survives a reload');
  check(await page.evaluate(() => localStorage.getItem('lower-trace-theme')) === 'dark', 'stored under lower-trace-theme');
  // A reload reopens the pass the URL names (#pass=N); without one, the page
  // starts on the failure, else the first change.
  const named = /#pass=(\d+)/.exec(page.url());
  check(await activeIndex(page) === (named ? +named[1] : openingPass(recs).index),
    'reload opens the pass the URL names, else the failure, else the first change');
});
