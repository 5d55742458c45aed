import { z } from 'zod';
import { databaseEnv, databasePoolSettings, databaseRefusals, databaseUrlOf } from './config/database';
import { fileStoreEnv, fileStoreRefusals, fileStoreSettings } from './config/file-store';
import { httpEnv, publicOriginsOf, sessionSettings } from './config/http';
import { jobsEnv } from './config/jobs';
import { keyRefusals, keysEnv } from './config/keys';
import { lockRefusals, lockSettings, locksEnv } from './config/locks';
import { mailSettings, messageRefusals, messagesEnv } from './config/messages';
import { outboundEnv, privateAddressesOf, webhookSettings } from './config/outbound';
import { readerSettings, readersEnv } from './config/readers';

/**
 * Every environment variable the server reads, with its default: the process's own here, each
 * area's in its file of config/ (with what production refuses, and how the area reads them). This
 * module is the only reader of `process.env`; README.md lists the same variables.
 */
const ZEnv = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** `auto`: seed the demo hotel when the database has no hotel yet (not in production). */
    SEED_DEMO: z.enum(['auto', 'true', 'false']).default('auto'),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
    ...httpEnv.shape,
    ...databaseEnv.shape,
    ...fileStoreEnv.shape,
    ...keysEnv.shape,
    ...jobsEnv.shape,
    ...messagesEnv.shape,
    ...outboundEnv.shape,
    ...locksEnv.shape,
    ...readersEnv.shape,
  })
  .superRefine((env, ctx) => {
    const production = env.NODE_ENV === 'production';
    const refusals = [
      ...keyRefusals(env, production),
      ...messageRefusals(env, production),
      ...lockRefusals(env, production),
      ...databaseRefusals(env, production),
      ...fileStoreRefusals(env),
    ];
    for (const { path, message } of refusals) ctx.addIssue({ code: 'custom', path: [path], message });
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
  const isProduction = e.NODE_ENV === 'production';
  return {
    env: e.NODE_ENV,
    isProduction,
    host: e.HOST,
    port: e.PORT,
    logLevel: e.LOG_LEVEL,
    /** DATABASE_URL, or the URL made of PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE; unset: the embedded PostgreSQL. */
    databaseUrl: databaseUrlOf(e),
    embeddedPg: { dir: e.EMBEDDED_PG_DIR, port: e.EMBEDDED_PG_PORT },
    uploadDir: e.UPLOAD_DIR,
    files: fileStoreSettings(e),
    facePhotoSecret: e.FACE_PHOTO_SECRET,
    cardKeySecret: e.CARD_KEY_SECRET,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    compat: { desKey: e.COMPAT_DES_KEY, desIv: e.COMPAT_DES_IV },
    session: sessionSettings(e),
    cookieSecure: e.COOKIE_SECURE ?? isProduction,
    publicOrigins: publicOriginsOf(e),
    trustProxy: e.TRUST_PROXY,
    bodyLimit: e.BODY_LIMIT_BYTES,
    seedDemo: e.SEED_DEMO,
    workersInProcess: e.WORKERS_IN_PROCESS,
    scheduleSweeps: e.SCHEDULE_SWEEPS,
    sms: { provider: e.SMS_PROVIDER, httpUrl: e.SMS_HTTP_URL, httpToken: e.SMS_HTTP_TOKEN },
    mail: mailSettings(e),
    /** OUTBOUND_PRIVATE_ADDRESSES for the feeds, the only requests to typed addresses so far. */
    feeds: { privateAddresses: privateAddressesOf(e) },
    webhooks: webhookSettings(e),
    /** The JSON API (`/api/v1`, docs/api.md). */
    api: { ratePerMinute: e.API_RATE_LIMIT_PER_MINUTE },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    jobLockMs: e.JOB_LOCK_MS,
    exportChunkRows: e.EXPORT_CHUNK_ROWS,
    locks: lockSettings(e, isProduction),
    readers: readerSettings(e, isProduction),
    db: databasePoolSettings(e),
  };
}
