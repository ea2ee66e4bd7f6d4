// A report written by the LLVM pass plugin, opened in Chromium. The plugin
// writes its final report from a static destructor at process exit; when the
// strings the page needs (the CSP hashes, the inline script) were statics
// destroyed before that, every plugin report was a blank page blocked by its
// own Content-Security-Policy. Here: clang-22 with the plugin, then the page
// must list every record, render passes with no console error, and decode
// snapshots equal to the raw files on disk.
import { run, open, check, LT, tmpdir, fs, path } from './helpers.mjs';
import { spawnSync } from 'node:child_process';

const plugin = path.join(path.dirname(LT), '..', 'lib', 'liblowertrace-llvm.so');
const src = path.join(process.env.LT_SRC || '.', 'tests', 'data', 'llvm', 'plugin_small.c');
check(fs.existsSync(plugin), 'plugin built: ' + plugin);
check(fs.existsSync(src), 'fixture present: ' + src);
const dir = tmpdir('plugin');
const obj = path.join(dir, 'small.o');
const r = spawnSync('clang-22', ['-O2', `-fpass-plugin=${plugin}`, '-c', src, '-o', obj], {
  encoding: 'utf8', env: { ...process.env, TL_LOWER_TRACE: 'html', TL_LOWER_TRACE_DIR: dir },
});
check(r.status === 0 && fs.existsSync(obj), 'clang-22 with the plugin compiled' + (r.status ? ': ' + r.stderr.slice(-400) : ''));
const scriptDir = path.join(dir, 'plugin_small');
const runDir = path.join(scriptDir, '.run_records', fs.readdirSync(path.join(scriptDir, '.run_records'))[0]);
const recs = JSON.parse(fs.readFileSync(path.join(runDir, 'trace.json'), 'utf8')).records;
check(recs.length > 50, `trace.json holds the plugin's records (${recs.length})`);

await run('llvm_plugin', async (ctx) => {
  const errors = [];
  const page = await open(ctx, path.join(runDir, 'report.html'), { errors });
  check(await page.textContent('#hdr-count') === `${recs.length} passes recorded`, `all ${recs.length} passes listed`);
  // Visit the changed passes (those have distinct before/after texts).
  const changed = recs.filter((x) => x.changed).slice(0, 25);
  check(changed.length > 5, `some passes changed the IR (${changed.length} visited)`);
  let compared = 0, mismatches = 0;
  for (const rec of changed) {
    await page.click(`.tab[data-phase="${rec.phase}"]`);
    await page.click(`.pl[data-index="${rec.index}"]`);
    await page.waitForFunction((c) => document.documentElement.dataset.rendered === String(c), rec.index);
    for (const [side, key] of [['before_text', 'b'], ['after_text', 'f']]) {
      if (!rec[side] || !rec[side].file) continue;
      const want = fs.readFileSync(path.join(runDir, rec[side].file), 'utf8');
      const got = await page.evaluate(async ([c, k]) => window.__ltText(window.__lt.recs.get(c)[k]), [rec.index, key]);
      compared++;
      if (got !== want) mismatches++;
    }
  }
  check(compared > 0 && mismatches === 0, `decoded snapshots equal the raw files (${compared} compared)`);
  check(errors.length === 0, 'no page or CSP errors: ' + errors.join('; '));
});
