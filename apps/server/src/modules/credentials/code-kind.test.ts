import { describe, expect, it } from 'vitest';
import { chooseCode, customFor } from './credential-writer';

/**
 * Which kind of code a rule gives on a lock (issue 38: capabilities, not vendors): `auto` gives a
 * chosen code when the lock can take one now, and no rule gives a lock a kind it refuses.
 */
const ttlock = (gatewayId: string | null) => ({ provider: 'ttlock', gatewayId, isWifi: false, onlinePasscodes: true, offlinePasscodes: true });
const seam = (online: boolean, offline: boolean) => ({ provider: 'seam', gatewayId: null, isWifi: false, onlinePasscodes: online, offlinePasscodes: offline });
const RANDOM = { codeRule: 'random', phoneFallback: 'random' } as const;

describe('the kind of a rule’s code on a lock', () => {
  it('auto: a chosen code where a TTLock gateway or WiFi reaches the lock, a generated one where none does', () => {
    expect(customFor({ codeType: 'auto' }, ttlock('G1'))).toBe(true);
    expect(customFor({ codeType: 'auto' }, ttlock(null))).toBe(false);
    expect(customFor({ codeType: 'auto' }, { ...ttlock(null), isWifi: true })).toBe(true);
  });

  it('auto on a Seam lock: a chosen code (Seam reaches its locks itself), a generated one where it takes no chosen code', () => {
    expect(customFor({ codeType: 'auto' }, seam(true, true))).toBe(true);
    expect(customFor({ codeType: 'auto' }, seam(false, true))).toBe(false);
  });

  it('never a kind the lock refuses: a keypad without offline codes gets a chosen code, one without online codes a generated one, whatever the rule', () => {
    expect(customFor({ codeType: 'generated' }, seam(true, false))).toBe(true);
    expect(customFor({ codeType: 'custom' }, seam(false, true))).toBe(false);
    expect(chooseCode({ ...RANDOM, codeType: 'generated' }, null, seam(true, false), new Set())).toMatchObject({ kind: 'custom', outcome: 'as_rule' });
    expect(chooseCode({ ...RANDOM, codeType: 'custom' }, null, seam(false, true), new Set())).toMatchObject({ kind: 'air', code: null });
    // As the rule says where the lock takes both.
    expect(chooseCode({ ...RANDOM, codeType: 'generated' }, null, ttlock('G1'), new Set())).toMatchObject({ kind: 'air' });
    expect(chooseCode({ ...RANDOM, codeType: 'custom' }, null, ttlock(null), new Set())).toMatchObject({ kind: 'custom' });
  });
});
