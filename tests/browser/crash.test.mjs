// Crash safety: a run SIGKILLed after K passes, or at a random moment, leaves a
// report that opens (from the run folder and through the script-folder link)
// and lists every pass that completed before the kill.
import { run, synth, open, check, LT, tmpdir, fs, path } from './helpers.mjs';
import { spawn } from 'node:child_process';

const chunks = (runDir) => fs.readdirSync(path.join(runDir, 'report_data')).filter((f) => /^\d{6}\.js$/.test(f)).length;
const waitRecs = (page, n) => page.waitForFunction((k) => window.__lt.recs.size === k, n, { timeout: 15000 })
  .then(() => true, () => false);

await run('crash', async (ctx) => {
  for (const k of [1, 5, 12]) {
    const t = synth(['--passes', '30', '--lines', '300', '--kill-after', String(k)]);
    check(t.signal === 'SIGKILL', `run killed after ${k} passes`);
    for (const file of [t.report, t.linked]) {
      const errors = [];
      const page = await open(ctx, file, { errors });
      const ok = await waitRecs(page, k);
      const got = await page.evaluate(() => window.__lt.recs.size);
      check(ok, `${path.basename(path.dirname(file))}/report.html lists the ${k} completed passes (saw ${got})`);
      check(await page.isVisible('#hdr-live'), 'marked as an unfinished run');
      const listed = await page.evaluate(() => window.__lt.order.length);
      check(listed === k, 'every completed pass is in the sidebar model');
      if (k >= 5) {
        await page.keyboard.press('j');
        await page.waitForFunction(() => document.documentElement.dataset.rendered === '1');
        check(await page.$$eval('.vbox .r.d', (e) => e.length) > 0, 'a changed pass of the unfinished run shows its diff');
      }
      const real = errors.filter((e) => !e.includes('ERR_FILE_NOT_FOUND'));
      check(real.length === 0, 'no errors besides probing for the next chunk: ' + real.join('; '));
      await page.close();
    }
  }

  // A live page left open while its run finishes: the run writes the final
  // report and removes its chunk folder; the page stops polling and says so.
  // Until then it keeps polling without redrawing the passes it has.
  {
    const t = synth(['--passes', '20', '--lines', '200', '--kill-after', '6']);
    const page = await open(ctx, t.report);
    check(await waitRecs(page, 6), 'live page lists the 6 passes of the stopped run');
    await page.evaluate(() => { window.__redraws = 0; new MutationObserver(() => window.__redraws++).observe(document.getElementById('sb-list'), { childList: true, subtree: true }); });
    await page.waitForTimeout(3500);  // two polling rounds, each loading chunk 0 again
    check(await page.evaluate(() => !window.__lt.liveEnded), 'still live while the chunk folder is there');
    check(await page.evaluate(() => window.__redraws) === 0, 'polling again redraws nothing: ' + await page.evaluate(() => window.__redraws));
    fs.rmSync(path.join(t.runDir, 'report_data'), { recursive: true, force: true });
    const ended = await page.waitForFunction(() => window.__lt.liveEnded === true, null, { timeout: 10000 }).then(() => true, () => false);
    check(ended, 'the page notices that the run finished');
    check((await page.textContent('#hdr-live')).includes('run finished'), 'and says so in the header: ' + await page.textContent('#hdr-live'));
    check(await page.evaluate(() => window.__lt.recs.size) === 6, 'the passes it had stay listed');
    await page.close();
  }

  // Kills at arbitrary moments, in the middle of writes included: whatever
  // chunk files exist are whole, and the report shows exactly those passes.
  for (const delay of [40, 90, 160]) {
    const dir = tmpdir('kill');
    const child = spawn(LT, ['synth-trace', '--out', dir, '--passes', '400', '--lines', '2000'], { stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, delay));
    child.kill('SIGKILL');
    await new Promise((r) => child.on('exit', r));
    const runs = path.join(dir, 'synth', '.run_records');
    if (!fs.existsSync(runs) || !fs.readdirSync(runs).length) { console.log(`ok - killed at ${delay} ms before any run folder (nothing to open)`); continue; }
    const runDir = path.join(runs, fs.readdirSync(runs)[0]);
    const report = path.join(runDir, 'report.html');
    if (!fs.existsSync(report)) {
      check(!fs.existsSync(path.join(runDir, 'report_data')) || chunks(runDir) <= 1, `killed at ${delay} ms before the first report was complete`);
      continue;
    }
    const finished = !fs.existsSync(path.join(runDir, 'report_data'));
    const n = finished ? null : chunks(runDir);
    const page = await open(ctx, report);
    if (finished) {
      check(await page.evaluate(() => window.__lt.recs.size) > 0, `killed at ${delay} ms after the run finished: final report opens`);
    } else {
      check(await waitRecs(page, n), `killed at ${delay} ms: report shows all ${n} passes on disk`);
    }
    await page.close();
  }
});
