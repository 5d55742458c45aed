import { defineConfig } from 'vitest/config';

// Three projects, run by `pnpm test` one after the other (see package.json):
//   unit         *.test.ts(x): no database, no network
//   integration  *.integration.test.ts: the real PostgreSQL and Redis; the run creates and drops its own database
//   e2e          e2e/*.e2e.test.ts: the built console in Debian's Chromium
// The server's DES (legacy envelope) needs OpenSSL's legacy provider in every worker.
const execArgv = ['--openssl-legacy-provider'];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.{ts,tsx}', 'locales/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: ['**/node_modules/**', '**/*.integration.test.ts'],
          execArgv,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['apps/*/src/**/*.integration.test.ts'],
          globalSetup: ['apps/server/src/test/global-setup.ts'],
          execArgv,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.test.ts'],
          globalSetup: ['e2e/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
