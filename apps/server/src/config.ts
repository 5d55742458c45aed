import { z } from 'zod';

/** Development values of the legacy envelope key and IV; production refuses to start with them. */
export const DEV_COMPAT_DES_KEY = 'slDevK01';
export const DEV_COMPAT_DES_IV = 'slDevIv1';
/** Development secret of the lock-record callback URL; production refuses it. */
export const DEV_LOCK_CALLBACK_SECRET = 'dev-lock-callback-secret';
/** Development key of the signed face-photo URLs (decision 015); production refuses it. */
export const DEV_FACE_PHOTO_SECRET = 'dev-face-photo-secret-not-for-production';
/** TTLock's API hosts by region (its error 30008 sends an account of the other region there). */
export const TTLOCK_HOSTS = { eu: 'https://euapi.ttlock.com', cn: 'https://cnapi.ttlock.com' } as const;
/** Development key under which hotels' card keys are kept (docs/card-format.md); production refuses it. */
export const DEV_CARD_KEY_SECRET = 'dev-card-key-secret-not-for-production';
/**
 * Database passwords production refuses: the placeholders of examples (the compose example once
 * said `change-me`) and the names everyone tries first. Compared without case.
 */
export const PLACEHOLDER_DATABASE_PASSWORDS = ['change-me', 'changeme', 'change_me', 'password', 'postgres', 'smartlock', 'secret'];

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

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

/** A domain name of at least two labels (`harbour-hotel.com`), lower case. */
const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

function splitDomains(value: string): string[] {
  return value
    .split(',')
    .map((d) => d.trim().toLowerCase().replace(/\.$/, ''))
    .filter(Boolean);
}

/** `noreply@example.com` or `Name <noreply@example.com>` (the name possibly quoted), on one line; null otherwise. */
export function parseMailbox(value: string): { name: string; address: string } | null {
  // eslint-disable-next-line no-control-regex -- a header's value: no control character, no line break
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(value)) return null;
  const trimmed = value.trim();
  const angled = /^(.*?)\s*<([^<>\s]+)>$/.exec(trimmed);
  const name = angled ? angled[1]!.replace(/^"(.*)"$/, '$1').trim() : '';
  const address = angled ? angled[2]! : trimmed;
  return z.email().safeParse(address).success ? { name, address } : null;
}

const eightBytes = (name: string) => z.string().refine((v) => Buffer.byteLength(v, 'utf8') === 8, { message: `${name} must be exactly 8 bytes (UTF-8)` });

/**
 * Every environment variable the server reads, with its default. This module is the only
 * reader of `process.env`; README.md lists the same variables.
 */
