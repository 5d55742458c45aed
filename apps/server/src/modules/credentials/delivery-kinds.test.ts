import { describe, expect, it } from 'vitest';
import { registerCardDelivery } from '../cards/card-delivery';
import { CREDENTIAL_KINDS, credentialKind, generatedPeriods } from './delivery-kinds';

const H = 3_600_000;
const t = (h: number) => new Date(Date.UTC(2026, 10, 23, 0) + h * H);

describe('the periods a generated password may take when TTLock refuses its hours (-1026)', () => {
  it('tries the hours asked, then an hour earlier, an hour longer, two hours earlier', () => {
    expect(generatedPeriods('period', t(14), t(36))).toEqual([
      { validFrom: t(14), validUntil: t(36) },
      { validFrom: t(13), validUntil: t(36) },
      { validFrom: t(14), validUntil: t(37) },
      { validFrom: t(12), validUntil: t(36) },
    ]);
  });

  it('keeps a one-time code its 6 hours from its start, and a permanent one without an end', () => {
    expect(generatedPeriods('one_time', t(14), t(20))).toEqual([
      { validFrom: t(14), validUntil: t(20) },
      { validFrom: t(13), validUntil: t(19) },
      { validFrom: t(12), validUntil: t(18) },
    ]);
    expect(generatedPeriods('permanent', t(14), null).map((p) => p.validUntil)).toEqual([null, null, null]);
  });
});

describe('the delivery kinds other modules register (credentials imports no card module)', () => {
  it('has every kind once cards registered theirs, as createDeps does in every process', () => {
    expect(() => credentialKind('password')).not.toThrow();
    registerCardDelivery();
    for (const kind of CREDENTIAL_KINDS) expect(credentialKind(kind).findWork, kind).toBeTypeOf('function');
  });
});
