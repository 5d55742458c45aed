import { z } from 'zod';
import type { Refusal } from './variables';

/**
 * Database passwords production refuses: the placeholders of examples (the compose example once
 * said `change-me`) and the names everyone tries first. Compared without case.
 */
export const PLACEHOLDER_DATABASE_PASSWORDS = ['change-me', 'changeme', 'change_me', 'password', 'postgres', 'smartlock', 'secret'];

/** A URL whose user and password decode (what node-postgres does with them). */
function isDatabaseUrl(value: string): boolean {
  try {
    const url = new URL(value);
    decodeURIComponent(url.username);
    decodeURIComponent(url.password);
    return url.hostname !== '' || url.searchParams.has('host');
  } catch {
    return false;
  }
}

/** The database: where it is (a URL, its parts, or the embedded one), and the pool and transactions of the server. */
export const databaseEnv = z.object({
  DATABASE_URL: z
    .string()
    .refine(isDatabaseUrl, {
      message:
        'DATABASE_URL is not a valid URL: percent-encode the characters / # ? % @ : of its password (encodeURIComponent), or leave DATABASE_URL unset and pass PGHOST, PGPORT, PGUSER, PGPASSWORD and PGDATABASE',
    })
    .optional(),
  /**
   * The database in parts, as libpq names them (used when DATABASE_URL is unset and PGHOST is set):
   * the password is taken as it is, whatever characters it has (the compose file passes these).
   */
  PGHOST: z.string().optional(),
  PGPORT: z.coerce.number().int().min(1).max(65535).default(5432),
  PGUSER: z.string().optional(),
  PGPASSWORD: z.string().optional(),
  PGDATABASE: z.string().optional(),
  EMBEDDED_PG_DIR: z.string().default('./data/postgres'),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  /** Connections of the server's PostgreSQL pool. */
  DB_POOL_SIZE: z.coerce.number().int().min(2).max(200).default(10),
  /** How long a transaction may wait for a free connection, and run, before it is retried. */
  DB_TX_MAX_WAIT_MS: z.coerce.number().int().min(100).default(10_000),
  DB_TX_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  /** How many times a transaction that met a deadlock, a serialization failure or a full pool runs. */
  DB_TX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
});
type DatabaseEnv = z.output<typeof databaseEnv>;

/** The database's URL: DATABASE_URL, else one made of PGHOST and the other parts (each escaped), else none (embedded). */
export function databaseUrlOf(env: DatabaseEnv): string | undefined {
  if (env.DATABASE_URL) return env.DATABASE_URL;
  if (!env.PGHOST) return undefined;
  const user = env.PGUSER ?? 'postgres';
  const credentials = encodeURIComponent(user) + (env.PGPASSWORD === undefined ? '' : `:${encodeURIComponent(env.PGPASSWORD)}`);
  const database = encodeURIComponent(env.PGDATABASE ?? user);
  // A directory is a Unix socket (libpq's rule), given as the host parameter.
  if (env.PGHOST.startsWith('/')) return `postgresql://${credentials}@localhost:${env.PGPORT}/${database}?host=${encodeURIComponent(env.PGHOST)}`;
  const host = env.PGHOST.includes(':') && !env.PGHOST.startsWith('[') ? `[${env.PGHOST}]` : env.PGHOST;
  return `postgresql://${credentials}@${host}:${env.PGPORT}/${database}`;
}

/** The password the server will connect with, as PostgreSQL will see it. */
function databasePassword(env: DatabaseEnv): string | undefined {
  if (env.DATABASE_URL) {
    try {
      const { password } = new URL(env.DATABASE_URL);
      return password ? decodeURIComponent(password) : undefined;
    } catch {
      return undefined;
    }
  }
  return env.PGHOST ? env.PGPASSWORD : undefined;
}

/** Production refuses a placeholder database password. */
export function databaseRefusals(env: DatabaseEnv, production: boolean): Refusal[] {
  if (!production) return [];
  const password = databasePassword(env);
  if (password === undefined || !PLACEHOLDER_DATABASE_PASSWORDS.includes(password.toLowerCase())) return [];
  return [
    {
      path: env.DATABASE_URL ? 'DATABASE_URL' : 'PGPASSWORD',
      message:
        `production refuses the database password "${password}" (a placeholder anyone would try): set a random one ` +
        '(`openssl rand -base64 32`; in the compose install, POSTGRES_PASSWORD in .env). PostgreSQL keeps the password its ' +
        'database was created with: change it there too (README.md, "Changing the database password")',
    },
  ];
}

/** The server's pool and how its transactions wait, run and are retried. */
export function databasePoolSettings(env: DatabaseEnv) {
  return {
    poolSize: env.DB_POOL_SIZE,
    transactions: { maxWaitMs: env.DB_TX_MAX_WAIT_MS, timeoutMs: env.DB_TX_TIMEOUT_MS, attempts: env.DB_TX_ATTEMPTS },
  };
}
