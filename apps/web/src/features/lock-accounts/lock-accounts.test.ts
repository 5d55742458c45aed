import { describe, expect, it } from 'vitest';
import { LOCK_ACCOUNT_STATES, LOCK_CALL_BUDGET } from '@console/shared';
import { accountActions, accountTitle, budgetUse, importSummaryParts, lockName, stateReason, stateTexts, stateVariant } from './lock-accounts';

describe('the actions of a lock account', () => {
  it('gets locks only while connected, and offers its password again otherwise', () => {
    expect(accountActions('connected')).toEqual({ importLocks: true, reconnect: false, disconnect: true, remove: false, budget: true });
    for (const state of ['needs_password', 'wrong_region', 'suspended'] as const) {
      expect(accountActions(state), state).toEqual({ importLocks: false, reconnect: true, disconnect: true, remove: false, budget: true });
    }
  });

  it('is removed only once disconnected', () => {
    expect(accountActions('disconnected')).toEqual({ importLocks: false, reconnect: true, disconnect: false, remove: true, budget: true });
    expect(LOCK_ACCOUNT_STATES.filter((s) => accountActions(s).remove)).toEqual(['disconnected']);
  });

  it('gives the reason of its state only when the state does not already say it', () => {
    expect(stateReason('needs_password', 'auth_failed')).toBeNull();
    expect(stateReason('wrong_region', 'wrong_region')).toBeNull();
    expect(stateReason('suspended', 'app_refused')).toBeNull();
    expect(stateReason('needs_password', 'permission_denied')).toBe('permission_denied');
    expect(stateReason('connected', 'monthly_limit')).toBe('monthly_limit');
    expect(stateReason('connected', null)).toBeNull();
  });

  it('asks a Seam workspace whose key was refused for a new API key, never for a password', () => {
    expect(stateTexts({ kind: 'seam', state: 'needs_password' })).toEqual({
      badge: 'lockAccounts.seam.needsKey',
      help: 'lockAccounts.errors.reconnectWithKey',
      reconnect: 'lockAccounts.seam.reconnect',
      disconnectText: 'lockAccounts.seam.disconnectText',
    });
    // Disconnected, its key was dropped (a TTLock account's tokens): said so, and so is what disconnecting does.
    expect(stateTexts({ kind: 'seam', state: 'disconnected' })).toEqual({
      badge: 'lockAccounts.states.disconnected',
      help: 'lockAccounts.seam.disconnected',
      reconnect: 'lockAccounts.seam.reconnect',
      disconnectText: 'lockAccounts.seam.disconnectText',
    });
    for (const kind of ['ttlock', 'tthotel'] as const) {
      expect(stateTexts({ kind, state: 'needs_password' }), kind).toEqual({
        badge: 'lockAccounts.states.needs_password',
        help: 'lockAccounts.stateHelp.needs_password',
        reconnect: 'lockAccounts.reconnect',
        disconnectText: 'lockAccounts.disconnectText',
      });
      expect(stateTexts({ kind, state: 'disconnected' }).help, kind).toBe('lockAccounts.stateHelp.disconnected');
    }
  });

  it('shows connected in green and needs of the administrator in amber', () => {
    expect(LOCK_ACCOUNT_STATES.map(stateVariant)).toEqual(['success', 'warning', 'warning', 'destructive', 'outline']);
  });
});

describe('the monthly budget bar', () => {
  it('fills in whole percent of the budget', () => {
    expect(budgetUse(0, 1000)).toEqual({ bar: 0, percent: 0 });
    expect(budgetUse(799, 1000)).toEqual({ bar: 79, percent: 79 });
    expect(budgetUse(LOCK_CALL_BUDGET.warnAtPercent * 10, 1000)).toEqual({ bar: 80, percent: 80 });
  });

  it('stops at its end when the calls passed the budget, and says by how much', () => {
    expect(budgetUse(1000, 1000)).toEqual({ bar: 100, percent: 100 });
    expect(budgetUse(2500, 1000)).toEqual({ bar: 100, percent: 250 });
  });

  it('is full for a budget of nothing', () => {
    expect(budgetUse(0, 0)).toEqual({ bar: 100, percent: 100 });
  });
});

describe('names', () => {
  it('names a lock by its name in the lock app, else its Bluetooth name', () => {
    expect(lockName({ name: 'S31_c4a1f2', alias: 'Room 101' })).toBe('Room 101');
    expect(lockName({ name: 'S31_c4a1f2', alias: '' })).toBe('S31_c4a1f2');
  });

  it('names an account by its label and user name', () => {
    expect(accountTitle({ username: 'hotel@example.com', label: '' })).toBe('hotel@example.com');
    expect(accountTitle({ username: 'hotel@example.com', label: 'Building A' })).toBe('Building A (hotel@example.com)');
  });
});

describe('the summary of "get locks"', () => {
  it('says the counts that are not zero, in order', () => {
    expect(importSummaryParts({ total: 12, added: 2, updated: 9, gone: 1, elsewhere: 0 })).toEqual([
      { key: 'added', number: 2 },
      { key: 'updated', number: 9 },
      { key: 'gone', number: 1 },
    ]);
    expect(importSummaryParts({ total: 3, added: 0, updated: 0, gone: 0, elsewhere: 3 })).toEqual([{ key: 'elsewhere', number: 3 }]);
    expect(importSummaryParts({ total: 0, added: 0, updated: 0, gone: 0, elsewhere: 0 })).toEqual([]);
  });
});
