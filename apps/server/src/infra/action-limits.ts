import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Deps } from '../context';
import { AppError } from '../errors';

/** How often a user's action may be done: `points` times in `windowSeconds`, for each key. */
export interface ActionLimit {
  points: number;
  windowSeconds: number;
}

/** One count of an action: the limiter's name, its limit, and what it is counted by (a stay, an endpoint, a hotel). */
export interface ActionCount {
  name: string;
  limit: ActionLimit;
  key: string | number;
}

const limiters = new WeakMap<object, Map<string, RateLimiterRedis>>();

function limiterOf(deps: Pick<Deps, 'redis' | 'key'>, name: string, limit: ActionLimit): RateLimiterRedis {
  let byName = limiters.get(deps.redis);
  if (!byName) limiters.set(deps.redis, (byName = new Map()));
  const id = `${name}:${limit.points}:${limit.windowSeconds}`;
  let limiter = byName.get(id);
  if (!limiter) {
    limiter = new RateLimiterRedis({ storeClient: deps.redis, keyPrefix: deps.key('rl', name), points: limit.points, duration: limit.windowSeconds });
    byName.set(id, limiter);
  }
  return limiter;
}

/**
 * The one way a user's action that sends something out is limited (a guest message's "send again",
 * a webhook's test event): a count per key in Redis, shared by every server. Each count takes a
 * place in turn; past one of the limits the action is refused with TOO_MANY_ATTEMPTS, the message
 * `messageKey` (its `{{seconds}}` says when it may be tried again) and `Retry-After`.
 */
export async function consumeActionLimits(deps: Pick<Deps, 'redis' | 'key'>, counts: ActionCount[], messageKey: string): Promise<void> {
  for (const count of counts) {
    try {
      await limiterOf(deps, count.name, count.limit).consume(String(count.key), 1);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      throw new AppError('TOO_MANY_ATTEMPTS', { messageKey, retryAfterSeconds: Math.max(1, Math.ceil(error.msBeforeNext / 1000)) });
    }
  }
}
