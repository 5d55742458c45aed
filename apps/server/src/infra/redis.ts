import { Redis, type RedisOptions } from 'ioredis';

export class RedisUnavailableError extends Error {}

/**
 * A Redis for a console started on this machine (`pnpm start`), in a container: published on this
 * machine's loopback only, with the settings of the compose file's Redis (an append-only file, no
 * eviction). Not `docker compose up -d redis`: the compose file needs its secrets (.env) before any
 * of its services starts, and its Redis is private to the compose install.
 */
export const REDIS_CONTAINER_COMMAND =
  'docker run -d --name smartlock-redis --restart unless-stopped -p 127.0.0.1:6379:6379 -v smartlock-redis:/data redis:7-alpine redis-server --appendonly yes --maxmemory-policy noeviction';

export function redisUnavailableMessage(url: string, reason: string): string {
  const safeUrl = url.replace(/\/\/[^@/]*@/, '//***@');
  return (
    `Cannot reach Redis at ${safeUrl} (${reason}). The console keeps its sign-in codes, rate limits and job ` +
    `queues (SMS, stay expiry, deliveries to locks) in Redis and will not run with them disabled. Start a Redis 7 ` +
    `from your system's packages (\`sudo apt install redis-server\` on Debian/Ubuntu, ` +
    `\`brew install redis && brew services start redis\` on macOS), or in a container ` +
    `(\`${REDIS_CONTAINER_COMMAND}\`), or point REDIS_URL at one ` +
    `that is running (with maxmemory-policy noeviction), then start the console again.`
  );
}

/** Answers whether Redis is there, within `timeoutMs`, without retrying. */
export async function probeRedis(url: string, timeoutMs = 2_000): Promise<void> {
  const probe = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  let lastError: Error | undefined;
  probe.on('error', (error: Error) => {
    lastError = error;
  });
  try {
    await probe.connect();
    await probe.ping();
  } catch (error) {
    const reason = lastError?.message ?? (error instanceof Error ? error.message : String(error));
    throw new RedisUnavailableError(redisUnavailableMessage(url, reason || 'no answer'));
  } finally {
    probe.disconnect();
  }
}

/** A client for commands (maxRetriesPerRequest null is what BullMQ requires of its connections). */
export function createRedis(url: string, extra: RedisOptions = {}): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, ...extra });
}

export type { Redis };
