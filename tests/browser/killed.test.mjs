// A live report whose writer is gone must say so instead of "run in progress"
// for ever: the writer's heartbeat (report_data/beat.js) stops moving when the
// compiler is SIGKILLed, and keeps moving through a long pass.
import { run, synth, open, check, LT, tmpdir, fs, path } from './helpers.mjs';
import { spawn, spawnSync } from 'node:child_process';

const env = { ...process.env, NO_COLOR: '1', LT_LIVE_BEAT_MS: '100' };
const liveText = (page) => page.textContent('#hdr-live');

await run('killed', async (ctx) => {
  {
    const t = synth(['--passes', '20', '--lines', '200', '--kill-after', '4'], { env });
    check(t.signal === 'SIGKILL', 'run killed after 4 passes');
    check(fs.existsSync(path.join(t.runDir, 'report_data', 'beat.js')), 'the live run left its heartbeat file');
    const page = await open(ctx, t.report);
    await page.waitForFunction(() => window.__lt.recs.size === 4, null, { timeout: 15000 });
    const dead = await page.waitForFunction(() => !!window.__lt.liveDead, null, { timeout: 20000 }).then(() => true, () => false);
    check(dead, 'the page notices that the writer is gone');
    const txt = await liveText(page);
    check(/killed or crashed/.test(txt) && !/in progress/.test(txt), 'and says so in the header: ' + txt);
    check(await page.isVisible('#hdr-live'), 'the notice is visible');
    check(await page.evaluate(() => window.__lt.recs.size) === 4, 'the passes it had stay listed');
    // It stopped polling: no more script loads of chunks or heartbeats.
    await page.evaluate(() => { window.__loads = 0; new MutationObserver((m) => m.forEach((r) => r.addedNodes.forEach((n) => { if (n.tagName === 'SCRIPT') window.__loads++; }))).observe(document.head, { childList: true }); });
    await page.waitForTimeout(3500);
    check(await page.evaluate(() => window.__loads) === 0, 'polling stopped: ' + await page.evaluate(() => window.__loads));
    await page.close();

    // The next run in the same folder finishes the killed one: its report
    // becomes the final page, saying the run was killed.
    const next = spawnSync(LT, ['synth-trace', '--out', t.dir, '--passes', '3'], { env });
    check(next.status === 0, 'a second run in the same folder');
    check(fs.existsSync(path.join(t.runDir, 'trace.json')), 'the killed run now has its trace.json');
    const fin = await open(ctx, t.report);
    await fin.waitForFunction(() => window.__lt.recs.size === 4, null, { timeout: 15000 });
    check(await fin.isHidden('#hdr-live'), 'a final report, not a live one');
    const banner = await fin.textContent('#run-error');
    check(await fin.isVisible('#run-error') && banner.includes('killed'), 'it says the run was killed: ' + banner);
    await fin.close();
  }

  // A long pass is not a dead writer: the heartbeat goes on while it runs.
  {
    const dir = tmpdir('pause');
    const child = spawn(LT, ['synth-trace', '--out', dir, '--passes', '12', '--lines', '200',
      '--pause-after', '3', '--pause-ms', '9000'], { stdio: 'ignore', env });
    const exited = new Promise((r) => child.on('exit', r));
    const runs = path.join(dir, 'synth', '.run_records');
    let runDir = null;
    for (let i = 0; i < 200 && !runDir; i++) {
      await new Promise((r) => setTimeout(r, 50));
      if (fs.existsSync(runs) && fs.readdirSync(runs).length) {
        const d = path.join(runs, fs.readdirSync(runs)[0]);
        if (fs.existsSync(path.join(d, 'report_data', '000002.js'))) runDir = d;
      }
    }
    check(runDir !== null, 'the paused run wrote its first chunks');
    const page = await open(ctx, path.join(runDir, 'report.html'));
    await page.waitForFunction(() => window.__lt.recs.size >= 3, null, { timeout: 15000 });
    await page.waitForTimeout(5000);  // longer than the page waits for a beat (3 s)
    check(await page.evaluate(() => !window.__lt.liveDead), 'still alive during the long pass');
    check((await liveText(page)).includes('in progress'), 'header still says in progress: ' + await liveText(page));
    await exited;
    const ended = await page.waitForFunction(() => window.__lt.liveEnded === true, null, { timeout: 15000 }).then(() => true, () => false);
    check(ended, 'and then notices that the run finished');
    check(!(await page.evaluate(() => window.__lt.liveDead)), 'never called dead');
    await page.close();
  }
});
