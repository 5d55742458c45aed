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

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const eightBytes = (name: string) =>
  z.string().refine((v) => Buffer.byteLength(v, 'utf8') === 8, { message: `${name} must be exactly 8 bytes (UTF-8)` });

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
    DATABASE_URL: z.string().url().optional(),
    EMBEDDED_PG_DIR: z.string().default('./data/postgres'),
    EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
    /** Where uploaded pictures are kept (a volume in Docker). */
    UPLOAD_DIR: z.string().default('./data/uploads'),
    /** HMAC key of the short-lived signed URLs of face photos (decision 015); at least 32 characters. */
    CARD_KEY_SECRET: z.string().min(32, { message: 'CARD_KEY_SECRET must be at least 32 characters' }).default(DEV_CARD_KEY_SECRET),
    FACE_PHOTO_SECRET: z.string().min(32, { message: 'FACE_PHOTO_SECRET must be at least 32 characters' }).default(DEV_FACE_PHOTO_SECRET),
    REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
    /** Prefix of every Redis key and BullMQ queue, so several installs can share one Redis. */
    REDIS_PREFIX: z.string().min(1).default('sl'),
    COMPAT_DES_KEY: eightBytes('COMPAT_DES_KEY').default(DEV_COMPAT_DES_KEY),
    COMPAT_DES_IV: eightBytes('COMPAT_DES_IV').default(DEV_COMPAT_DES_IV),
    SESSION_IDLE_MINUTES: z.coerce.number().int().min(5).default(8 * 60),
    SESSION_ABSOLUTE_HOURS: z.coerce.number().int().min(1).default(7 * 24),
    /** Set when the console is served over HTTPS (the session cookie becomes Secure). */
    COOKIE_SECURE: bool.optional(),
    /** Origins allowed to send cookie-authenticated writes, comma separated; default: the request's own host. */
    PUBLIC_ORIGINS: z.string().optional(),
    TRUST_PROXY: bool.default(false),
    BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024),
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
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
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
    LOCK_CALLBACK_SECRET: z.string().min(16).default(DEV_LOCK_CALLBACK_SECRET),
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
        message: 'production refuses SMS_PROVIDER=dev (it writes recovery codes to the log): set SMS_PROVIDER=http with SMS_HTTP_URL, or SMS_PROVIDER=none to turn SMS password recovery off',
      });
    }
    if (env.NODE_ENV === 'production' && env.LOCK_PROVIDER === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['LOCK_PROVIDER'],
        message: 'production needs an explicit LOCK_PROVIDER: ttlock (with TTLOCK_CLIENT_ID, TTLOCK_CLIENT_SECRET and TTLOCK_REGION), sim (simulated locks, for a demo) or none',
      });
    }
    if (env.LOCK_PROVIDER === 'ttlock') {
      for (const name of ['TTLOCK_CLIENT_ID', 'TTLOCK_CLIENT_SECRET'] as const) {
        if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: `LOCK_PROVIDER=ttlock needs ${name}` });
      }
    }
    if (env.NODE_ENV === 'production' && env.LOCK_PROVIDER !== 'none' && env.LOCK_CALLBACK_SECRET === DEV_LOCK_CALLBACK_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['LOCK_CALLBACK_SECRET'], message: 'production refuses the development LOCK_CALLBACK_SECRET: set a random value of at least 16 characters' });
    }
    if (env.NODE_ENV === 'production' && env.FACE_PHOTO_SECRET === DEV_FACE_PHOTO_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['FACE_PHOTO_SECRET'], message: 'production refuses the development FACE_PHOTO_SECRET (anyone could sign face photo URLs with it): set a random value of at least 32 characters' });
    }
    if (env.NODE_ENV === 'production' && env.CARD_KEY_SECRET === DEV_CARD_KEY_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['CARD_KEY_SECRET'], message: "production refuses the development CARD_KEY_SECRET (it guards every hotel's card keys): set a random value of at least 32 characters, and keep it: card keys kept under another cannot be read" });
    }
    if (env.SMS_PROVIDER === 'http' && !env.SMS_HTTP_URL) {
      ctx.addIssue({ code: 'custom', path: ['SMS_HTTP_URL'], message: 'SMS_PROVIDER=http needs SMS_HTTP_URL' });
    }
  });

export type TConfig = ReturnType<typeof loadConfig>;

export class ConfigError extends Error {}

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
    databaseUrl: e.DATABASE_URL,
    embeddedPg: { dir: e.EMBEDDED_PG_DIR, port: e.EMBEDDED_PG_PORT },
    uploadDir: e.UPLOAD_DIR,
    facePhotoSecret: e.FACE_PHOTO_SECRET,
    cardKeySecret: e.CARD_KEY_SECRET,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    compat: { desKey: e.COMPAT_DES_KEY, desIv: e.COMPAT_DES_IV },
    session: { idleMs: e.SESSION_IDLE_MINUTES * 60_000, absoluteMs: e.SESSION_ABSOLUTE_HOURS * 3_600_000 },
    cookieSecure: e.COOKIE_SECURE ?? e.NODE_ENV === 'production',
    publicOrigins: e.PUBLIC_ORIGINS ? e.PUBLIC_ORIGINS.split(',').map((o) => o.trim().replace(/\/$/, '')).filter(Boolean) : [],
    trustProxy: e.TRUST_PROXY,
    bodyLimit: e.BODY_LIMIT_BYTES,
    seedDemo: e.SEED_DEMO,
    workersInProcess: e.WORKERS_IN_PROCESS,
    scheduleSweeps: e.SCHEDULE_SWEEPS,
    sms: { provider: e.SMS_PROVIDER, httpUrl: e.SMS_HTTP_URL, httpToken: e.SMS_HTTP_TOKEN },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
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
      /** Where the simulator started by this server listens (set by startServer), for the console's drivers. */
      simUrls: null as { type1: string; type2: string; type3: string; control: string } | null,
    },
    db: {
      poolSize: e.DB_POOL_SIZE,
      transactions: { maxWaitMs: e.DB_TX_MAX_WAIT_MS, timeoutMs: e.DB_TX_TIMEOUT_MS, attempts: e.DB_TX_ATTEMPTS },
    },
  };
}