const ZEnv = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    HOST: z.string().default('0.0.0.0'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
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
    /**
     * Where pictures, face photos and exports are kept (decision 024): `directory` (UPLOAD_DIR; with
     * several servers, a volume they all mount) or `s3` (a bucket of an S3-compatible object store).
     */
    FILE_STORE: z.enum(['directory', 's3']).default('directory'),
    /** The directory of FILE_STORE=directory (a volume in Docker). */
    UPLOAD_DIR: z.string().default('./data/uploads'),
    S3_BUCKET: z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { message: 'S3_BUCKET must be a bucket name (3-63 lowercase letters, digits, dots and hyphens)' })
      .optional(),
    /** A folder inside the bucket for this install's files (`smartlock/`); empty: the bucket's root. */
    S3_PREFIX: z
      .string()
      .regex(/^$|^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*\/?$/, {
        message: 'S3_PREFIX must be a folder name of letters, digits, dots, hyphens and underscores (nested with /)',
      })
      .default(''),
    S3_REGION: z.string().min(1).default('us-east-1'),
    /** An S3-compatible service's URL (MinIO, Ceph, Garage, R2, ...); unset: AWS S3 of S3_REGION. */
    S3_ENDPOINT: z.string().url().optional(),
    /** Path-style URLs (`<endpoint>/<bucket>/<key>`), what most S3-compatible services need; default: on with S3_ENDPOINT. */
    S3_FORCE_PATH_STYLE: bool.optional(),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    /** HMAC key of the short-lived signed URLs of face photos (decision 015); at least 32 characters. */
    CARD_KEY_SECRET: z.string().min(32, { message: 'CARD_KEY_SECRET must be at least 32 characters' }).default(DEV_CARD_KEY_SECRET),
    FACE_PHOTO_SECRET: z.string().min(32, { message: 'FACE_PHOTO_SECRET must be at least 32 characters' }).default(DEV_FACE_PHOTO_SECRET),
    REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
    /** Prefix of every Redis key and BullMQ queue, so several installs can share one Redis. */
    REDIS_PREFIX: z.string().min(1).default('sl'),
    COMPAT_DES_KEY: eightBytes('COMPAT_DES_KEY').default(DEV_COMPAT_DES_KEY),
    COMPAT_DES_IV: eightBytes('COMPAT_DES_IV').default(DEV_COMPAT_DES_IV),
    SESSION_IDLE_MINUTES: z.coerce
      .number()
      .int()
      .min(5)
      .default(8 * 60),
    SESSION_ABSOLUTE_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .default(7 * 24),
    /** Set when the console is served over HTTPS (the session cookie becomes Secure). */
    COOKIE_SECURE: bool.optional(),
    /** Origins allowed to send cookie-authenticated writes, comma separated; default: the request's own host. */
    PUBLIC_ORIGINS: z.string().optional(),
    TRUST_PROXY: bool.default(false),
    BODY_LIMIT_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .default(1024 * 1024),
    /** `auto`: seed the demo hotel when the database has no hotel yet (not in production). */
    SEED_DEMO: z.enum(['auto', 'true', 'false']).default('auto'),
    /** Run the BullMQ workers inside the server process (otherwise run `pnpm worker`). */
    WORKERS_IN_PROCESS: bool.default(true),
    /** Whether this process schedules the periodic jobs (stay expiry sweep, delivery sweep, lock status, records, reconcile). */
    SCHEDULE_SWEEPS: bool.default(true),
    /** `dev` logs each SMS (development only), `http` posts it to SMS_HTTP_URL, `none` turns SMS password recovery off. */
    SMS_PROVIDER: z.enum(['dev', 'http', 'none']).default('dev'),
    SMS_HTTP_URL: z.string().url().optional(),
    SMS_HTTP_TOKEN: z.string().optional(),
    /** The install's SMTP server for guest e-mail (`smtp://user:password@host:587`, `smtps://...:465`); unset: no e-mail is sent. */
    SMTP_URL: z
      .string()
      .url()
      .refine((v) => /^smtps?:\/\//.test(v), { message: 'SMTP_URL must start with smtp:// or smtps://' })
      .optional(),
    /**
     * The install's own sender of guest e-mail (`noreply@example.com`, or `Console <noreply@example.com>`):
     * the envelope sender and From of every hotel whose address is not on SMTP_ALLOWED_SENDER_DOMAINS
     * (the hotel's name as display name, its address as Reply-To).
     */
    SMTP_FROM: z
      .string()
      .refine((v) => parseMailbox(v) !== null, {
        message: 'SMTP_FROM must be an e-mail address (noreply@example.com) or a name and an address (Console <noreply@example.com>), on one line',
      })
      .optional(),
    /**
     * Domains a hotel's own sender address may be on to be used as From (comma separated,
     * `harbour-hotel.com,example.org`): the install sends for them (its SMTP server, SPF and DKIM
     * cover them). A hotel's address on any other domain is only its Reply-To.
     */
    SMTP_ALLOWED_SENDER_DOMAINS: z
      .string()
      .refine((v) => splitDomains(v).every((d) => DOMAIN.test(d)), {
        message: 'SMTP_ALLOWED_SENDER_DOMAINS must be domain names separated by commas (harbour-hotel.com,example.org)',
      })
      .optional(),
    /** E-mails one hotel may send in an hour (a sliding hour); more wait for the hour to make room. 0: no limit. */
    SMTP_HOTEL_HOURLY_LIMIT: z.coerce.number().int().min(0).max(1_000_000).default(200),
    /** Requests one API key may make to the JSON API (`/api/v1`) in a minute; past it, 429 with RateLimit-* headers. */
    API_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
    /**
     * Whether the server's requests to addresses users type (calendar feeds) may go to the machine
     * itself and to special-purpose addresses (private, loopback, link-local...: a feed on the
     * hotel's own network). Off: such a target is refused (`address_refused`, infra/guarded-fetch.ts),
     * so a manager cannot make the server fetch from inside its network. FEED_PRIVATE_ADDRESSES is
     * its former name, still read when this one is unset.
     */
    OUTBOUND_PRIVATE_ADDRESSES: bool.optional(),
    FEED_PRIVATE_ADDRESSES: bool.optional(),
    /** Webhooks (docs/webhooks.md): the first retry's delay (each next one doubles, 20 attempts over three days at 5 s). */
    WEBHOOK_FIRST_RETRY_MS: z.coerce.number().int().min(1).max(3_600_000).default(5_000),
    /** How long every attempt to an endpoint may fail before it is disabled and the hotel told (default three days). */
    WEBHOOK_DISABLE_AFTER_MS: z.coerce
      .number()
      .int()
      .min(1)
      .default(3 * 24 * 3_600_000),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
    /** How long a job's worker holds it unheard before another worker takes it up (a worker that died: BullMQ's lock and stalled check). */
    JOB_LOCK_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
    /** Connections of the server's PostgreSQL pool. */
    DB_POOL_SIZE: z.coerce.number().int().min(2).max(200).default(10),
    /** How long a transaction may wait for a free connection, and run, before it is retried. */
    DB_TX_MAX_WAIT_MS: z.coerce.number().int().min(100).default(10_000),
    DB_TX_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
    /** How many times a transaction that met a deadlock, a serialization failure or a full pool runs. */
    DB_TX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
    /**
     * Which lock cloud the server speaks to: `ttlock` (TTLock's Open API v3, TTLOCK_*), `sim`
     * (apps/lock-sim, TTLock's API simulated: LOCK_SIM_URL, or run inside the server when unset),
     * `none` (no locks: credentials stay pending). Production has no default.
     */
    LOCK_PROVIDER: z.enum(['ttlock', 'sim', 'none']).optional(),
    /**
     * TTLock's developer application of this install (docs/ttlock-account.md): its region picks the
     * API host (TTLock keeps mainland-China accounts on cnapi, the others on euapi); TTLOCK_BASE_URL
     * overrides the host. The hotels' own TTLock accounts are connected in the console.
     */
    TTLOCK_REGION: z.enum(['eu', 'cn']).default('eu'),
    TTLOCK_BASE_URL: z.string().url().optional(),
    TTLOCK_CLIENT_ID: z.string().optional(),
    TTLOCK_CLIENT_SECRET: z.string().optional(),
    /** No longer read: each hotel connects its own TTLock account in the console (Settings > Lock accounts). */
    TTLOCK_USERNAME: z.string().optional(),
    TTLOCK_PASSWORD: z.string().optional(),
    /** An external simulator (the compose demo service); unset with LOCK_PROVIDER=sim: run one in the server. */
    LOCK_SIM_URL: z.string().url().optional(),
    LOCK_SIM_STATE_FILE: z.string().default('./data/lock-sim.json'),
    LOCK_SIM_PORT: z.coerce.number().int().min(0).max(65535).default(4010),
    /** The secret path segment of the lock-record callback URL (/api/locks/callback/<secret>). */
    LOCK_CALLBACK_SECRET: z
      .string()
      .min(16)
      .regex(/^[A-Za-z0-9._~-]+$/, {
        message: 'LOCK_CALLBACK_SECRET is a segment of a URL path: letters, digits and . _ ~ - only (e.g. `openssl rand -hex 24`)',
      })
      .default(DEV_LOCK_CALLBACK_SECRET),
    /** Where the lock cloud reaches this server (for the callback URL given to the simulator). */
    PUBLIC_URL: z.string().url().optional(),
    /** Attempts of one credential delivery before it is failed, and the first retry delay (doubling). */
    LOCK_DELIVERY_ATTEMPTS: z.coerce.number().int().min(1).max(30).default(8),
    LOCK_DELIVERY_BACKOFF_MS: z.coerce.number().int().min(10).default(2_000),
    /**
     * How often each lock account's gateways are read (online or not), in minutes; which locks each
     * gateway hears is read every 30 minutes at most often, the account's lock list (battery) every
     * 60 (docs/ttlock-account.md, "Call budget").
     */
    LOCK_STATUS_EVERY_MINUTES: z.coerce.number().int().min(1).max(1440).default(5),
    /** How often the records of locks whose records do not come by callback are read, in minutes; 0: never. */
    LOCK_RECORDS_POLL_MINUTES: z.coerce.number().int().min(0).max(1440).default(60),
    /** How often every lock is read back and reconciled with our credentials, in minutes; 0: never. */
    LOCK_RECONCILE_EVERY_MINUTES: z.coerce.number().int().min(0).max(10080).default(360),
    /** Run the desk card-reader simulator (apps/reader-sim) inside the server; default: on outside production. */
    READER_SIM: bool.optional(),
    READER_SIM_STATE_FILE: z.string().default('./data/reader-sim.json'),
    /** Its ports (spec §7; a taken one is replaced by a free one, said in the log); 0: any free port. */
    READER_SIM_TYPE1_PORT: z.coerce.number().int().min(0).max(65535).default(13570),
    READER_SIM_TYPE2_PORT: z.coerce.number().int().min(0).max(65535).default(8765),
    READER_SIM_TYPE3_PORT: z.coerce.number().int().min(0).max(65535).default(39002),
    READER_SIM_CONTROL_PORT: z.coerce.number().int().min(0).max(65535).default(13580),
    /**
     * Where the desk computers' own reader software listens when it is not on the usual address of
     * its type (docs/readers.md): a URL on the loopback address. The console calls it there, names
     * it with that address and its page may call it (CSP). Ignored while the simulator runs.
     */
    READER_TYPE1_URL: readerUrl('http').optional(),
    READER_TYPE2_URL: readerUrl('http').optional(),
    READER_TYPE3_URL: readerUrl('ws').optional(),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production' && (env.COMPAT_DES_KEY === DEV_COMPAT_DES_KEY || env.COMPAT_DES_IV === DEV_COMPAT_DES_IV)) {
      ctx.addIssue({
        code: 'custom',
        path: ['COMPAT_DES_KEY'],
        message: 'production refuses the development COMPAT_DES_KEY / COMPAT_DES_IV: set the values your legacy clients use',
      });
    }
    if (env.NODE_ENV === 'production' && env.SMS_PROVIDER === 'dev') {
      ctx.addIssue({
        code: 'custom',
        path: ['SMS_PROVIDER'],
        message:
          'production refuses SMS_PROVIDER=dev (it writes recovery codes to the log): set SMS_PROVIDER=http with SMS_HTTP_URL, or SMS_PROVIDER=none to turn SMS password recovery off',
      });
    }
    if (env.NODE_ENV === 'production' && env.LOCK_PROVIDER === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['LOCK_PROVIDER'],
        message:
          'production needs an explicit LOCK_PROVIDER: ttlock (with TTLOCK_CLIENT_ID, TTLOCK_CLIENT_SECRET and TTLOCK_REGION), sim (simulated locks, for a demo) or none',
      });
    }
    if (env.LOCK_PROVIDER === 'ttlock') {
      for (const name of ['TTLOCK_CLIENT_ID', 'TTLOCK_CLIENT_SECRET'] as const) {
        if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: `LOCK_PROVIDER=ttlock needs ${name}` });
      }
    }
    if (env.NODE_ENV === 'production' && env.LOCK_PROVIDER !== 'none' && env.LOCK_CALLBACK_SECRET === DEV_LOCK_CALLBACK_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['LOCK_CALLBACK_SECRET'],
        message: 'production refuses the development LOCK_CALLBACK_SECRET: set a random value of at least 16 characters',
      });
    }
    if (env.NODE_ENV === 'production' && env.FACE_PHOTO_SECRET === DEV_FACE_PHOTO_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['FACE_PHOTO_SECRET'],
        message:
          'production refuses the development FACE_PHOTO_SECRET (anyone could sign face photo URLs with it): set a random value of at least 32 characters',
      });
    }
    if (env.NODE_ENV === 'production' && env.CARD_KEY_SECRET === DEV_CARD_KEY_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['CARD_KEY_SECRET'],
        message:
          "production refuses the development CARD_KEY_SECRET (it guards every hotel's card keys): set a random value of at least 32 characters, and keep it: card keys kept under another cannot be read",
      });
    }
    if (env.NODE_ENV === 'production') {
      const password = databasePassword(env);
      if (password !== undefined && PLACEHOLDER_DATABASE_PASSWORDS.includes(password.toLowerCase())) {
        ctx.addIssue({
          code: 'custom',
          path: [env.DATABASE_URL ? 'DATABASE_URL' : 'PGPASSWORD'],
          message:
            `production refuses the database password "${password}" (a placeholder anyone would try): set a random one ` +
            '(`openssl rand -base64 32`; in the compose install, POSTGRES_PASSWORD in .env). PostgreSQL keeps the password its ' +
            'database was created with: change it there too (README.md, "Changing the database password")',
        });
      }
    }
    if (env.FILE_STORE === 's3' && !env.S3_BUCKET) {
      ctx.addIssue({
        code: 'custom',
        path: ['S3_BUCKET'],
        message: 'FILE_STORE=s3 needs S3_BUCKET (an existing bucket), and S3_ENDPOINT for a service other than AWS S3',
      });
    }
    if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
      ctx.addIssue({
        code: 'custom',
        path: ['S3_SECRET_ACCESS_KEY'],
        message:
          'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither (the AWS client then finds credentials itself: an instance role, web identity)',
      });
    }
    if (env.SMS_PROVIDER === 'http' && !env.SMS_HTTP_URL) {
      ctx.addIssue({ code: 'custom', path: ['SMS_HTTP_URL'], message: 'SMS_PROVIDER=http needs SMS_HTTP_URL' });
    }
  });

