import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../db/embedded';

/** The PostgreSQL tests use by default: the one a developer or CI machine runs on its standard port. */
export const DEFAULT_TEST_ADMIN_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** A port nobody listens on now (the kernel's choice), for a server the test starts next. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The PostgreSQL a test run creates its databases in:
 * - `TEST_ADMIN_DATABASE_URL` when it is set (it must answer);
 * - else the server on 127.0.0.1:5432 when one answers;
 * - else an embedded PostgreSQL (the package `pnpm start` uses) in a temporary directory on a free
 *   port, stopped and removed by `stop()`. So the README's test command needs only Node and Redis.
 */
export async function testPostgres(log: (message: string) => void = () => {}): Promise<{ adminUrl: string; isEmbedded: boolean; stop(): Promise<void> }> {
  const configured = process.env.TEST_ADMIN_DATABASE_URL;
  if (configured) {
    if (!(await answers(configured))) throw new Error(`TEST_ADMIN_DATABASE_URL does not answer: ${configured.replace(/:[^:@/]+@/, ':***@')}`);
    return { adminUrl: configured, isEmbedded: false, stop: async () => {} };
  }
  if (await answers(DEFAULT_TEST_ADMIN_URL)) return { adminUrl: DEFAULT_TEST_ADMIN_URL, isEmbedded: false, stop: async () => {} };
  log('no PostgreSQL answers on 127.0.0.1:5432 (and TEST_ADMIN_DATABASE_URL is not set): starting an embedded one');
  return embeddedTestPostgres(log);
}

/** A throw-away embedded PostgreSQL in a temporary directory on a free port; `stop()` removes it all. */
export async function embeddedTestPostgres(log: (message: string) => void = () => {}) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-test-pg-'));
  const port = await freePort();
  try {
    const embedded = await startEmbeddedPostgres({ dir: path.join(root, 'data'), port, log });
    const url = new URL(embedded.url);
    url.pathname = '/postgres';
    return {
      adminUrl: url.toString(),
      isEmbedded: true as const,
      dir: root,
      async stop() {
        await embedded.stop().catch(() => {});
        fs.rmSync(root, { recursive: true, force: true });
      },
    };
  } catch (error) {
    fs.rmSync(root, { recursive: true, force: true });
    throw error;
  }
}
