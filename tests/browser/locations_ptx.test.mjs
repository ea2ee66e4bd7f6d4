// PTX source locations: the demo's GPU pipeline (examples/) with debug-info
// scopes on the kernel's llvm.func, so the NVPTX back end writes
// `.loc 1 L C` lines and `.file 1 "matmul.mlir"`. Clicking a PTX instruction
// of the codegen record shows the MLIR source line its .loc names.
import { run, open, check, LT, tmpdir, fs, path } from './helpers.mjs';
import { spawnSync } from 'node:child_process';

const src = process.env.LT_SRC || path.resolve('../..');
const OPT = path.join(path.dirname(LT), 'lowertrace-opt');
const work = tmpdir('ptxloc');
fs.copyFileSync(path.join(src, 'examples/matmul.mlir'), path.join(work, 'matmul.mlir'));
const mlir = fs.readFileSync(path.join(work, 'matmul.mlir'), 'utf8').split('\n');
const pipeline = fs.readFileSync(path.join(src, 'examples/pipeline_gpu.txt'), 'utf8').trim()
  .replace(/\)$/, ',ensure-debug-info-scope-on-llvm-func)');
const r = spawnSync(OPT, ['matmul.mlir', '--pass-pipeline=' + pipeline, '--lower-trace=html', '--lower-trace-dir=t',
  '--lower-trace-codegen=ptx', '-o', 'k.ptx'], { cwd: work, encoding: 'utf8', env: { ...process.env, TL_LOWER_TRACE: '' } });
check(r.status === 0, 'lowertrace-opt lowered the matmul to PTX' + (r.status ? ': ' + r.stderr.slice(-500) : ''));
const runDir = path.join(work, 't/matmul/.run_records', fs.readdirSync(path.join(work, 't/matmul/.run_records'))[0]);
const cg = JSON.parse(fs.readFileSync(path.join(runDir, 'trace.json'), 'utf8')).records.find((x) => x.status === 'codegen');
check(!!cg, 'the run has a codegen record');
const ptx = fs.readFileSync(path.join(runDir, cg.after_text.file), 'utf8').split('\n');
// An instruction right after a `.loc 1 L C` with L > 0.
const at = ptx.findIndex((l, i) => i > 0 && /^\s*\.loc\s+1\s+[1-9]/.test(ptx[i - 1]) && /^\s*[a-z]/.test(l));
check(at > 0 && ptx.some((l) => /^\s*\.file\s+1\s+"matmul\.mlir"/.test(l)), 'the PTX has .file 1 "matmul.mlir" and .loc lines');
const line = +/^\s*\.loc\s+1\s+(\d+)/.exec(ptx[at - 1])[1];

await run('locations_ptx', async (ctx) => {
  const errors = [];
  const page = await open(ctx, path.join(runDir, 'report.html'), { errors });
  await page.evaluate((i) => window.LTViewer.select(i), cg.index);
  await page.waitForFunction((i) => document.documentElement.dataset.rendered === String(i), cg.index);
  // The generated code is a listing (virtual rows): scroll line `at` into view.
  await page.waitForFunction((a) => {
    if (document.querySelector(`.vbox .ln[data-side="r"][data-line="${a}"]`)) return true;
    const box = document.querySelector('#pane .vbox');
    if (box) box.scrollTop = Math.max(0, a * 18 - 200);
    return false;
  }, at);
  await page.click(`.vbox .ln[data-side="r"][data-line="${at}"]`);
  await page.waitForSelector('#ft-src');
  check(await page.textContent('#ft-src .ft-src-at') === 'matmul.mlir:' + line && await page.textContent('#ft-src code') === mlir[line - 1],
    `PTX line ${at + 1} (${ptx[at].trim()}) shows matmul.mlir:${line}: ${mlir[line - 1].trim()}`);
  await page.check('#ft-hideloc');
  await page.waitForFunction((i) => document.documentElement.dataset.hideLoc === '1' && document.documentElement.dataset.rendered === String(i), cg.index);
  await page.evaluate(() => { const b = document.querySelector('#pane .vbox'); if (b) b.scrollTop = 0; });
  const shown = await page.$$eval('.vbox .tx', (e) => e.map((x) => x.textContent).join('\n'));
  check(!/^\s*\.(loc|file)\s/m.test(shown) && /ld\.|st\.|mov\./.test(shown), 'hiding locations removes the .loc/.file lines from the PTX');
  check(errors.length === 0, 'no page errors: ' + errors.join('; '));
});
