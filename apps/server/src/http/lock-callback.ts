import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../context';
import { AppError } from '../errors';
import { parseTtlockNotification } from '../infra/locks/ttlock';
import { handleLockNotification } from '../modules/locks/notifications';
import { sendHttpError } from './http-error';

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * `POST /api/locks/callback/<secret>`: the lock cloud's callback URL (TTLock's "callback URL" of
 * the application, form-encoded, `notifyType` 1 records, 2 gateway online/offline, 3 WiFi lock
 * online/offline, 4 a WiFi lock's request failed, 7 a door sensor, and whatever TTLock adds). A
 * wrong secret is answered 404, as an address that does not exist. Every notification is answered
 * `success`, as TTLock waits for (anything else makes it push again): those the console
 * understands are used (modules/locks/notifications.ts), the rest ignored; records a lock cannot
 * have written are left out, the good ones of the same notification kept.
 */
export function registerLockCallback(app: FastifyInstance, deps: Deps) {
  app.post<{ Params: { secret: string } }>('/api/locks/callback/:secret', async (req, reply) => {
    if (!sameSecret(req.params.secret, deps.config.locks.callbackSecret)) return sendHttpError(deps, req, reply, new AppError('UNKNOWN_ACTION'));
    const body = req.body;
    const notification = parseTtlockNotification(body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {});
    const result = await handleLockNotification(deps, notification);
    req.log.info({ notifyType: notification.type, ...result }, 'lock cloud notification');
    return reply.type('text/plain').send('success');
  });
}
