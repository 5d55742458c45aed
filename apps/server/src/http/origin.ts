import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors';

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
  try {
    // req.host follows X-Forwarded-Host only when TRUST_PROXY is set.
    if (new URL(normalized).host === req.host) return;
  } catch {
    /* not a URL: refused below */
  }
  throw new AppError('ORIGIN_REJECTED');
}
