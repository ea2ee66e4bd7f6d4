// Shared by the browser tests: launch Debian's chromium through playwright-core,
// produce reports with `lowertrace synth-trace`, and tiny assertion helpers.
import { chromium } from 'playwright-core';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const LT = process.env.LT_BIN ? path.join(process.env.LT_BIN, 'lowertrace') : 'lowertrace';

export function tmpdir(tag) {
  return fs.mkdtempSync(path.join(os.tmpdir(), `lt-browser-${tag}-`));
}

// Runs `lowertrace synth-trace` and returns { dir, runDir, report, linked, status }.
export function synth(args, opts = {}) {
  const dir = tmpdir('trace');
  const r = spawnSync(LT, ['synth-trace', '--out', dir, ...args], {
    encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, ...opts,
  });
  const scriptDir = path.join(dir, args.includes('--script') ? args[args.indexOf('--script') + 1] : 'synth');
  const runs = fs.existsSync(path.join(scriptDir, '.run_records')) ? fs.readdirSync(path.join(scriptDir, '.run_records')) : [];
  const runDir = runs.length ? path.join(scriptDir, '.run_records', runs[0]) : null;
  return {
    dir, scriptDir, runDir, status: r.status, signal: r.signal, stderr: r.stderr,
    report: runDir && path.join(runDir, 'report.html'), linked: path.join(scriptDir, 'report.html'),
  };
}

export async function launch() {
  const userDir = tmpdir('profile');
  const ctx = await chromium.launchPersistentContext(userDir, {
    executablePath: process.env.LT_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1400, height: 900 },
  });
  return ctx;
}

// Opens a report and waits until the viewer rendered a pass (up to 60 s: on a
// loaded 2-core CI machine, with another browser test beside it, 15 s was seen
// to run out; how fast it renders is bench/report's business, not a test's).
export async function open(ctx, file, { errors } = {}) {
  const page = await ctx.newPage();
  const errs = errors || [];
  page.on('pageerror', (e) => errs.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errs.push(m.text()); });
  await page.goto(pathToFileURL(file).href);
  await page.waitForFunction(() => document.documentElement.dataset.rendered !== undefined, null, { timeout: 60000 });
  return page;
}

export function check(cond, msg) {
  if (!cond) throw new Error('FAILED: ' + msg);
  console.log('ok - ' + msg);
}

// Runs `body(ctx)` with a browser, closes it, and exits non-zero on failure.
export async function run(name, body) {
  let ctx;
  try {
    ctx = await launch();
    await body(ctx);
    console.log(`# ${name}: passed`);
  } catch (e) {
    console.error(`# ${name}: ${e.stack || e}`);
    process.exitCode = 1;
  } finally {
    if (ctx) await ctx.close().catch(() => {});
  }
}

export const activeIndex = (page) => page.evaluate(() => window.__lt.cur);
export { fs, path, execFileSync };

// Clicks a record's tab, then its sidebar entry (as a user would).
export async function gotoPass(page, rec) {
  await page.click(`.tab[data-phase="${rec.phase}"]`);
  await page.click(`.pl[data-index="${rec.index}"]`);
}

// The pass a report opens on, from trace.json records: the innermost failed
// pass, else the first changed one, else the first.
export function openingPass(recs) {
  const failed = recs.filter((r) => r.status === 'failed');
  const inner = failed.find((r) => !failed.some((c) => c.parent_index === r.index));
  return inner || recs.find((r) => r.status === 'completed' && r.changed) || recs[0];
}

// Imports an MLIR -mlir-print-ir-before/after-all style dump (text or
// Buffer) with `lowertrace import`; returns { report, runDir, trace, dir }.
export function importDump(tag, dump, args = []) {
  const dir = tmpdir(tag);
  const file = path.join(dir, tag + '.txt');
  fs.writeFileSync(file, dump);
  const r = spawnSync(LT, ['import', file, ...args, '--dir', path.join(dir, 'out'), '--mode', 'html'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error('lowertrace import failed: ' + r.stderr);
  const scripts = fs.readdirSync(path.join(dir, 'out'));  // the input's stem, or a Triton kernel's name
  return runOf(path.join(dir, 'out', scripts.includes(tag) ? tag : scripts[0]));
}

// Runs lowertrace-opt on `mlir` with `args`; returns the run (and its exit status).
export function traceOpt(tag, mlir, args) {
  const dir = tmpdir(tag);
  const input = path.join(dir, tag + '.mlir');
  fs.writeFileSync(input, mlir);
  const opt = path.join(process.env.LT_BIN || '', 'lowertrace-opt');
  const r = spawnSync(opt, [input, ...args, '--lower-trace=html', '--lower-trace-dir=' + dir, '-o', path.join(dir, 'out.mlir')], { encoding: 'utf8' });
  return { ...runOf(path.join(dir, tag)), status: r.status, stderr: r.stderr };
}

function runOf(scriptDir) {
  const rr = path.join(scriptDir, '.run_records');
  const runDir = path.join(rr, fs.readdirSync(rr)[0]);
  return { runDir, report: path.join(runDir, 'report.html'), trace: JSON.parse(fs.readFileSync(path.join(runDir, 'trace.json'), 'utf8')) };
}

// One dump section per snapshot: pass i turns texts[i] into texts[i + 1].
export function dumpOf(texts, pass = 'Canonicalizer (canonicalize)') {
  let out = '';
  for (let i = 0; i + 1 < texts.length; i++) {
    out += `// -----// IR Dump Before ${pass} //----- //\n${texts[i]}\n`;
    out += `// -----// IR Dump After ${pass} //----- //\n${texts[i + 1]}\n`;
  }
  return out;
}

// Waits until the selected pass has rendered.
export const rendered = (page) => page.waitForFunction(() => document.documentElement.dataset.rendered === String(window.__lt.cur));
