import { z } from 'zod';
import type { Refusal } from './variables';

/** Development secret of the lock-record callback URL; production refuses it. */
export const DEV_LOCK_CALLBACK_SECRET = 'dev-lock-callback-secret';
/** TTLock's API hosts by region (its error 30008 sends an account of the other region there). */
export const TTLOCK_HOSTS = { eu: 'https://euapi.ttlock.com', cn: 'https://cnapi.ttlock.com' } as const;

/** The lock cloud: which one, its application or simulator, its callback, and how often locks are read. */
export const locksEnv = z.object({
  /**
   * Which lock cloud the server speaks to: `ttlock` (TTLock's Open API v3, TTLOCK_*), `sim`
   * (apps/lock-sim, TTLock's API simulated: LOCK_SIM_URL, or run inside the server when unset),
   * `seam` (Seam workspaces only: the hotels connect their own, no TTLock application, SEAM_ENDPOINT),
   * `none` (no locks: credentials stay pending). Production has no default. Seam workspaces can be
   * connected with `ttlock` and `sim` too.
   */
  LOCK_PROVIDER: z.enum(['ttlock', 'sim', 'seam', 'none']).optional(),
  /**
   * Seam's API for the hotels' Seam workspaces (docs/seam.md): Seam's own unless set, e.g. to Seam's
   * fake (`@seamapi/fake-seam-connect`) for a demo or the browser tests; its locks are then simulated.
   */
  SEAM_ENDPOINT: z.string().url().optional(),
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
});
type LocksEnv = z.output<typeof locksEnv>;

/** Production names its lock cloud and keeps no development callback secret; TTLock needs the application's id and secret. */
export function lockRefusals(env: LocksEnv, production: boolean): Refusal[] {
  const refusals: Refusal[] = [];
  if (production && env.LOCK_PROVIDER === undefined) {
    refusals.push({
      path: 'LOCK_PROVIDER',
      message:
        'production needs an explicit LOCK_PROVIDER: ttlock (with TTLOCK_CLIENT_ID, TTLOCK_CLIENT_SECRET and TTLOCK_REGION), seam (Seam workspaces only), sim (simulated locks, for a demo) or none',
    });
  }
  if (env.LOCK_PROVIDER === 'ttlock') {
    for (const name of ['TTLOCK_CLIENT_ID', 'TTLOCK_CLIENT_SECRET'] as const) {
      if (!env[name]) refusals.push({ path: name, message: `LOCK_PROVIDER=ttlock needs ${name}` });
    }
  }
  if (production && env.LOCK_PROVIDER !== 'none' && env.LOCK_CALLBACK_SECRET === DEV_LOCK_CALLBACK_SECRET) {
    refusals.push({
      path: 'LOCK_CALLBACK_SECRET',
      message: 'production refuses the development LOCK_CALLBACK_SECRET: set a random value of at least 16 characters',
    });
  }
  return refusals;
}

/** The lock cloud as the server reads it (`sim` by default outside production, `none` in it). */
export function lockSettings(env: LocksEnv, production: boolean) {
  return {
    provider: env.LOCK_PROVIDER ?? (production ? 'none' : 'sim'),
    ttlock: {
      region: env.TTLOCK_REGION,
      baseUrl: env.TTLOCK_BASE_URL ?? TTLOCK_HOSTS[env.TTLOCK_REGION],
      clientId: env.TTLOCK_CLIENT_ID ?? '',
      clientSecret: env.TTLOCK_CLIENT_SECRET ?? '',
    },
    /** Set but no longer read (TTLOCK_USERNAME / TTLOCK_PASSWORD): the start says so. */
    legacyTtlockAccount: Boolean(env.TTLOCK_USERNAME || env.TTLOCK_PASSWORD),
    sim: { url: env.LOCK_SIM_URL, stateFile: env.LOCK_SIM_STATE_FILE, port: env.LOCK_SIM_PORT },
    /** Seam's API (undefined: Seam's own). */
    seam: { endpoint: env.SEAM_ENDPOINT },
    callbackSecret: env.LOCK_CALLBACK_SECRET,
    publicUrl: env.PUBLIC_URL,
    delivery: { attempts: env.LOCK_DELIVERY_ATTEMPTS, backoffMs: env.LOCK_DELIVERY_BACKOFF_MS },
    everyMinutes: { status: env.LOCK_STATUS_EVERY_MINUTES, records: env.LOCK_RECORDS_POLL_MINUTES, reconcile: env.LOCK_RECONCILE_EVERY_MINUTES },
  };
}
