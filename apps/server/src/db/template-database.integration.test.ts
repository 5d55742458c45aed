import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { applyMigrations } from './migrate';
import { createScratchDatabase } from './scratch-database';
import { migratedTemplate, templateName } from './template-database';

/**
 * The migrated template that test runs, browser consoles and benchmarks clone (template-database.ts).
 * Under a prefix of this file's own, so that the run's template (which other files clone meanwhile)
 * is never dropped here.
 */
const prefix = `smartlock_tpltest_${process.pid}_`;
const adminUrl = inject('adminDatabaseUrl');
const made: string[] = [];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-template-'));

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
const templates = () =>
  admin(async (c) =>
    (await c.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1) ORDER BY 1', [prefix])).rows.map((r) => r.datname),
  );

/**
 * A migrations directory of two small migrations (the template's rules do not depend on what the
 * migrations hold; the run's own template, made of the real ones, is checked by the last test);
 * `last` is the second one's SQL.
 */
function migrations(name: string, last = 'CREATE TABLE "B" (id int PRIMARY KEY REFERENCES "A" (id));'): string {
  const dir = path.join(tmp, name);
  for (const [migration, sql] of [
    ['20260101000000_a', 'CREATE TABLE "A" (id int PRIMARY KEY);'],
    ['20260102000000_b', last],
  ]) {
    fs.mkdirSync(path.join(dir, migration!), { recursive: true });
    fs.writeFileSync(path.join(dir, migration!, 'migration.sql'), sql!);
  }
  return dir;
}

afterAll(async () => {
  for (const name of await templates()) {
    await admin((c) => c.query(`ALTER DATABASE "${name}" IS_TEMPLATE false`));
    await admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  }
  for (const db of made) await admin((c) => c.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`));
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('the migrated template', () => {
  it('is made once by processes that ask at the same moment, and its copy needs no migration', async () => {
    const names = await Promise.all([1, 2, 3].map(() => migratedTemplate(adminUrl, { dir: migrations('first'), prefix })));
    expect(new Set(names).size).toBe(1);
    expect(await templates()).toEqual([names[0]]);
    // Nobody may connect to it (a clone would wait for them), and it is a template.
    const row = await admin(async (c) => (await c.query('SELECT datallowconn, datistemplate FROM pg_database WHERE datname = $1', [names[0]])).rows[0]);
    expect(row).toEqual({ datallowconn: false, datistemplate: true });

    const copy = await admin(async (c) => {
      const name = `smartlock_tplcopy_${process.pid}`;
      await c.query(`CREATE DATABASE "${name}" TEMPLATE "${names[0]}"`);
      made.push(name);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return url.toString();
    });
    expect((await applyMigrations(copy, { dir: migrations('first') })).applied).toEqual([]);
  });

  it('is made anew when a migration changes, and the one of the old migrations is dropped', async () => {
    const before = await migratedTemplate(adminUrl, { dir: migrations('first'), prefix });
    const dir = migrations('edited', 'CREATE TABLE "B" (id bigint PRIMARY KEY);');
    expect(templateName({ dir, prefix })).not.toBe(before);
    const after = await migratedTemplate(adminUrl, { dir, prefix });
    expect(after).toBe(templateName({ dir, prefix }));
    expect(await templates()).toEqual([after]);
  });

  it('leaves nothing half made behind a migration that fails, and says which', async () => {
    const dir = migrations('broken', 'SELECT no_such_function();');
    await expect(migratedTemplate(adminUrl, { dir, prefix })).rejects.toThrow(/failed and was rolled back/);
    expect(await templates()).not.toContain(templateName({ dir, prefix }));
    const building = await admin(async (c) => (await c.query("SELECT datname FROM pg_database WHERE datname LIKE 'smartlock\\_tplbuild\\_%'")).rowCount);
    expect(building).toBe(0);
  });

  it('is what a scratch database with `migrated` is a copy of', async () => {
    const db = await createScratchDatabase(adminUrl, 'tplcopy', { migrated: true, fastCommits: true });
    try {
      expect((await applyMigrations(db.url)).applied).toEqual([]);
    } finally {
      await db.drop();
    }
  });
});
