import { z } from 'zod';
import { bool } from './variables';

/** The HTTP server: where it listens, the sessions and their cookie, the origins and proxies it trusts, and its limits. */
export const httpEnv = z.object({
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
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
  /** Requests one API key may make to the JSON API (`/api/v1`) in a minute; past it, 429 with RateLimit-* headers. */
  API_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
});
type HttpEnv = z.output<typeof httpEnv>;

/** How long a session lasts unused, and at most. */
export function sessionSettings(env: HttpEnv) {
  return { idleMs: env.SESSION_IDLE_MINUTES * 60_000, absoluteMs: env.SESSION_ABSOLUTE_HOURS * 3_600_000 };
}

/** PUBLIC_ORIGINS, each without its trailing slash. */
export function publicOriginsOf(env: HttpEnv): string[] {
  return env.PUBLIC_ORIGINS
    ? env.PUBLIC_ORIGINS.split(',')
        .map((o) => o.trim().replace(/\/$/, ''))
        .filter(Boolean)
    : [];
}
