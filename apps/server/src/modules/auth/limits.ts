import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { LIMITS, LOGIN_LIMITS } from '@console/shared';
import type { Deps } from '../../context';
import { AppError } from '../../errors';

/**
 * Attempt counters in Redis for sign-in and password recovery. They are read before any
 * password is hashed, so a flood of guesses costs the server almost nothing.
 */
export interface AuthLimiters {
  loginByAccount: RateLimiterRedis;
  loginByAddress: RateLimiterRedis;
  smsPerMinute: RateLimiterRedis;
  smsPerHour: RateLimiterRedis;
  smsPerAddress: RateLimiterRedis;
}

const cache = new WeakMap<object, AuthLimiters>();

export function authLimiters(deps: Pick<Deps, 'redis' | 'key'>): AuthLimiters {
  const cached = cache.get(deps.redis);
  if (cached) return cached;
  const make = (name: string, points: number, duration: number) =>
    new RateLimiterRedis({ storeClient: deps.redis, keyPrefix: deps.key('rl', name), points, duration });
  // Failure counters: large capacity, the thresholds are compared by the caller.
  const limiters: AuthLimiters = {
    loginByAccount: make('login-account', 10_000, LOGIN_LIMITS.windowSeconds),
    loginByAddress: make('login-address', 10_000, LOGIN_LIMITS.windowSeconds),
    smsPerMinute: make('sms-minute', LIMITS.smsPerNumberPerMinute, 60),
    smsPerHour: make('sms-hour', LIMITS.smsPerNumberPerHour, 3600),
    smsPerAddress: make('sms-address', LIMITS.smsPerAddressPerHour, 3600),
  };
  cache.set(deps.redis, limiters);
  return limiters;
}

export interface LoginFailureCounts {
  account: number;
  address: number;
  retryAfterSeconds: number;
}

export async function loginFailureCounts(limiters: AuthLimiters, account: string, address: string): Promise<LoginFailureCounts> {
  const [a, b] = await Promise.all([limiters.loginByAccount.get(account), limiters.loginByAddress.get(address)]);
  const retry = Math.max(a?.msBeforeNext ?? 0, b?.msBeforeNext ?? 0);
  return { account: a?.consumedPoints ?? 0, address: b?.consumedPoints ?? 0, retryAfterSeconds: Math.max(1, Math.ceil(retry / 1000)) };
}

export function loginThresholds(withCode: boolean) {
  return withCode
    ? { account: LOGIN_LIMITS.perAccount, address: LOGIN_LIMITS.perAddress }
    : { account: LOGIN_LIMITS.perAccountWithoutCode, address: LOGIN_LIMITS.perAddressWithoutCode };
}

/** Counts one failed sign-in; returns the counts after it. */
export async function recordLoginFailure(limiters: AuthLimiters, account: string, address: string): Promise<{ account: number; address: number }> {
  const [a, b] = await Promise.all([limiters.loginByAccount.penalty(account, 1), limiters.loginByAddress.penalty(address, 1)]);
  return { account: a.consumedPoints, address: b.consumedPoints };
}

export async function clearLoginFailures(limiters: AuthLimiters, account: string): Promise<void> {
  await limiters.loginByAccount.delete(account);
}

/** Consumes one point of each limiter, or throws TOO_MANY_ATTEMPTS with the time to wait. */
export async function consumeOrThrow(entries: [RateLimiterRedis, string][]): Promise<void> {
  for (const [limiter, key] of entries) {
    try {
      await limiter.consume(key, 1);
    } catch (error) {
      if (error instanceof RateLimiterRes) {
        throw new AppError('TOO_MANY_ATTEMPTS', { retryAfterSeconds: Math.max(1, Math.ceil(error.msBeforeNext / 1000)) });
      }
      throw error;
    }
  }
}
