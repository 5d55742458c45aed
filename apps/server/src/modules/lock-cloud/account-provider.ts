import type { TLockErrorCode } from '@console/shared';
import type { Deps } from '../../context';
import { platformOf } from '../../infra/locks';
import { LockProviderError, type LockProvider } from '../../infra/locks/provider';
import { seal, unseal, type SealPurpose } from '../../infra/seal';
import type { LockTokens, TokenStore } from '../../infra/locks/ttlock';
import { nextQuotaMonth, noteLockCall } from './call-budget';
import { ACCOUNT_ROW_SELECT, type AccountRow } from '../base/lock-ref';
import { seamKeyReader } from './seam-key';

/**
 * A hotel's lock account as the lock work uses it: its adapter (infra/locks), its tokens sealed
 * in the database (AES-256-GCM under CARD_KEY_SECRET, bound to the hotel and the account), its
 * calls counted, and its state kept true: a refresh token refused makes it `needs_password`, the
 * other region `wrong_region`, the developer application refused `suspended`, the cloud's call
 * limit pauses its calls (`limitedUntil`). Work for an account that cannot work waits (the
 * delivery engine keeps it pending, with the reason) instead of failing.
 */

const TOKENS: SealPurpose = { salt: 'smart-lock-console/lock-accounts', info: 'lock account tokens v1' };
const boundTo = (a: { id: number; hotelId: number }) => `lock-account:${a.hotelId}:${a.id}`;

export function sealTokens(secret: string, account: { id: number; hotelId: number }, tokens: LockTokens): string {
  return seal(secret, TOKENS, boundTo(account), JSON.stringify(tokens));
}

export function openTokens(secret: string, account: { id: number; hotelId: number }, sealed: string | null): LockTokens | null {
  if (!sealed) return null;
  const json = unseal(secret, TOKENS, boundTo(account), sealed);
  if (json === null) return null;
  try {
    const t = JSON.parse(json) as Partial<LockTokens>;
    if (typeof t.accessToken !== 'string' || typeof t.refreshToken !== 'string' || typeof t.expiresAt !== 'number' || typeof t.lifetimeMs !== 'number')
      return null;
    return { accessToken: t.accessToken, refreshToken: t.refreshToken, expiresAt: t.expiresAt, lifetimeMs: t.lifetimeMs };
  } catch {
    return null;
  }
}

/** The state an account takes when the cloud refuses its tokens for good. */
export function refusedState(code: TLockErrorCode): 'needs_password' | 'wrong_region' | 'suspended' {
  return code === 'wrong_region' ? 'wrong_region' : code === 'app_refused' ? 'suspended' : 'needs_password';
}

/** pg_advisory_lock's first key for lock accounts (the second is the account id). */
const ADVISORY_CLASS = 16_016;

function tokenStore(deps: Deps, account: { id: number; hotelId: number }): TokenStore {
  const secret = deps.config.cardKeySecret;
  const read = async () => {
    const row = await deps.prisma.lockAccount.findUnique({ where: { id: account.id }, select: { state: true, tokensSealed: true } });
    return row && row.state === 'connected' ? openTokens(secret, account, row.tokensSealed) : null;
  };
  return {
    read,
    async renew(renew, due) {
      // One renewal at a time across processes (TTLock spends a refresh token once): a session
      // advisory lock on a connection of its own, held over the call to the cloud.
      const client = await deps.pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1, $2)', [ADVISORY_CLASS, account.id]);
        const current = await read();
        if (!current) throw new LockProviderError('account_disconnected', undefined, 'the lock account has no tokens');
        if (!due(current)) return current;
        const next = await renew(current);
        await client.query(
          'UPDATE "LockAccount" SET "tokensSealed" = $1, "tokenExpiresAt" = $2, "updatedAt" = now() WHERE "id" = $3 AND "state" = \'connected\'',
          [sealTokens(secret, account, next), new Date(next.expiresAt), account.id],
        );
        return next;
      } finally {
        await client.query('SELECT pg_advisory_unlock($1, $2)', [ADVISORY_CLASS, account.id]).catch(() => {});
        client.release();
      }
    },
    async refused(code) {
      const state = refusedState(code);
      const { count } = await deps.prisma.lockAccount.updateMany({
        where: { id: account.id, state: 'connected' },
        data: { state, lastError: code, tokensSealed: null, tokenExpiresAt: null },
      });
      deps.locks?.forget(account.id);
      if (count) deps.log.warn({ accountId: account.id, hotelId: account.hotelId, code }, `a lock account was refused by the lock cloud: ${state}`);
    },
  };
}

