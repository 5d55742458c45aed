import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { applyMigrations, readMigrations } from './migrate';

/**
 * A database with every migration applied, kept on the server as a template that a test run, a
 * browser test's console or a benchmark clones (`CREATE DATABASE ... TEMPLATE`, a file copy of
 * well under a second) instead of applying the 69 migrations again (4 to 9 s of PostgreSQL's CPU
 * each, 30 times in a CI run). Its name carries a hash of the migration files, so an edited or a
 * new migration makes a new template and a stale one is never cloned; the older ones are dropped
 * when a new one is made. It takes no connection once made (`ALLOW_CONNECTIONS false`), so a clone
 * never waits for one to end.
 */
const PREFIX = 'smartlock_template_';
/** Serialises the making of a template among the processes that want it at the same moment. */
const MAKING_LOCK = 72707370;

/** `dir` and `prefix` for the template's own tests: the migrations and the names of another set. */
interface TemplateOptions {
  dir?: string;
  prefix?: string;
}

export function templateName({ dir, prefix = PREFIX }: TemplateOptions = {}): string {
  const hash = createHash('sha256');
  for (const m of readMigrations(dir)) hash.update(`${m.name}\n${m.checksum}\n`);
  return `${prefix}${hash.digest('hex').slice(0, 16)}`;
}

async function exists(admin: pg.Client, name: string): Promise<boolean> {
  const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  return (rowCount ?? 0) > 0;
}

/** The name of the migrated template on the server `adminUrl` points at, made if it is not there yet. */
export async function migratedTemplate(adminUrl: string, options: TemplateOptions = {}): Promise<string> {
  const { dir, prefix = PREFIX } = options;
  const name = templateName(options);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    if (await exists(admin, name)) return name;
    await admin.query('SELECT pg_advisory_lock($1)', [MAKING_LOCK]);
    try {
      // Another process may have made it while this one waited.
      if (await exists(admin, name)) return name;
      const building = `smartlock_tplbuild_${randomBytes(6).toString('hex')}`;
      await admin.query(`CREATE DATABASE "${building}"`);
      try {
        const url = new URL(adminUrl);
        url.pathname = `/${building}`;
        await applyMigrations(url.toString(), { dir });
        await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
      } catch (error) {
        await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`).catch(() => {});
        throw error;
      }
      await admin.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS false IS_TEMPLATE true`);
      // The templates of other migrations (an older checkout's) are dropped: one left on the server.
      const { rows } = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1 AND datname <> $2', [
        `${prefix.replace(/_/g, '\\_')}%`,
        name,
      ]);
      for (const { datname } of rows) {
        await admin.query(`ALTER DATABASE "${datname}" IS_TEMPLATE false`).catch(() => {});
        await admin.query(`DROP DATABASE IF EXISTS "${datname}"`).catch(() => {});
      }
      return name;
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1)', [MAKING_LOCK]).catch(() => {});
    }
  } finally {
    await admin.end();
  }
}
