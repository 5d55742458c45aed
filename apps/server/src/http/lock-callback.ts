import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../context';
import { parseTtlockCallback } from '../infra/locks/ttlock';
import { ingestLockRecords } from '../modules/locks/records';

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * `POST /api/locks/callback/<secret>`: the lock cloud's record callback (TTLock's "callback URL",
 * form-encoded, notifyType=1 with a JSON array of records). A wrong secret is answered 404, as an
 * address that does not exist; a body that is not a record notification 400. The answer `success`
 * is what TTLock waits for; anything else makes it push again, which is harmless (ids dedupe).
 */
export function registerLockCallback(app: FastifyInstance, deps: Deps) {
  app.post<{ Params: { secret: string } }>('/api/locks/callback/:secret', async (req, reply) => {
    if (!sameSecret(req.params.secret, deps.config.locks.callbackSecret)) return reply.code(404).send({ error: 'Not Found' });
    const body = req.body;
    const records = body && typeof body === 'object' ? parseTtlockCallback(body as Record<string, unknown>) : null;
    if (records === null) return reply.code(400).type('text/plain').send('not a lock record notification');
    const result = await ingestLockRecords(deps, records);
    req.log.info({ ...result }, 'lock records received');
    return reply.type('text/plain').send('success');
  });
}
