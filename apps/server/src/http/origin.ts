import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors';

/** The serialised origin of a URL (default ports dropped, lower case), or undefined when it is none. */
function sameOrigin(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.origin === 'null' ? undefined : parsed.origin;
  } catch {
    return undefined;
  }
}

/**
 * Accepts a write when its Origin is the console's own (the request's host, or one of
 * PUBLIC_ORIGINS). Browsers always send Origin on cross-site POSTs, so a write that carries the
 * session cookie but no Origin is refused too; clients without cookies (tests, scripts) pass.
 */
export function checkOrigin(req: FastifyRequest, allowed: string[], hasSessionCookie: boolean): void {
  const origin = req.headers.origin;
  if (!origin) {
    if (hasSessionCookie) throw new AppError('ORIGIN_REJECTED');
    return;
  }
  const normalized = origin.replace(/\/$/, '');
  if (allowed.includes(normalized)) return;
  // The whole origin (scheme, host and port), not the host alone: https://<host> is not this http
  // deployment. req.protocol and req.host follow X-Forwarded-Proto / -Host only when TRUST_PROXY is set.
  const given = sameOrigin(normalized);
  if (given !== undefined && given === sameOrigin(`${req.protocol}://${req.host}`)) return;
  throw new AppError('ORIGIN_REJECTED');
}
