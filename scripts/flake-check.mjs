#!/usr/bin/env node
// Runs test files several times in a row while one more core is kept busy, and lists every failure
// with its file, its test, its first error line and the pictures the browser tests took of their
// pages when it failed (issue 37 §1). A test that fails here and passes alone waits for time, or
// races the product: fix it at its cause.
//
// Usage: node scripts/flake-check.mjs [--runs N] [--project e2e|integration|both] [--load CORES] [file ...]
//   --runs     how many runs in a row (default 5)
//   --project  which vitest project (default e2e; `both` runs integration then e2e in each run)
//   --load     cores kept busy meanwhile (default 1; 0 for none): stress-ng when installed, else node
//   file ...   test files (default: every file of the project)
// The browser project reads the built apps: `pnpm build` first. Reports and logs go to
// test-output/flake/; the exit code is 1 when anything failed.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const [value] = args.splice(i, 2).slice(1);
  return value;
};
const runs = Math.max(1, Number(option('runs', '5')) || 5);
const projectArg = option('project', 'e2e');
const load = Math.max(0, Number(option('load', '1')));
const files = args.filter((a) => !a.startsWith('--'));
const projects = projectArg === 'both' ? ['integration', 'e2e'] : [projectArg];
if (!projects.every((p) => p === 'e2e' || p === 'integration')) {
  console.error(`flake-check: unknown project ${projectArg} (e2e, integration or both)`);
  process.exit(2);
}
if (projects.includes('e2e') && !fs.existsSync(path.join(root, 'apps/server/dist/main.js'))) {
  console.error('flake-check: the browser tests read the built apps: run `npx -y pnpm@12 build` first');
  process.exit(2);
}

const outDir = path.join(root, 'test-output', 'flake');
const failureDir = path.join(root, 'test-output', 'e2e', 'failures');
fs.rmSync(outDir, { recursive: true, force: true });
fs.mkdirSync(outDir, { recursive: true });

/** The extra load: `load` busy cores for as long as the runs last. */
function startLoad() {
  if (load === 0) return () => {};
  const hasStress = fs.existsSync('/usr/bin/stress-ng');
  const child = hasStress
    ? spawn('stress-ng', ['--cpu', String(load), '--quiet'], { stdio: 'ignore' })
    : spawn(
        process.execPath,
        ['-e', `const { Worker } = require('node:worker_threads'); for (let i = 1; i < ${load}; i++) new Worker('for(;;){}', { eval: true }); for (;;) {}`],
        {
          stdio: 'ignore',
        },
      );
  console.log(`flake-check: ${load} core(s) kept busy by ${hasStress ? 'stress-ng' : 'node'} during the runs`);
  return () => child.kill('SIGKILL');
}

function vitest(project, run) {
  const report = path.join(outDir, `run-${run}-${project}.json`);
  const log = path.join(outDir, `run-${run}-${project}.log`);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(
      path.join(root, 'node_modules/.bin/vitest'),
      ['run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...files],
      { cwd: root, stdio: ['ignore', fs.openSync(log, 'w'), fs.openSync(log, 'a')] },
    );
    child.on('close', (code) => resolve({ project, run, code, seconds: (Date.now() - started) / 1000, report, log }));
  });
}

/** The failed tests of a run's JSON report (or the whole run when it wrote none: a set-up that failed). */
function failuresOf(result) {
  if (!fs.existsSync(result.report)) return [{ file: '(the run)', test: `exit ${result.code}, no report`, message: `see ${path.relative(root, result.log)}` }];
  const report = JSON.parse(fs.readFileSync(result.report, 'utf8'));
  const out = [];
  for (const file of report.testResults) {
    const name = path.relative(root, file.name);
    const failed = file.assertionResults.filter((t) => t.status === 'failed');
    for (const t of failed) out.push({ file: name, test: [...t.ancestorTitles, t.title].join(' > '), message: (t.failureMessages?.[0] ?? '').split('\n')[0] });
    if (!failed.length && file.status === 'failed') out.push({ file: name, test: '(the file)', message: (file.message ?? '').split('\n')[0] });
  }
  return out;
}

/** The failure pictures a run left (e2e/support.ts lists them in pictures.jsonl), moved beside its report. */
function takePictures(run) {
  const index = path.join(failureDir, 'pictures.jsonl');
  if (!fs.existsSync(index)) return [];
  const dir = path.join(outDir, `run-${run}-pictures`);
  fs.mkdirSync(dir, { recursive: true });
  const pictures = fs
    .readFileSync(index, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  // A picture gone (another run of the browser tests on this machine cleared the folder) is listed as missing.
  for (const p of pictures) {
    const moved = path.join(dir, path.basename(p.picture));
    if (fs.existsSync(p.picture)) fs.renameSync(p.picture, moved);
    p.picture = fs.existsSync(moved) ? moved : `${p.picture} (missing)`;
    // What the page said meanwhile (e2e/support.ts): its console's errors, failed requests, navigations.
    if (p.log) {
      const movedLog = path.join(dir, path.basename(p.log));
      if (fs.existsSync(p.log)) fs.renameSync(p.log, movedLog);
      p.log = fs.existsSync(movedLog) ? movedLog : `${p.log} (missing)`;
    }
  }
  fs.rmSync(failureDir, { recursive: true, force: true });
  return pictures;
}

fs.rmSync(failureDir, { recursive: true, force: true });
const stopLoad = startLoad();
const lines = [];
const failures = [];
try {
  for (let run = 1; run <= runs; run++) {
    for (const project of projects) {
      const result = await vitest(project, run);
      const found = failuresOf(result);
      const pictures = takePictures(run);
      for (const f of found)
        failures.push({
          run,
          project,
          ...f,
          pictures: pictures
            .filter((p) => path.relative(root, p.file) === f.file && p.test === f.test)
            .flatMap((p) => [path.relative(root, p.picture), ...(p.log ? [path.relative(root, p.log)] : [])]),
        });
      const line = `run ${run} ${project.padEnd(11)} ${result.seconds.toFixed(0).padStart(5)} s  ${found.length ? `${found.length} FAILED` : 'passed'}`;
      console.log(line);
      lines.push(line);
    }
  }
} finally {
  stopLoad();
}

console.log(`\nflake-check: ${runs} run(s) of ${projects.join(' and ')} with ${load} busy core(s), ${files.length ? files.join(' ') : 'every file'}`);
for (const line of lines) console.log(`  ${line}`);
if (!failures.length) {
  console.log('flake-check: 0 failures');
  process.exit(0);
}
console.log(`flake-check: ${failures.length} failure(s):`);
for (const f of failures) {
  console.log(`- run ${f.run} ${f.project}: ${f.file}\n    ${f.test}\n    ${f.message}`);
  for (const p of f.pictures) console.log(`    ${p.endsWith('.log') ? 'page log' : 'picture'}: ${p}`);
}
console.log(`(logs and reports: ${path.relative(root, outDir)}/)`);
process.exit(1);
