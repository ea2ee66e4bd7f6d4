// A real trace: the Triton 3.6 softmax MLIR dump imported by `lowertrace
// import`. Every pass is visited with j; each must render, and what the
// viewer decodes must equal the raw files the engine wrote.
import { run, open, check, LT, tmpdir, fs, path } from './helpers.mjs';
import { spawnSync } from 'node:child_process';

const fixtures = process.env.LT_FIXTURES || path.join(process.env.LT_SRC || '.', 'tests', 'data', 'fixtures');
const dump = path.join(fixtures, 'triton-3.6', 'mlir_dump_softmax.txt');
check(fs.existsSync(dump), 'fixture present: ' + dump);
const dir = tmpdir('import');
const r = spawnSync(LT, ['import', dump, '--mode', 'html', '--dir', dir], { encoding: 'utf8' });
check(r.status === 0, 'lowertrace import ran' + (r.status ? ': ' + r.stderr.slice(-400) : ''));
const scriptDir = path.join(dir, fs.readdirSync(dir)[0]);
const runDir = path.join(scriptDir, '.run_records', fs.readdirSync(path.join(scriptDir, '.run_records'))[0]);
const recs = JSON.parse(fs.readFileSync(path.join(runDir, 'trace.json'), 'utf8')).records;

await run('real_trace', async (ctx) => {
  const errors = [];
  const page = await open(ctx, path.join(scriptDir, 'report.html'), { errors });
  check(await page.textContent('#hdr-count') === `${recs.length} passes recorded`, `all ${recs.length} passes listed`);
  let mismatches = 0, compared = 0;
  for (let i = 0; i < recs.length; i++) {
    const cur = await page.evaluate(() => window.__lt.cur);
    await page.waitForFunction((c) => document.documentElement.dataset.rendered === String(c), cur);
    const rec = recs.find((x) => x.index === cur);
    // The viewer's decoded texts against the raw files on disk.
    for (const [side, key] of [['before_text', 'b'], ['after_text', 'f']]) {
      if (!rec[side] || !rec[side].file) continue;
      const want = fs.readFileSync(path.join(runDir, rec[side].file), 'utf8');
      const got = await page.evaluate(async ([c, k]) => {
        const r = window.__lt.recs.get(c);
        return window.__ltText ? window.__ltText(r[k]) : null;
      }, [cur, key]);
      compared++;
      if (got !== want) mismatches++;
    }
    await page.keyboard.press('j');
  }
  check(compared >= recs.length && mismatches === 0, `every decoded snapshot equals its raw file (${compared} compared)`);
  const last = await page.evaluate(() => window.__lt.cur);
  check(last === recs[recs.length - 1].index, 'j reached the last pass');
  check(errors.length === 0, 'no page errors: ' + errors.join('; '));
});
