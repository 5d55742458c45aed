/**
 * `pnpm bench:smoke` (CI, after `pnpm test`): every benchmark of `pnpm bench` (benchmarks.ts, so
 * that a benchmark added there is smoked too), once, at a small
 * size (BENCH_SMOKE=1, lib.ts `sized`). Each still checks its results (counts, rows, refusals) and
 * throws when one is wrong; nothing it times is worth reading. It needs `pnpm build` first (the
 * bundle, Lighthouse and export benchmarks read the built apps). Exits 1 when any benchmark failed,
 * after running the others, and names them. BENCH_SMOKE_JOBS (default 3) benchmarks run at a time.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { BENCHMARKS, nameOf } from './benchmarks.ts';
import { root, TARGET_MARK } from './lib.ts';

const dir = path.join(root, 'bench');
// Each runs as one bundle (bundled.mjs: the server's source loaded through tsx cost each of them 7 to
// 8 s of CPU before it started), its node flags (`--openssl-legacy-provider`) given to node.
const commands = BENCHMARKS.map((args) => {
  const file = args.findIndex((a) => !a.startsWith('--'));
  return { name: nameOf(args), command: [process.execPath, ...args.slice(0, file), 'bundled.mjs', ...args.slice(file)] };
});
const only = process.argv.slice(2);

function run([command, ...args]: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command!, args, { cwd: dir, env: { ...process.env, BENCH_SMOKE: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code, signal) => {
      if (code !== 0)
        console.log(
          output
            .split('\n')
            .filter((line) => !line.startsWith(TARGET_MARK))
            .join('\n'),
        );
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

const failed: string[] = [];
// The longest smoke runs start first, so that the short ones fill the other job beside them; the
// rest in the order of `all` (measured 2026-11-27, 303 s in all on a slow day: export 46 s,
// lighthouse 44, lock-calls 41, run-all 37, lock-delivery 36, lock-records 31, timeline-paint 30;
// webhooks 76 s then, 18 s since the smoke takes a killed worker's jobs up after 3 s, JOB_LOCK_MS).
const LONGEST_FIRST = ['export.ts', 'lighthouse.ts', 'lock-calls.ts', 'run-all.ts', 'lock-delivery.ts', 'lock-records.ts', 'timeline-paint.ts'];
const rank = ({ name }: { name: string }) => {
  const i = LONGEST_FIRST.indexOf(name);
  return i < 0 ? LONGEST_FIRST.length : i;
};
const queue = commands.filter(({ name }) => !only.length || only.some((o) => name.startsWith(o))).sort((a, b) => rank(a) - rank(b));
const ran = queue.length;
const started = performance.now();
// BENCH_SMOKE_JOBS benchmarks at a time (default 3): most of a smoke run waits on PostgreSQL, a
// simulator or a browser (2026-11-28, quiet but for one helper: 139 s two at a time, 94 s three,
// 98 s four; beside fresh-machine and at-hour it took 200 s, so CI keeps it after them). Each one's output is printed whole when it ends.
const jobs = Math.max(1, Number(process.env.BENCH_SMOKE_JOBS ?? 3));
await Promise.all(
  Array.from({ length: jobs }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const { name, command } = next;
      const t = performance.now();
      const code = await run(command);
      const seconds = ((performance.now() - t) / 1000).toFixed(1);
      console.log(`${code === 0 ? 'ok  ' : 'FAIL'} ${name} (${seconds} s${code === 0 ? '' : `, exit ${code}`})`);
      if (code !== 0) failed.push(name);
    }
  }),
);
console.log(
  `\n${ran} benchmarks smoked in ${((performance.now() - started) / 1000).toFixed(0)} s, ${jobs} at a time${failed.length ? `; failed: ${failed.join(', ')}` : ', all whole'}.`,
);
if (failed.length) process.exitCode = 1;