/**
 * Told of every call of the account that the cloud answered (its /v3 calls, the token renewals and
 * the password grants of connecting and reconnecting): counted in its call budget, and what it
 * tells about its limits, TTLock 30006 (calls a minute) and 30007 (a month).
 */
export function onAccountCall(deps: Deps, account: { id: number }) {
  return (op: string, errcode: number) => {
    noteLockCall(deps, account.id);
    if (errcode !== 30006 && errcode !== 30007) return;
    const until = errcode === 30007 ? nextQuotaMonth(Date.now()) : new Date(Date.now() + 60_000);
    void deps.prisma.lockAccount
      .updateMany({ where: { id: account.id }, data: { limitedUntil: until, lastError: errcode === 30007 ? 'monthly_limit' : 'rate_limited' } })
      .catch((error: unknown) => deps.log.warn({ err: error, accountId: account.id }, 'could not note a lock account call limit'));
    deps.log.warn({ accountId: account.id, op, until }, 'the lock cloud answered that a call limit is reached: the account waits');
  };
}

/**
 * The adapter of an account that can work now. One that cannot throws LockProviderError: no lock
 * cloud configured (`provider_error`), disconnected or refused (kind `account`), or paused by the
 * cloud's call limit (kind `limit`, with `retryAt`).
 */
export function usableProvider(deps: Deps, account: AccountRow, now = new Date()): LockProvider {
  if (!deps.locks) throw new LockProviderError('provider_error', undefined, 'no lock cloud is configured (LOCK_PROVIDER)');
  if (account.state !== 'connected') {
    const code: TLockErrorCode =
      account.state === 'wrong_region'
        ? 'wrong_region'
        : account.state === 'suspended'
          ? 'app_refused'
          : account.state === 'needs_password'
            ? 'auth_failed'
            : 'account_disconnected';
    throw new LockProviderError(code, undefined, `the lock account is ${account.state}`);
  }
  if (account.limitedUntil && account.limitedUntil > now) {
    throw new LockProviderError(account.lastError === 'monthly_limit' ? 'monthly_limit' : 'rate_limited', undefined, 'the lock cloud call limit is reached', {
      retryAt: account.limitedUntil,
    });
  }
  return deps.locks.account(account, () => {
    const tokens = tokenStore(deps, account);
    const counted = onAccountCall(deps, account);
    // A Seam account tells HTTP statuses (0: no answer, not counted): a 401 is its key refused for
    // good (revoked in Seam), as a TTLock refresh token refused.
    const onCall =
      platformOf(account.kind) === 'seam'
        ? (_op: string, status: number) => {
            if (status !== 0) noteLockCall(deps, account.id);
            if (status === 401)
              void tokens
                .refused('auth_failed')
                .catch((error: unknown) => deps.log.warn({ err: error, accountId: account.id }, 'could not mark a Seam account refused'));
          }
        : counted;
    return { tokens, seamKey: seamKeyReader(deps, account), onCall };
  });
}

/** The adapter of the account a lock was imported from (a lock kept from before accounts has none yet). */
export async function providerForLock(deps: Deps, lock: { hotelId: number; accountId: number | null; account?: AccountRow | null }): Promise<LockProvider> {
  if (lock.accountId === null) throw new LockProviderError('account_disconnected', undefined, 'the lock was not imported from a lock account');
  // The account as loaded with the lock (the delivery engine's one statement), else read now.
  const account =
    lock.account !== undefined
      ? lock.account
      : await deps.prisma.lockAccount.findFirst({ where: { id: lock.accountId, hotelId: lock.hotelId }, select: ACCOUNT_ROW_SELECT });
  if (!account) throw new LockProviderError('account_disconnected', undefined, 'the lock account is gone');
  return usableProvider(deps, account);
}
