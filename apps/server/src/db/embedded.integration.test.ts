/**
 * The embedded PostgreSQL of `pnpm start` on a machine without one (issue 18 §2): a first start cut
 * off after the data directory was initialised (a taken port, a killed process) is resumed by the
 * next start, and a failure says what happened, PostgreSQL's own reason and what to do.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { EmbeddedPostgresError, startEmbeddedPostgres } from './embedded';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

function tempRoot() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-embedded-'));
  roots.push(root);
  return root;
}

/** A port held by another program, on every address (IPv4 and IPv6), as a busy machine has. */
async function takenPort() {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '::', ipv6Only: false }, resolve));
  return { port: (server.address() as net.AddressInfo).port, release: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function databases(url: string) {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    return (await client.query<{ datname: string }>('SELECT datname FROM pg_database ORDER BY 1')).rows.map((r) => r.datname);
  } finally {
    await client.end();
  }
}

describe('the embedded PostgreSQL of a first start', () => {
  it('resumes a first start cut off by a taken port: the error says why and what to do, the next start creates the database', async () => {
    const dir = path.join(tempRoot(), 'postgres');
    const taken = await takenPort();
    let error: unknown;
    try {
      await startEmbeddedPostgres({ dir, port: taken.port });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EmbeddedPostgresError);
    const message = (error as Error).message;
    expect(message).toContain(`did not start on port ${taken.port}`);
    expect(message).toMatch(/PostgreSQL said:\n.*(could not bind|could not create|Address already in use)/s);
    expect(message).toContain('EMBEDDED_PG_PORT');
    // The directory was initialised before the start failed: the case that used to stay broken.
    expect(fs.existsSync(path.join(dir, 'PG_VERSION'))).toBe(true);
    await taken.release();

    const started = await startEmbeddedPostgres({ dir, port: taken.port });
    try {
      expect(started.isNew).toBe(true);
      expect(await databases(started.url)).toContain('smartlock');
    } finally {
      await started.stop();
    }
    // A third start finds everything in place.
    const again = await startEmbeddedPostgres({ dir, port: taken.port });
    try {
      expect(again.isNew).toBe(false);
      expect(await databases(again.url)).toContain('smartlock');
    } finally {
      await again.stop();
    }
  }, 120_000);

  it('makes the directory again when its initialisation was cut off (the mark is still there)', async () => {
    const root = tempRoot();
    const dir = path.join(root, 'postgres');
    // What a process killed in the middle of initdb leaves: a directory that is not a cluster, and the mark.
    fs.mkdirSync(path.join(dir, 'base'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'PG_VERSION'), '18\n');
    fs.writeFileSync(`${dir}.console-initialising`, 'cut off\n');
    const port = await takenPort().then(async (t) => (await t.release(), t.port));
    const logs: string[] = [];
    const started = await startEmbeddedPostgres({ dir, port, log: (m) => logs.push(m) });
    try {
      expect(logs.join('\n')).toContain('did not finish: initialising it again');
      expect(await databases(started.url)).toContain('smartlock');
      expect(fs.existsSync(`${dir}.console-initialising`)).toBe(false);
    } finally {
      await started.stop();
    }
  }, 120_000);
});
