import type { FastifyInstance } from 'fastify';
import type { Deps } from '../context';

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms).unref())]);
}

/** `/healthz`: the process is up. `/readyz`: PostgreSQL, Redis and the file store answer (503 otherwise). */
export function registerHealth(app: FastifyInstance, deps: Deps) {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    const check = async (fn: () => Promise<unknown>) => {
      try {
        await withTimeout(fn(), 2_000);
        return 'ok';
      } catch (error) {
        return error instanceof Error ? error.message : 'failed';
      }
    };
    const [database, redis, files] = await Promise.all([
      check(() => deps.prisma.$queryRaw`SELECT 1`),
      check(() => deps.redis.ping()),
      check(() => deps.files.check()),
    ]);
    const ok = database === 'ok' && redis === 'ok' && files === 'ok';
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable', database, redis, files });
  });
}
