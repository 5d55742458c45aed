/**
 * `pnpm bench` (issue 37 §5): every benchmark of benchmarks.ts, one after another (each times
 * itself: two at once would measure each other), each run to its end whatever the one before it
 * did, its output shown as it comes. Then one table of every target (lib.ts `target`): met or not,
 * with its figure, and of every benchmark that failed (an exception, a wrong result). Exits 1 only
 * then, when a target was missed or a benchmark failed. `pnpm bench -- <name> ...` runs those whose
 * file starts with a name given.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BENCHMARKS, nameOf } from './benchmarks.ts';
import { root, TARGET_MARK } from './lib.ts';

interface Verdict {
  bench: string;
  what: string;
  met: boolean;
  figure: string;
  judged: boolean;
}

const dir = path.join(root, 'bench');
const only = process.argv.slice(2).filter((a) => a !== '--');

/** Runs one benchmark, its output passed on (the target lines gathered instead); answers its exit code. */
function run(args: string[], verdicts: Verdict[]): Promise<number> {
  const bin = path.join(dir, 'node_modules', '.bin', 'tsx');
  return new Promise((resolve) => {
    const child = spawn(fs.existsSync(bin) ? bin : 'tsx', args, { cwd: dir, env: process.env, stdio: ['ignore', 'pipe', 'inherit'] });
    let rest = '';
    child.stdout.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop()!;
      for (const line of lines) {
        if (line.startsWith(TARGET_MARK)) verdicts.push({ bench: nameOf(args), ...(JSON.parse(line.slice(TARGET_MARK.length)) as Omit<Verdict, 'bench'>) });
        else process.stdout.write(`${line}\n`);
      }
    });
    child.on('exit', (code, signal) => {
      if (rest) process.stdout.write(rest);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

const started = performance.now();
const verdicts: Verdict[] = [];
const failed: { bench: string; code: number }[] = [];
const ran: { bench: string; seconds: number }[] = [];
for (const args of BENCHMARKS.filter((a) => !only.length || only.some((o) => nameOf(a).startsWith(o)))) {
  const bench = nameOf(args);
  console.log(`\n<!-- ${bench} -->\n`);
  const t = performance.now();
  const before = verdicts.length;
  const code = await run(args, verdicts);
  ran.push({ bench, seconds: (performance.now() - t) / 1000 });
  // A benchmark that missed a target may exit 1 for it (run alone, it says so): that is a miss, not a failure.
  const missedHere = verdicts.slice(before).some((v) => v.judged && !v.met);
  if (code !== 0 && !missedHere) failed.push({ bench, code });
}

const cell = (text: string) => text.replaceAll('|', '\\|');
console.log(`\n# Summary: ${ran.length} benchmarks in ${((performance.now() - started) / 60_000).toFixed(1)} min\n`);
console.log('| benchmark | target | figure | met? |');
console.log('|---|---|---|---|');
for (const v of verdicts) console.log(`| ${v.bench} | ${cell(v.what)} | ${cell(v.figure)} | ${!v.judged ? 'not judged (smoke)' : v.met ? 'yes' : '**no**'} |`);
const withTargets = new Set(verdicts.map((v) => v.bench));
const without = ran.filter((r) => !withTargets.has(r.bench) && !failed.some((f) => f.bench === r.bench));
if (without.length) console.log(`\nRan without a target of their own (figures above): ${without.map((r) => r.bench).join(', ')}.`);
const missed = verdicts.filter((v) => v.judged && !v.met);
if (failed.length) console.log(`\n**Failed** (an error or a wrong result, not a time): ${failed.map((f) => `${f.bench} (exit ${f.code})`).join(', ')}.`);
console.log(
  `\n${verdicts.length - missed.length} of ${verdicts.length} targets met${missed.length ? `; missed: ${missed.map((m) => `${m.bench}: ${m.what}`).join('; ')}` : ''}.`,
);
if (missed.length || failed.length) process.exitCode = 1;
