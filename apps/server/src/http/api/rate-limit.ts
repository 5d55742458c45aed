import type { FastifyReply } from 'fastify';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Deps } from '../../context';
import { AppError } from '../../errors';

const WINDOW_SECONDS = 60;
const cache = new WeakMap<object, RateLimiterRedis>();

function limiter(deps: Deps): RateLimiterRedis {
  const cached = cache.get(deps.redis);
  if (cached) return cached;
  const made = new RateLimiterRedis({
    storeClient: deps.redis,
    keyPrefix: deps.key('rl', 'api-key'),
    points: deps.config.api.ratePerMinute,
    duration: WINDOW_SECONDS,
  });
  cache.set(deps.redis, made);
  return made;
}

function headers(reply: FastifyReply, limit: number, res: RateLimiterRes) {
  reply.header('ratelimit-limit', String(limit));
  reply.header('ratelimit-remaining', String(Math.max(0, res.remainingPoints)));
  reply.header('ratelimit-reset', String(Math.max(1, Math.ceil(res.msBeforeNext / 1000))));
  reply.header('ratelimit-policy', `${limit};w=${WINDOW_SECONDS}`);
}

/**
 * Requests per API key and minute (API_RATE_LIMIT_PER_MINUTE), counted in Redis across every
 * server: each answer says where the key stands (`RateLimit-Limit`, `-Remaining`, `-Reset`,
 * `-Policy`); past the limit, 429 with `Retry-After`.
 */
export async function consumeApiRate(deps: Deps, reply: FastifyReply, apiKeyId: number): Promise<void> {
  const limit = deps.config.api.ratePerMinute;
  try {
    headers(reply, limit, await limiter(deps).consume(String(apiKeyId), 1));
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    headers(reply, limit, error);
    throw new AppError('TOO_MANY_ATTEMPTS', { retryAfterSeconds: Math.max(1, Math.ceil(error.msBeforeNext / 1000)) });
  }
}
