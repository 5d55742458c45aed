import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migratedTemplate } from './template-database';

/**
 * Creates an empty database next to the one `adminUrl` points at, for a test run or a tool,
 * and drops it again; with `migrated`, a copy of the migrated template (template-database.ts)
 * rather than an empty one. Names start with `smartlock_scratch_` so a crashed run is easy to clean.
 */
export async function createScratchDatabase(adminUrl: string, label = 'scratch', options: { fastCommits?: boolean; migrated?: boolean } = {}) {
  const name = `smartlock_${label}_${randomBytes(6).toString('hex')}`;
  const template = options.migrated ? await migratedTemplate(adminUrl) : undefined;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
    // fastCommits (a test run's database): a commit need not wait for its WAL to reach the disk (a
    // crash may lose the last commits, never consistency); the tests commit tens of thousands of times.
    if (options.fastCommits) await admin.query(`ALTER DATABASE "${name}" SET synchronous_commit = off`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
