// Issue 11, defects 4 and 5: a report opens on the failed pass (else on the
// first change), shows the run's outcome at the top, and keeps the whole
// diagnostic of the failure (mlir-opt's `note: see current operation:` and
// the op), in the view and in trace.json's error_msg.
import { run, open, check, synth, traceOpt, rendered, activeIndex } from './helpers.mjs';

// one-shot-bufferize fails on an op it cannot bufferize, after a no-op pass.
const failing = traceOpt('failing', `func.func @f(%t: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "test.foo"(%t) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
`, ['--allow-unregistered-dialect', '--pass-pipeline=builtin.module(canonicalize,one-shot-bufferize{bufferize-function-boundaries})']);
check(failing.status === 1, 'lowertrace-opt exits 1, as mlir-opt does');
const failed = failing.trace.records.find((r) => r.status === 'failed');
check(failed && failed.name === 'one-shot-bufferize', 'the bufferization pass is the failed record');
check(failed.error_msg.includes('error: op was not bufferized') && failed.error_msg.includes('note: see current operation:') &&
  failed.error_msg.includes('"test.foo"'), "trace.json's error_msg keeps the whole diagnostic: " + JSON.stringify(failed.error_msg));
const ok = synth(['--passes', '12', '--lines', '80']);

await run('outcome', async (ctx) => {
  const errors = [];
  const page = await open(ctx, failing.report, { errors });
  await rendered(page);
  check(await activeIndex(page) === failed.index, `opens on the failed pass #${failed.index}, not on #0`);
  const box = await page.textContent('.errbox pre');
  check(box.includes('note: see current operation:') && box.includes('"test.foo"(%0)'), 'the failure box shows the notes and the op: ' + JSON.stringify(box));
  const top = await page.$eval('#run-error', (e) => ({ hidden: e.hidden, text: e.textContent, cls: e.className }));
  check(!top.hidden && top.cls === 'bad' && top.text.includes('Failed') && top.text.includes('one-shot-bufferize') &&
    top.text.includes('op was not bufferized'), 'the top of the page says the run failed, where and why: ' + top.text);
  await page.click('.pl[data-index="0"]');
  await rendered(page);
  await page.click('#run-error .go-fail');
  await rendered(page);
  check(await activeIndex(page) === failed.index, 'one click from the outcome goes back to the failure');

  const p2 = await open(ctx, ok.report, { errors });
  await rendered(p2);
  const first = ok.runDir && JSON.parse((await import('node:fs')).readFileSync(ok.runDir + '/trace.json', 'utf8')).records.find((r) => r.status === 'completed' && r.changed);
  check(await activeIndex(p2) === first.index, `a run without failure opens on its first change (#${first.index})`);
  check(await p2.getAttribute('.tab.active', 'data-phase') === first.phase, 'on that change\'s tab, not the no-op "unscoped" one');
  const t2 = await p2.$eval('#run-error', (e) => ({ hidden: e.hidden, text: e.textContent, cls: e.className }));
  check(!t2.hidden && t2.cls === 'ok' && t2.text.includes('Completed'), 'a good run says it completed: ' + t2.text);
  check(errors.length === 0, 'no page errors: ' + errors.join('; '));
});
