import { describe, expect, it } from 'vitest';
import { generatedPeriods } from './delivery-kinds';

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
