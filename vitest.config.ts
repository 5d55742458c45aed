import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { e2eWorkers } from './e2e/workers.ts';
import LongestFirst from './vitest.sequencer.ts';

// Three projects, run by `pnpm test` one after the other (see package.json):
//   unit         *.test.ts(x): no database, no network
//   integration  *.integration.test.ts: the real PostgreSQL and Redis; the run creates and drops its own database
//   e2e          e2e/*.e2e.test.ts: the built console in Debian's Chromium, E2E_WORKERS files at a time, each
//                against a console of its own (e2e/global-setup.ts)
// The server's DES (legacy envelope) needs OpenSSL's legacy provider in every worker.
const execArgv = ['--openssl-legacy-provider'];
// Vitest's default is one worker fewer than the cores: one on CI's 2-core machine. The unit and
// integration files mostly wait (for PostgreSQL, Redis, the file system), so every core gets one.
// TEST_WORKERS sets it (.ci/at-hour.sh runs two vitest processes of one worker each).
const cores = Number(process.env.TEST_WORKERS) || os.availableParallelism();

// `expect.poll` waits for a state the server or the page reaches, as a locator does: its limit is
// for a hang, like a locator's 30 s. Vitest's default of one second failed four browser tests in
// one flake-check run under load (a page's figure, a reader's state, a reservation's heading).
const POLL = { timeout: 30_000, interval: 100 };

export default defineConfig({
  test: {
    // The longest files first (test-durations.json), on a fresh clone as on a developer's machine.
    sequence: { sequencer: LongestFirst },
    // Transformed modules kept on disk (node_modules/.experimental-vitest-cache) for the next
    // vitest process: CI starts eleven of them on the same files (unit, integration, the
    // fresh-machine run, six hours of .ci/at-hour.sh), each transforming the server anew.
    experimental: { fsModuleCache: true },
    projects: [
      {
        test: {
          name: 'unit',
          maxWorkers: cores,
          // The files of a worker share its modules: the server's, the packages' and the locales'
          // tests mock nothing (39 s of CPU isolated, 17.5 s not). The web's tests mock modules
          // and the browser's globals: each file is isolated (unit-web).
          isolate: false,
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.{ts,tsx}', 'locales/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: ['**/node_modules/**', '**/*.integration.test.ts', 'apps/web/**'],
          execArgv,
        },
      },
      {
        test: {
          name: 'unit-web',
          maxWorkers: cores,
          // The web's `@/` imports (a feature's api module under test imports `@/lib/trpc`).
          alias: { '@/': `${path.resolve(import.meta.dirname, 'apps/web/src')}/` },
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          exclude: ['**/node_modules/**', '**/*.integration.test.ts'],
          execArgv,
        },
      },
      {
        test: {
          name: 'integration',
          // One file more than the cores: an integration file waits for PostgreSQL, Redis and the
          // simulators a good part of its time, and with one a core the cores stood idle for 15% of the
          // run (2026-11-28, on this 2-core machine: 281 s with two files at a time, 250 s with three).
          // TEST_WORKERS still sets it exactly (.ci/at-hour.sh).
          maxWorkers: Number(process.env.TEST_WORKERS) || cores + 1,
          expect: { poll: POLL },
          include: ['apps/*/src/**/*.integration.test.ts'],
          globalSetup: ['apps/server/src/test/global-setup.ts'],
          // Each worker evaluates the server's modules once, not once per file (2.6 s of a file's
          // time was importing them): every file builds its own app, hotel and Redis prefix
          // (test/harness.ts), so nothing a file needs lives in a module's state.
          isolate: false,
          execArgv,
          // A limit for a hang, not a speed test: two files at a time on a busy 2-core machine took
          // a scenario past 30 s (a test must not fail for the machine's speed).
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.test.ts'],
          expect: { poll: POLL },
          globalSetup: ['e2e/global-setup.ts'],
          // A worker's files share its modules (playwright, the support files, axe): imported once a
          // worker, not once a file (5 to 16 s between two files on a loaded machine); e2e/setup.ts
          // resets what each file must start afresh and registers the hooks of every test.
          isolate: false,
          setupFiles: ['e2e/setup.ts'],
          // E2E_WORKERS files at a time (e2e/workers.ts), each against the console of its worker.
          maxWorkers: e2eWorkers,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
