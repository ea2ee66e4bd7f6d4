// Issue 11, defect 6: a codegen record shows the generated code as code
// (not a line diff of MLIR against PTX), and a diff only against the same
// kernel's previous codegen in the run.
import { run, synth, open, check, rendered, fs, path } from './helpers.mjs';

const t = synth(['--passes', '6', '--lines', '80', '--codegens', '2']);
check(t.status === 0, 'synth-trace ran');
const recs = JSON.parse(fs.readFileSync(path.join(t.runDir, 'trace.json'), 'utf8')).records;
const cgs = recs.filter((r) => r.status === 'codegen');
check(cgs.length === 2 && cgs[0].anchor === cgs[1].anchor, 'two codegens of one kernel');
const ptx = (r) => fs.readFileSync(path.join(t.runDir, r.after_text.file), 'utf8').replace(/\n$/, '').split('\n');

await run('codegen', async (ctx) => {
  const errors = [];
  const page = await open(ctx, t.report, { errors });
  await page.click(`.tab[data-phase="${cgs[0].phase}"]`);
  await page.click(`.pl[data-index="${cgs[0].index}"]`);
  await rendered(page);
  let lines = await page.$$eval('.vbox .r.s .tx', (e) => e.map((x) => x.textContent));
  check(JSON.stringify(lines) === JSON.stringify(ptx(cgs[0])), `the first codegen shows its ${lines.length} PTX lines as a listing`);
  check(await page.$$eval('.vbox .r.d', (e) => e.length) === 0, 'no diff rows (MLIR is not diffed against PTX)');
  check(await page.$('.mode[data-mode="diff"]') === null, 'no previous codegen of the kernel: nothing to diff against');
  check((await page.textContent('#pane')).includes('no earlier one to diff against'), 'and it says so');
  const st = await page.$eval(`.pl[data-index="${cgs[0].index}"] .st`, (e) => e.textContent);
  check(!/[+−]\d/.test(st), 'the sidebar shows no +/- line counts for codegen: ' + st);

  await page.click(`.pl[data-index="${cgs[1].index}"]`);
  await rendered(page);
  lines = await page.$$eval('.vbox .r.s .tx', (e) => e.map((x) => x.textContent));
  check(JSON.stringify(lines) === JSON.stringify(ptx(cgs[1])), 'the second codegen opens as code too');
  check(await page.textContent('.mode[data-mode="diff"]') === `Diff against #${String(cgs[0].index).padStart(2, '0')}`, 'it offers a diff against the previous codegen');
  await page.click('.mode[data-mode="diff"]');
  await page.waitForSelector('.vbox .r.d');
  await page.evaluate(() => window.__lt.view.showAll());
  const add = await page.$$eval('.vbox .tx.add', (e) => e.map((x) => x.textContent));
  const del = await page.$$eval('.vbox .tx.del', (e) => e.map((x) => x.textContent));
  check(add.length === 1 && add[0].includes('variant 1') && del.length === 0, 'the diff is PTX against PTX: one added line ' + JSON.stringify(add) + JSON.stringify(del));
  await page.click('.mode[data-mode="lowered"]');
  await page.waitForSelector('.vbox .r.s');
  check((await page.$$eval('.vbox .r.s .tx', (e) => e.map((x) => x.textContent))).some((l) => l.includes('func.func')), 'the lowered MLIR is one click away');
  check(errors.length === 0, 'no page errors: ' + errors.join('; '));
});
