import fs from 'node:fs';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { applyMigrations } from '../db/migrate';
import { createScratchDatabase } from '../db/scratch-database';
import { embeddedTestPostgres } from './test-postgres';

describe('the PostgreSQL of a machine without one', () => {
  it('starts an embedded server the test set-up can create, migrate and drop databases in, and removes it afterwards', async () => {
    const postgres = await embeddedTestPostgres();
    const port = new URL(postgres.adminUrl).port;
    try {
      expect(postgres.isEmbedded).toBe(true);
      const db = await createScratchDatabase(postgres.adminUrl, 'embedded');
      await applyMigrations(db.url);
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM "_prisma_migrations" WHERE "finished_at" IS NOT NULL`);
      await client.end();
      expect(rows[0]!.n).toBeGreaterThan(0);
      await db.drop();
      expect(fs.existsSync(postgres.dir)).toBe(true);
    } finally {
      await postgres.stop();
    }
    expect(port).not.toBe('5432');
    // Its temporary directory is gone, and nothing answers on its port any more.
    expect(fs.existsSync(postgres.dir)).toBe(false);
    const probe = new pg.Client({ connectionString: postgres.adminUrl, connectionTimeoutMillis: 1000 });
    await expect(probe.connect()).rejects.toThrow(/ECONNREFUSED|connect/);
  }, 120_000);
});
