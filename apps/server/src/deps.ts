import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { TConfig } from './config';
import type { Deps } from './context';
import { closeDatabase, createDatabase } from './db/client';
import { createDesCodec } from './infra/des';
import { createFileStore, type FileStore } from './infra/file-store';
import { createTranslator } from './infra/i18n';
import { createLockCloud, type LockCloud } from './infra/locks';
import { createRedis, probeRedis } from './infra/redis';
import { createDevSmsSender, createHttpSmsSender, disabledSmsSender, type SmsSender } from './infra/sms';
import { createQueues } from './jobs/queues';
import { wireModules } from './wiring';
import { closeEventRelay } from './modules/events/event-feed';
import { flushLockCalls } from './modules/lock-cloud/call-budget';

export function redisKey(prefix: string) {
  return (...parts: (string | number)[]) => [prefix, ...parts].join(':');
}

/**
 * Connects everything the services need. Redis is probed first: without it the server does not
 * start (RedisUnavailableError carries the message telling how to start one).
 */
export async function createDeps(
  config: TConfig,
  databaseUrl: string,
  log: FastifyBaseLogger,
  overrides: { sms?: SmsSender; poolSize?: number; locks?: LockCloud | null; files?: FileStore; instance?: string } = {},
): Promise<Deps> {
  // What lower modules call of higher ones, registered with them (docs/decisions/042-one-credential-writer.md).
  wireModules();
  await probeRedis(config.redisUrl);
  const files = overrides.files ?? (await createFileStore(config));
  const redis = createRedis(config.redisUrl);
  redis.on('error', (error) => log.error({ err: error }, 'Redis connection error'));
  const key = redisKey(config.redisPrefix);
  const sms =
    overrides.sms ??
    (config.sms.provider === 'http' && config.sms.httpUrl
      ? createHttpSmsSender(config.sms.httpUrl, config.sms.httpToken)
      : config.sms.provider === 'none'
        ? disabledSmsSender
        : createDevSmsSender(redis, key('dev', 'sms-outbox'), log));
  const db = createDatabase(databaseUrl, { max: overrides.poolSize ?? config.db.poolSize });
  return {
    config,
    databaseUrl,
    prisma: db.prisma,
    pool: db.pool,
    redis,
    log,
    i18n: createTranslator(),
    des: createDesCodec(config.compat.desKey, config.compat.desIv),
    queues: createQueues(config.redisUrl, config.redisPrefix),
    sms,
    files,
    instance: overrides.instance ?? `${os.hostname()}:${process.pid}`,
    locks: overrides.locks !== undefined ? overrides.locks : createLockCloud(config),
    key,
  };
}

export async function closeDeps(deps: Deps): Promise<void> {
  // The lock-cloud calls counted in this process and not yet written.
  await flushLockCalls(deps).catch(() => {});
  await closeEventRelay(deps);
  await deps.queues.close();
  await closeDatabase(deps);
  await deps.redis.quit().catch(() => deps.redis.disconnect());
  await deps.files.close();
}
