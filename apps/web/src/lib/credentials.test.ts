import { describe, expect, it } from 'vitest';
import { DELIVERY_STATES, LOCK_ERROR_CODES, LOCK_ERROR_KIND } from '@console/shared';
import { isWaitingForAccount } from './credentials';

describe('a credential waiting for its lock account', () => {
  it('waits, while it is still being sent or removed, after a refusal of its account or of the call limit', () => {
    for (const state of ['pending', 'removing'] as const) {
      expect(isWaitingForAccount(state, 'auth_failed'), state).toBe(true);
      expect(isWaitingForAccount(state, 'account_disconnected'), state).toBe(true);
      expect(isWaitingForAccount(state, 'monthly_limit'), state).toBe(true);
      expect(isWaitingForAccount(state, 'rate_limited'), state).toBe(true);
    }
  });

  it('is retried, not waiting, after any other refusal, and not waiting without one', () => {
    const others = LOCK_ERROR_CODES.filter((code) => LOCK_ERROR_KIND[code] === 'retry' || LOCK_ERROR_KIND[code] === 'permanent');
    for (const code of others) expect(isWaitingForAccount('pending', code), code).toBe(false);
    expect(isWaitingForAccount('pending', null)).toBe(false);
    expect(isWaitingForAccount('pending', 'no_lock')).toBe(false);
  });

  it('is no longer waiting once its work ended, failed or not', () => {
    for (const state of DELIVERY_STATES.filter((s) => s !== 'pending' && s !== 'removing'))
      expect(isWaitingForAccount(state, 'auth_failed'), state).toBe(false);
  });
});
