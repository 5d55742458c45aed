import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as esbuild from 'esbuild';

/**
 * Real processes of the console for tests of more than one of them (scale-out.integration.test.ts):
 * `pnpm serve`'s server and `pnpm worker`'s worker, each a process of its own with its own
 * environment, as an install runs them.
 *
 * What runs by default is the source, bundled as `pnpm build` bundles it (`bundledSource`): `pnpm
 * test` runs the integration tests before it builds, so a bundle in `dist/` may be missing or older
 * than the code under test. With `TEST_PROCESSES=dist` (after `pnpm build`) dist/ runs instead, as
 * the image runs it.
 */
const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export type ProcessKind = 'server' | 'worker';

export interface ConsoleProcess {
  name: string;
  kind: ProcessKind;
  pid: number;
  /** The server's own address (`http://127.0.0.1:<port>`); undefined for a worker. */
  url: string | undefined;
  /** What the process printed so far (stdout and stderr, in order). */
  output(): string;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string>;
  /** The BullMQ name of its job workers (deps.instance), `<kind>@<host>:<pid>`. */
  instance(): string | undefined;
  kill(signal: NodeJS.Signals): void;
  /** SIGTERM, and SIGKILL when it has not stopped within `ms`. */
  stop(ms?: number): Promise<number | string>;
}

const pick = (from: NodeJS.ProcessEnv, names: string[]) => Object.fromEntries(names.filter((n) => from[n] !== undefined).map((n) => [n, from[n]!]));

export function processMode(): 'source' | 'dist' {
  return process.env.TEST_PROCESSES === 'dist' ? 'dist' : 'source';
}

const ENTRIES = { main: 'src/main.ts', worker: 'src/worker.ts', 'jobs/export-thread': 'src/jobs/export-thread.ts' };
let bundled: string | undefined;

/**
 * The server's source bundled by esbuild with build.mjs's options (bundle-options.cjs) into
 * apps/server/node_modules/.cache/console-processes/<hash of the bundle>/, once per test process:
 * the server, the worker and the export thread, laid out as in dist/. A process started through tsx
 * took 8 to 12 s of CPU to be ready (tsx's loader resolving and loading the source's 700 modules); the
 * server's modules load from a bundle in about 3 s (2026-11-29); a test file starts up to eight of them.
 * The export thread's bundle (jobs/export.job.ts) is made the same way for `pnpm dev`: a twin kept
 * apart because product code does not import the tests' helpers. Named by content, so that test
 * processes bundling the same source at once (.ci/at-hour.sh) write the same files.
 */
export function bundledSource(): string {
  if (bundled) return bundled;
  const require = createRequire(import.meta.url);
  const { buildSync } = require('esbuild') as typeof esbuild;
  const { bundleOptions } = require(path.join(SERVER_DIR, 'bundle-options.cjs')) as { bundleOptions: () => esbuild.BuildOptions };
  const out = path.join(SERVER_DIR, 'node_modules', '.cache', 'console-processes');
  const entryPoints = Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, path.join(SERVER_DIR, file)]));
  const built = buildSync({ ...bundleOptions(), entryPoints, outdir: out, write: false, logLevel: 'silent' });
  const hash = createHash('sha256');
  for (const file of built.outputFiles) hash.update(path.relative(out, file.path)).update(file.contents);
  const dir = path.join(out, hash.digest('hex').slice(0, 16));
  if (!fs.existsSync(path.join(dir, 'main.js'))) {
    const partial = `${dir}.${process.pid}.partial`;
    for (const file of built.outputFiles) {
      const target = path.join(partial, path.relative(out, file.path));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, file.contents);
    }
    try {
      fs.renameSync(partial, dir);
    } catch {
      // Another test process wrote the same bundle first.
      fs.rmSync(partial, { recursive: true, force: true });
    }
  }
  bundled = dir;
  return dir;
}

/** The node arguments that run the server (`main`) or the worker: the bundled source, or dist/ (TEST_PROCESSES=dist). */
export function consoleEntry(entry: 'main' | 'worker'): string[] {
  const dir = processMode() === 'dist' ? path.join(SERVER_DIR, 'dist') : bundledSource();
  return ['--openssl-legacy-provider', path.join(dir, `${entry}.js`)];
}

function command(kind: ProcessKind): string[] {
  return consoleEntry(kind === 'server' ? 'main' : 'worker');
}

const READY = {
  server: /Smart Lock Console is ready: http:\/\/localhost:(\d+)/,
  worker: /"msg":"workers running"/,
};

/**
 * Starts a server or a worker with `env` (on top of this process's PATH and HOME only: nothing of
 * the test's own environment leaks in) and resolves once it says it is ready: the server's banner
 * with its port, the worker's "workers running". Rejects, with what it printed, when it exits
 * first or is not ready within `timeoutMs`.
 */
export function startConsoleProcess(kind: ProcessKind, name: string, env: Record<string, string>, timeoutMs = 120_000): Promise<ConsoleProcess> {
  const child: ChildProcess = spawn(process.execPath, command(kind), {
    cwd: SERVER_DIR,
    env: { ...pick(process.env, ['PATH', 'HOME', 'TMPDIR', 'LANG']), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const append = (chunk: Buffer) => {
    text += chunk.toString('utf8');
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  const proc: ConsoleProcess = {
    name,
    kind,
    pid: child.pid!,
    url: undefined,
    output: () => text,
    exited,
    instance: () => /"instance":"([^"]+)"/.exec(text)?.[1] ?? `${kind}@`,
    kill: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
    async stop(ms = 15_000) {
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), ms);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
  return new Promise<ConsoleProcess>((resolve, reject) => {
    const fail = (why: string) => {
      clearInterval(poll);
      clearTimeout(timer);
      proc.kill('SIGKILL');
      reject(new Error(`${name} (${kind}, ${processMode()}) ${why}. It printed:\n${text.slice(-6000)}`));
    };
    const timer = setTimeout(() => fail(`was not ready in ${timeoutMs} ms`), timeoutMs);
    const poll = setInterval(() => {
      const match = READY[kind].exec(text);
      if (!match) return;
      clearInterval(poll);
      clearTimeout(timer);
      if (kind === 'server') proc.url = `http://127.0.0.1:${match[1]}`;
      resolve(proc);
    }, 50);
    void exited.then((code) => {
      if (!READY[kind].test(text)) fail(`exited (${code}) before it was ready`);
    });
  });
}