/** The database's URL: DATABASE_URL, else one made of PGHOST and the other parts (each escaped), else none (embedded). */
function databaseUrlOf(env: {
  DATABASE_URL?: string;
  PGHOST?: string;
  PGPORT: number;
  PGUSER?: string;
  PGPASSWORD?: string;
  PGDATABASE?: string;
}): string | undefined {
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
function databasePassword(env: { DATABASE_URL?: string; PGHOST?: string; PGPASSWORD?: string }): string | undefined {
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

export type TConfig = ReturnType<typeof loadConfig>;

export class ConfigError extends Error {}

/** A reader service's base URL: `http` (types 1, 2) or `ws` (type 3) on the loopback address, where a browser finds the desk's own software. */
function readerUrl(scheme: 'http' | 'ws') {
  return z
    .string()
    .trim()
    .refine((value) => {
      try {
        const url = new URL(value);
        return (
          url.protocol === `${scheme}:` &&
          ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname) &&
          url.pathname === '/' &&
          !url.search &&
          !url.hash &&
          !url.username
        );
      } catch {
        return false;
      }
    }, `must be a ${scheme}:// URL on the loopback address (127.0.0.1, localhost or [::1]), with a port and no path`)
    .transform((value) => new URL(value).origin);
}

export function loadConfig(env: Record<string, string | undefined> = process.env) {
  // An empty variable is an unset one (docker compose passes `${NAME:-}` as an empty string).
  const parsed = ZEnv.safeParse(Object.fromEntries(Object.entries(env).filter(([, value]) => value !== '')));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  - ${i.path.join('.') || 'env'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    env: e.NODE_ENV,
    isProduction: e.NODE_ENV === 'production',
    host: e.HOST,
    port: e.PORT,
    logLevel: e.LOG_LEVEL,
    /** DATABASE_URL, or the URL made of PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE; unset: the embedded PostgreSQL. */
    databaseUrl: databaseUrlOf(e),
    embeddedPg: { dir: e.EMBEDDED_PG_DIR, port: e.EMBEDDED_PG_PORT },
    uploadDir: e.UPLOAD_DIR,
    files: {
      kind: e.FILE_STORE,
      dir: e.UPLOAD_DIR,
      s3:
        e.FILE_STORE === 's3'
          ? {
              bucket: e.S3_BUCKET!,
              prefix: e.S3_PREFIX && !e.S3_PREFIX.endsWith('/') ? `${e.S3_PREFIX}/` : e.S3_PREFIX,
              region: e.S3_REGION,
              endpoint: e.S3_ENDPOINT,
              forcePathStyle: e.S3_FORCE_PATH_STYLE ?? Boolean(e.S3_ENDPOINT),
              accessKeyId: e.S3_ACCESS_KEY_ID,
              secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            }
          : undefined,
    },
    facePhotoSecret: e.FACE_PHOTO_SECRET,
    cardKeySecret: e.CARD_KEY_SECRET,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    compat: { desKey: e.COMPAT_DES_KEY, desIv: e.COMPAT_DES_IV },
    session: { idleMs: e.SESSION_IDLE_MINUTES * 60_000, absoluteMs: e.SESSION_ABSOLUTE_HOURS * 3_600_000 },
    cookieSecure: e.COOKIE_SECURE ?? e.NODE_ENV === 'production',
    publicOrigins: e.PUBLIC_ORIGINS
      ? e.PUBLIC_ORIGINS.split(',')
          .map((o) => o.trim().replace(/\/$/, ''))
          .filter(Boolean)
      : [],
    trustProxy: e.TRUST_PROXY,
    bodyLimit: e.BODY_LIMIT_BYTES,
    seedDemo: e.SEED_DEMO,
    workersInProcess: e.WORKERS_IN_PROCESS,
    scheduleSweeps: e.SCHEDULE_SWEEPS,
    sms: { provider: e.SMS_PROVIDER, httpUrl: e.SMS_HTTP_URL, httpToken: e.SMS_HTTP_TOKEN },
    mail: {
      smtpUrl: e.SMTP_URL,
      /** SMTP_FROM read: its address, and its name when it has one. */
      from: e.SMTP_FROM ? parseMailbox(e.SMTP_FROM) : null,
      /** SMTP_ALLOWED_SENDER_DOMAINS, lower case. */
      allowedSenderDomains: splitDomains(e.SMTP_ALLOWED_SENDER_DOMAINS ?? ''),
      hotelHourlyLimit: e.SMTP_HOTEL_HOURLY_LIMIT,
    },
    /** OUTBOUND_PRIVATE_ADDRESSES for the feeds, the only requests to typed addresses so far. */
    feeds: { privateAddresses: e.OUTBOUND_PRIVATE_ADDRESSES ?? e.FEED_PRIVATE_ADDRESSES ?? false },
    /** Webhooks: sent through the same guarded fetch as the feeds, with the same OUTBOUND_PRIVATE_ADDRESSES. */
    webhooks: {
      privateAddresses: e.OUTBOUND_PRIVATE_ADDRESSES ?? e.FEED_PRIVATE_ADDRESSES ?? false,
      firstRetryMs: e.WEBHOOK_FIRST_RETRY_MS,
      disableAfterMs: e.WEBHOOK_DISABLE_AFTER_MS,
    },
    /** The JSON API (`/api/v1`, docs/api.md). */
    api: { ratePerMinute: e.API_RATE_LIMIT_PER_MINUTE },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    jobLockMs: e.JOB_LOCK_MS,
    locks: {
      provider: e.LOCK_PROVIDER ?? (e.NODE_ENV === 'production' ? 'none' : 'sim'),
      ttlock: {
        region: e.TTLOCK_REGION,
        baseUrl: e.TTLOCK_BASE_URL ?? TTLOCK_HOSTS[e.TTLOCK_REGION],
        clientId: e.TTLOCK_CLIENT_ID ?? '',
        clientSecret: e.TTLOCK_CLIENT_SECRET ?? '',
      },
      /** Set but no longer read (TTLOCK_USERNAME / TTLOCK_PASSWORD): the start says so. */
      legacyTtlockAccount: Boolean(e.TTLOCK_USERNAME || e.TTLOCK_PASSWORD),
      sim: { url: e.LOCK_SIM_URL, stateFile: e.LOCK_SIM_STATE_FILE, port: e.LOCK_SIM_PORT },
      callbackSecret: e.LOCK_CALLBACK_SECRET,
      publicUrl: e.PUBLIC_URL,
      delivery: { attempts: e.LOCK_DELIVERY_ATTEMPTS, backoffMs: e.LOCK_DELIVERY_BACKOFF_MS },
      everyMinutes: { status: e.LOCK_STATUS_EVERY_MINUTES, records: e.LOCK_RECORDS_POLL_MINUTES, reconcile: e.LOCK_RECONCILE_EVERY_MINUTES },
    },
    readers: {
      sim: {
        enabled: e.READER_SIM ?? e.NODE_ENV !== 'production',
        stateFile: e.READER_SIM_STATE_FILE,
        ports: { type1: e.READER_SIM_TYPE1_PORT, type2: e.READER_SIM_TYPE2_PORT, type3: e.READER_SIM_TYPE3_PORT, control: e.READER_SIM_CONTROL_PORT },
      },
      /** The hotel's reader software where it is not on the usual addresses (READER_TYPEn_URL). */
      urls: { type1: e.READER_TYPE1_URL, type2: e.READER_TYPE2_URL, type3: e.READER_TYPE3_URL },
      /** Where the simulator started by this server listens (set by startServer), for the console's drivers. */
      simUrls: null as { type1: string; type2: string; type3: string; control: string } | null,
    },
    db: {
      poolSize: e.DB_POOL_SIZE,
      transactions: { maxWaitMs: e.DB_TX_MAX_WAIT_MS, timeoutMs: e.DB_TX_TIMEOUT_MS, attempts: e.DB_TX_ATTEMPTS },
    },
  };
}
