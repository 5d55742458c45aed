import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { MIGRATIONS_DIR } from './paths';

/** The advisory lock key `prisma migrate` takes, so this runner and Prisma never run at once. */
const PRISMA_MIGRATE_LOCK = 72707369;

/** `_prisma_migrations` exactly as Prisma creates it, so `prisma migrate deploy/status` keep working. */
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export class MigrationError extends Error {}

export function readMigrations(dir = MIGRATIONS_DIR): MigrationFile[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

/**
 * Applies the migrations of `prisma/migrations` that the database has not had yet, each in its
 * own transaction, recording them in `_prisma_migrations` the way Prisma does. A migration that
 * fails is rolled back and recorded as rolled back, so the next start tries it again.
 */
export async function applyMigrations(databaseUrl: string, options: { dir?: string; log?: (message: string) => void } = {}): Promise<{ applied: string[] }> {
  const log = options.log ?? (() => {});
  const migrations = readMigrations(options.dir);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [PRISMA_MIGRATE_LOCK]);
    await client.query(CREATE_MIGRATIONS_TABLE);
    const { rows } = await client.query<AppliedRow>(
      'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at',
    );
    const unfinished = rows.find((r) => r.finished_at === null && r.rolled_back_at === null);
    if (unfinished) {
      throw new MigrationError(
        `Migration ${unfinished.migration_name} started but never finished (a crash during a migration applied outside this runner). ` +
          `Check the database, then mark it with \`prisma migrate resolve\` before starting again.`,
      );
    }
    const done = new Map(rows.filter((r) => r.finished_at !== null && r.rolled_back_at === null).map((r) => [r.migration_name, r]));
    for (const m of migrations) {
      const previous = done.get(m.name);
      if (previous) {
        if (previous.checksum !== m.checksum) log(`warning: migration ${m.name} was edited after it was applied`);
        continue;
      }
      const id = randomUUID();
      await client.query('INSERT INTO "_prisma_migrations" (id, checksum, migration_name) VALUES ($1, $2, $3)', [id, m.checksum, m.name]);
      try {
        await client.query('BEGIN');
        await client.query(m.sql);
        await client.query('UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1', [id]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        const message = error instanceof Error ? error.message : String(error);
        await client.query('UPDATE "_prisma_migrations" SET rolled_back_at = now(), logs = $2 WHERE id = $1', [id, message]);
        throw new MigrationError(`Migration ${m.name} failed and was rolled back: ${message}`);
      }
      applied.push(m.name);
      log(`applied migration ${m.name}`);
    }
    return { applied };
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [PRISMA_MIGRATE_LOCK]).catch(() => {});
    await client.end();
  }
}
