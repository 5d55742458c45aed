import type { Deps } from '../../context';

/**
 * The hourly e-mail limit of each hotel (SMTP_HOTEL_HOURLY_LIMIT, issue 27 §8): a sliding hour kept
 * in Redis as a sorted set per hotel (member: the message, score: when it was let through), shared
 * by every worker of every server. Taking a place and counting happen in one script, so two sends
 * at once never both take the last place; a message already counted (a retry of the same e-mail)
 * takes none again.
 */
export const MAIL_LIMIT_WINDOW_MS = 3_600_000;

/** The hotel's sorted set of the e-mails let through in the last hour. */
const limitKey = (deps: Pick<Deps, 'key'>, hotelId: number) => deps.key('mail-limit', String(hotelId));

/** 0 when the message may be sent now (its place taken), else how many ms until a place frees. */
const TAKE_PLACE = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
if redis.call('ZSCORE', key, ARGV[4]) then return 0 end
if redis.call('ZCARD', key) < limit then
  redis.call('ZADD', key, now, ARGV[4])
  redis.call('PEXPIRE', key, window)
  return 0
end
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
return math.max(1, tonumber(oldest[2]) + window - now)
`;

/**
 * Takes a place in the hotel's hour for this message: null when it may be sent now, else the
 * instant a place frees (the message waits until then and asks again).
 */
export async function takeMailPlace(deps: Pick<Deps, 'redis' | 'key' | 'config'>, hotelId: number, messageId: number, now = Date.now()): Promise<Date | null> {
  const limit = deps.config.mail.hotelHourlyLimit;
  if (limit <= 0) return null;
  const wait = Number(
    await deps.redis.eval(TAKE_PLACE, 1, limitKey(deps, hotelId), String(now), String(MAIL_LIMIT_WINDOW_MS), String(limit), String(messageId)),
  );
  return wait > 0 ? new Date(now + wait) : null;
}

/** How many e-mails the hotel was let send in the last hour. */
export async function mailsInLastHour(deps: Pick<Deps, 'redis' | 'key'>, hotelId: number, now = Date.now()): Promise<number> {
  return deps.redis.zcount(limitKey(deps, hotelId), now - MAIL_LIMIT_WINDOW_MS + 1, '+inf');
}
